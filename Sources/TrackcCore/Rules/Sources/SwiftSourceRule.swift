/// A Swift source that could not be read completely: unreadable, not UTF-8, too large, or not valid
/// Swift (what the parser recovered is still used, but declarations after the error may be missed).
public enum SwiftSourceRule: Rule {
  public static let id = "swift-source"
  public static let summary = "Swift sources must be readable, UTF-8 and valid Swift, or handlers in them may be missed."
  public static let phase = RulePhase.sources
  public static let severity = Diagnostic.Severity.warning

  public static let examples: [RuleExample] = [
    .triggers(
      "version: 1\nscreens:\n  Home: {control_events: {onFav(_:): HOME_FAV}}\n",
      swift: ["Sources/App/Home.swift": "class Home {\n  func onFav(_ sender: Any) {}\n  func broken(1️⃣\n}\n"],
      expecting: [.warning("this is not valid Swift: expected ')' to end parameter clause; declarations after it may be missed")]),
    .passes(
      "version: 1\nscreens:\n  Home: {control_events: {onFav(_:): HOME_FAV}}\n",
      swift: ["Sources/App/Home.swift": "class Home {\n  @objc func onFav(_ sender: Any) {}\n}\n"]),
  ]

  // Found while reading the sources: `SourceScanner` (unreadable, not UTF-8 or too large files, parse
  // crashes and time-outs in the worker processes) and `RegistryLinker` (the first syntax error of a file
  // that swift-syntax could only partly parse) report `SourceProblem`s, which this rule turns into warnings
  // at the file and position they name.
  static func report(_ problem: SourceProblem, in context: inout RuleContext) {
    context.report(Self.self, problem.message, at: problem.location)
  }
}
