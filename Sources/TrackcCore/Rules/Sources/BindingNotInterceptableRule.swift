/// A binding the config's interception cannot capture. Under `objc-runtime` the generated replacement of
/// the handler's Objective-C implementation holds the handler's arguments and its object (the screen),
/// and reads state by key path, so only the arguments and `@objc` properties are reachable, and past a
/// type outside the sources (`sender.tag` on a `UIButton`) the adapter needs the declared `type:` to
/// convert what it reads. Under `dynamic-replacement` the generated replacement, in another file, reads
/// the value: it must not be private, its getter must not throw or be async, and its path must stay
/// inside the sources (the type of what it reads is needed).
public enum BindingNotInterceptableRule: CodeRule {
  public static let id = "binding-not-interceptable"
  public static let summary =
    "A binding must be readable by the config's interception (objc-runtime: the handler's arguments and @objc properties; dynamic-replacement: not private, no throwing or async getter)."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      RuleExample.handlerConfig(
        "FeedViewController", "open(_:at:)", event: "FEED_OPEN",
        properties: "{position: {from: at}, tab: {from: 1️⃣self.tab}, title: {from: self.screenTitle}}"),
      swift: [
        "Sources/Feed/Feed.swift": """
        class FeedViewController {
          var tab: String = ""
          @objc var screenTitle: String = ""
          @objc func open(_ sender: Any, at position: Int) {}
        }
        """
      ],
      expecting: [
        .error(
          "property 'tab' of handler 'open(_:at:)' of 'FeedViewController' reads 'tab', which is not exposed to Objective-C; under interception: objc-runtime only the handler's arguments and the @objc state of the screen and of what they hold are reachable (mark it '@objc')"
        )
      ]),
    .triggers(
      RuleExample.handlerConfig(
        "FeedViewController", "open()", event: "FEED_OPEN", properties: "{tab: {from: 1️⃣self.tab}, count: {from: 2️⃣self.count}}",
        interception: "dynamic-replacement"),
      swift: [
        "Sources/Feed/Feed.swift": """
        final class FeedViewController {
          private var tab: String = ""
          var count: Int { get throws { 0 } }
          func open() {}
        }
        """
      ],
      expecting: [
        .error(
          "property 'tab' of handler 'open()' of 'FeedViewController' reads 'tab', which is private, so the generated replacement cannot read it (make it internal, or 'private(set)')"
        ),
        .error(
          "property 'count' of handler 'open()' of 'FeedViewController' reads 'count', which has a getter that throws or is async, which the generated replacement cannot call"
        ),
      ]),
    .triggers(
      RuleExample.handlerConfig(
        "FeedViewController", "open(_:)", event: "FEED_OPEN", properties: "{position: {from: 1️⃣sender.tag, type: int}}",
        interception: "dynamic-replacement"),
      swift: ["Sources/Feed/Feed.swift": "import UIKit\nfinal class FeedViewController {\n  func open(_ sender: UIButton) {}\n}\n"],
      expecting: [
        .error(
          "property 'position' of handler 'open(_:)' of 'FeedViewController' reads 'tag' of 'UIButton', a type outside the sources, which trackc cannot check, so the generated replacement cannot read it (give the screen or the handler a value of a type the sources declare)"
        )
      ]),
    .triggers(
      RuleExample.handlerConfig(
        "FeedViewController", "open(_:)", event: "FEED_OPEN", properties: "{position: {from: 1️⃣sender.tag}}"),
      swift: ["Sources/Feed/Feed.swift": "import UIKit\nclass FeedViewController {\n  @objc func open(_ sender: UIButton) {}\n}\n"],
      expecting: [
        .error(
          "property 'position' of handler 'open(_:)' of 'FeedViewController' reads 'tag' of 'UIButton', a type outside the sources: the adapter reads it by key path unchecked, so declare the type it sends (type: string, int, double or bool)"
        )
      ]),
    .passes(
      RuleExample.handlerConfig(
        "FeedViewController", "open(_:)", event: "FEED_OPEN", properties: "{position: {from: sender.tag, type: int}, title: {from: self.screenTitle}}"
      ),
      swift: [
        "Sources/Feed/Feed.swift":
          "import UIKit\nclass FeedViewController {\n  @objc var screenTitle: String = \"\"\n  @objc func open(_ sender: UIButton) {}\n}\n"
      ]),
    .passes(
      RuleExample.handlerConfig(
        "FeedViewController", "open(at:)", event: "FEED_OPEN", properties: "{tab: {from: self.tab}, position: {from: at}}",
        interception: "dynamic-replacement"),
      swift: [
        "Sources/Feed/Feed.swift": "final class FeedViewController {\n  private(set) var tab: String = \"\"\n  func open(at position: Int) {}\n}\n"
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    code.forEachBinding { site in
      guard let (_, steps, _, _) = site.resolution.reading else { return }
      var outside: OutsideValue?
      if case .outsideSources(let value) = site.resolution { outside = value }
      switch code.plan.interception {
      case .objcRuntime:
        for step in steps where code.index[step.property].objcName == nil {
          let property = code.index[step.property]
          context.report(
            Self.self,
            "\(site.subject) reads '\(step.name)', which is not exposed to Objective-C; under interception: objc-runtime only the handler's arguments and the @objc state of the screen and of what they hold are reachable (mark it '@objc')",
            at: site.source.range, notes: [Diagnostic.Note("'\(property.name)' is declared here", at: property.nameLocation)])
          return
        }
        if let outside, code.plan.expectedType(of: site.property) == nil {
          context.report(
            Self.self,
            "\(site.subject) reads '\(outside.uncheckedSteps.joined(separator: "."))' of '\(outside.typeName)', a type outside the sources: the adapter reads it by key path unchecked, so declare the type it sends (type: string, int, double or bool)",
            at: site.source.range, notes: [Diagnostic.Note("'\(outside.typeName)' is used here", at: outside.declaration)])
        }
      case .dynamicReplacement:
        for step in steps {
          let property = code.index[step.property]
          let problem: String
          if property.access <= .fileprivate {
            problem = "is \(property.access.rawValue), so the generated replacement cannot read it (make it internal, or 'private(set)')"
          } else if property.hasEffectfulGetter {
            problem = "has a getter that throws or is async, which the generated replacement cannot call"
          } else {
            continue
          }
          context.report(
            Self.self, "\(site.subject) reads '\(step.name)', which \(problem)", at: site.source.range,
            notes: [Diagnostic.Note("'\(property.name)' is declared here", at: property.nameLocation)])
          return
        }
        if let outside {
          context.report(
            Self.self,
            "\(site.subject) reads '\(outside.uncheckedSteps.joined(separator: "."))' of '\(outside.typeName)', a type outside the sources, which trackc cannot check, so the generated replacement cannot read it (give the screen or the handler a value of a type the sources declare)",
            at: site.source.range, notes: [Diagnostic.Note("'\(outside.typeName)' is used here", at: outside.declaration)])
        }
      }
    }
  }
}
