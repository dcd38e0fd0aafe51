/// Why `trackc adopt` leaves a call in the code: each reason is a rule ID of the report, a warning at the
/// call's location.
public enum AdoptReason: String, Sendable, CaseIterable, Hashable {
  case callInClosure = "adopt-call-in-closure"
  case callInLoop = "adopt-call-in-loop"
  case callInCondition = "adopt-call-in-condition"
  case notAScreen = "adopt-not-a-screen"
  case notAHandler = "adopt-not-a-handler"
  case severalCalls = "adopt-several-calls"
  case dynamicEventName = "adopt-dynamic-event-name"
  case dynamicProperties = "adopt-dynamic-properties"
  case computedPropertyValue = "adopt-computed-property-value"
  case extraArguments = "adopt-extra-arguments"
  case screenCall = "adopt-screen-call"
  case notAStatement = "adopt-not-a-statement"
  case lintRefused = "adopt-lint-refused"
  case alreadyPlanned = "adopt-already-planned"
  case planLayout = "adopt-plan-layout"
  case invalidSwift = "adopt-invalid-swift"

  /// One line: what the reason means, for `docs/adopt.md` and the report's help.
  public var summary: String {
    switch self {
    case .callInClosure: return "the call is inside a closure (or a defer block): it may run later, many times or never"
    case .callInLoop: return "the call is inside a loop: it fires once per iteration"
    case .callInCondition: return "a condition (if, guard, switch, catch, ?:, &&, ||, ??, an early exit) decides whether it fires"
    case .notAScreen:
      return "the call is not in a method of a screen (a view controller of the sources, or a SwiftUI view model under dynamic-replacement)"
    case .notAHandler: return "the method it is in is neither a handler the interception reports nor a page lifecycle method"
    case .severalCalls: return "its method makes several calls; a handler or a page phase has one event"
    case .dynamicEventName: return "the event's name is not readable from the code (built at run time, or ambiguous)"
    case .dynamicProperties: return "its properties are not a dictionary literal with string-literal keys"
    case .computedPropertyValue:
      return "a property's value is computed (from locals, calls, operators), not a parameter, the screen's state or a literal"
    case .extraArguments: return "the call passes arguments the call shape does not name, whose effect on what is sent is unknown"
    case .screenCall: return "a Segment screen call outside viewDidAppear(_:): trackc sends a screen call for a page's enter event alone"
    case .notAStatement: return "the call's result is used, so it cannot be taken out alone"
    case .lintRefused: return "the plan entry it would become does not pass trackc lint (the message says why)"
    case .alreadyPlanned:
      return "the plan it is added to already has another event where this one would go (another name, call or properties)"
    case .invalidSwift:
      return "its file is not valid Swift to swift-syntax: taking a statement out could change how the rest of it reads"
    case .planLayout: return "the plan it is added to writes the mapping this event would join in flow style ({...}), which takes no new line"
    }
  }
}
