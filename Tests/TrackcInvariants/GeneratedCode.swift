import SwiftDiagnostics
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax
import TrackcCore

extension Invariants {
  /// `trackc generate` on `bytes`, checked as `generatedCodeViolations` says.
  public static func generateViolations(_ bytes: [UInt8]) -> [String] {
    generatedCodeViolations(lint(bytes))
  }

  /// For a config that lints clean, the generated Swift parses without a single syntax error, and every
  /// string literal in it reads back as a string of the config (or of the code, for the names that come
  /// from the sources): no string can end a literal early, interpolate, or change on the way.
  public static func generatedCodeViolations(_ lint: LintResult) -> [String] {
    let result = Generator.generate(lint, options: Generator.Options(name: "Tracking", configFileName: configPath))
    guard !result.files.isEmpty else {
      // A config that lints clean either generates, or `trackc generate` says why (a generation rule).
      if lint.diagnostics.hasErrors || result.diagnostics.hasErrors { return [] }
      return ["a config that lints clean generated nothing, and no error says why"]
    }
    var known = KnownStrings()
    known.collect(lint.config as Any)
    known.collect(lint.code as Any)
    // Link patterns are written whole in the config; the routes use their parsed parts (literals, query
    // keys, enumeration values, lower-case schemes and hosts), which the plan holds.
    known.collect(lint.plan as Any)
    // The plan's content hash (`PlanHash`, in the registry's `plan`): hex digits the generator works
    // out from the file, no string of it.
    if let hash = PlanHash.ofFile(atPath: lint.path) { known.collect(hash) }
    var violations: [String] = []
    for file in result.files {
      let tree = Parser.parse(source: file.contents)
      for error in ParseDiagnosticsGenerator.diagnostics(for: tree) where error.diagMessage.severity == .error {
        let location = error.location(converter: SourceLocationConverter(fileName: file.name, tree: tree))
        violations.append("\(file.name):\(location.line):\(location.column): syntax error: \(error.message)")
      }
      let literals = StringLiterals(viewMode: .sourceAccurate)
      literals.walk(tree)
      for literal in literals.found {
        guard let value = literal.representedLiteralValue else {
          violations.append("\(file.name): the literal \(literal.trimmedDescription) does not read back as a plain string")
          continue
        }
        if !known.contains(value) {
          violations.append(
            "\(file.name): the literal \(literal.trimmedDescription) reads back as \(value.debugDescription), which is no string of the config")
        }
      }
    }
    return violations
  }
}

/// Every string literal in a tree (the outermost ones: the generator writes no interpolation).
private final class StringLiterals: SyntaxVisitor {
  var found: [StringLiteralExprSyntax] = []

  override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
    found.append(node)
    return .skipChildren
  }
}

/// The strings reachable from a value's stored properties, found by reflection so that the check
/// follows the config model as it changes. A dotted literal (`Module.Type`, a qualified name the
/// generator joins) is known when each of its parts is.
struct KnownStrings {
  /// The empty string is the generator's own (the name it answers for an unknown screen or handler).
  private var strings: Set<String> = [""]
  private var visited: Set<ObjectIdentifier> = []

  mutating func collect(_ value: Any) {
    switch value {
    case let string as String:
      strings.insert(string)
      return
    case let string as Substring:
      strings.insert(String(string))
      return
    case let raw as any RawRepresentable:
      if let string = raw.rawValue as? String { strings.insert(string) }
    default:
      break
    }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .class {
      guard visited.insert(ObjectIdentifier(value as AnyObject)).inserted else { return }
    }
    for child in mirror.children { collect(child.value) }
  }

  func contains(_ string: String) -> Bool {
    strings.contains(string) || string.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { strings.contains(String($0)) }
      || Self.mangledNames(string)?.allSatisfy(strings.contains) == true
  }

  /// The names in the Objective-C runtime's mangled name of a nested Swift class (`_TtCC4Shop5Outer5Inner`
  /// is `Shop`, `Outer`, `Inner`: a kind letter per level, then each name after its length in UTF-8
  /// bytes), which the generator spells out from the names of the code; nil for any other string.
  static func mangledNames(_ string: String) -> [String]? {
    guard string.hasPrefix("_Tt") else { return nil }
    var bytes = Array(string.utf8.dropFirst(3))
    var levels = 0
    while let first = bytes.first, [UInt8(ascii: "C"), UInt8(ascii: "V"), UInt8(ascii: "O")].contains(first) {
      levels += 1
      bytes.removeFirst()
    }
    var names: [String] = []
    while !bytes.isEmpty {
      var length = 0
      while let digit = bytes.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) {
        length = length * 10 + Int(digit - UInt8(ascii: "0"))
        bytes.removeFirst()
        guard length <= bytes.count else { return nil }
      }
      let slice = Array(bytes.prefix(length))
      let name = String(decoding: slice, as: UTF8.self)
      guard length > 0, Array(name.utf8) == slice else { return nil }
      names.append(name)
      bytes.removeFirst(length)
    }
    // The module, then one name a level.
    return levels >= 2 && names.count == levels + 1 ? names : nil
  }
}
