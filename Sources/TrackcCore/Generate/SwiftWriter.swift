/// Lines of generated Swift with two-space indentation.
struct SwiftWriter {
  private(set) var lines: [String] = []
  private var depth = 0

  mutating func line(_ text: String = "") {
    lines.append(text.isEmpty ? "" : String(repeating: "  ", count: depth) + text)
  }

  /// `opening {`, the body one level in, `}`.
  mutating func block(_ opening: String, closing: String = "}", _ body: (inout SwiftWriter) -> Void) {
    line(opening + " {")
    depth += 1
    body(&self)
    depth -= 1
    line(closing)
  }

  /// `switch subject {`, the cases at the switch's own indentation (as swift-format writes them), `}`.
  mutating func switchBlock(_ subject: String, _ cases: (inout SwiftWriter) -> Void) {
    line("switch \(subject) {")
    cases(&self)
    line("}")
  }

  /// The body one level in, without braces (the statements of a `case`).
  mutating func indented(_ body: (inout SwiftWriter) -> Void) {
    depth += 1
    body(&self)
    depth -= 1
  }

  var text: String { lines.joined(separator: "\n") + "\n" }
}
