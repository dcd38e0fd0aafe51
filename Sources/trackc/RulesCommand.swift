import ArgumentParser
import TrackcCore

struct RulesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rules",
    abstract: "List every rule with its id, severity and what it checks."
  )

  @Flag(help: "Print the rules' reference page in Markdown, with every example and what trackc reports for it (docs/rules.md).")
  var markdown = false

  func run() {
    if markdown {
      print(RuleDocumentation.markdown, terminator: "")
      return
    }
    let rules = RuleCatalog.all
    let width = rules.map { $0.id.count }.max() ?? 0
    for rule in rules {
      let padding = String(repeating: " ", count: width - rule.id.count)
      print("\(rule.id)\(padding)  \(rule.severity.rawValue.padding(7))  \(rule.summary)")
    }
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - count))
  }
}
