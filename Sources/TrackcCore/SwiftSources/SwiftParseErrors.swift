import SwiftParserDiagnostics
import SwiftSyntax

/// A tree's parse errors, as swift-syntax's diagnostics generator words them, but for a case it cannot
/// take: swift-syntax 603's generator stops the process (a precondition, "A Fix-It must have at least
/// one change") on an `=` its lexer finds spaced unevenly while the trivia beside it hold a space on both
/// sides, as when an invalid character touches it (`case a \u{FFFD}= "b"`, found by fuzzing). A tree
/// with such a token is reported at that token, in the lexer's words, without the generator.
enum SwiftParseErrors {
  /// The errors' positions and messages, in the generator's order.
  static func errors(in tree: SourceFileSyntax) -> [(position: AbsolutePosition, message: String)] {
    if let token = tree.tokens(viewMode: .all).first(where: stopsTheGenerator) {
      // The lexer's words for it (its message is not public API).
      return [(token.positionAfterSkippingLeadingTrivia, "'=' must have consistent whitespace on both sides")]
    }
    return ParseDiagnosticsGenerator.diagnostics(for: tree).filter { $0.diagMessage.severity == .error }.map { ($0.position, $0.message) }
  }

  /// The generator's Fix-It for this token would have no change: its precondition fails.
  static func stopsTheGenerator(_ token: TokenSyntax) -> Bool {
    guard token.tokenDiagnostic?.kind == .equalMustHaveConsistentWhitespaceOnBothSides else { return false }
    let spaceBefore = token.previousToken(viewMode: .all)?.trailingTrivia.contains { $0.isSpaceOrTab } ?? false
    let spaceAfter = token.trailingTrivia.contains { $0.isSpaceOrTab }
    return spaceBefore && spaceAfter
  }
}
