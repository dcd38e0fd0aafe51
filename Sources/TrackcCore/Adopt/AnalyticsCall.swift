/// One call to an analytics SDK or a wrapper, as `CallFinder` reads it from a file.
public struct AnalyticsCall: Sendable, Hashable {
  /// What the call sends as the event's name.
  public enum EventName: Sendable, Hashable {
    /// Read from the code: the name and how (`a string literal`, `the raw value of AnalyticsEvent.signIn`).
    case known(String, how: String)
    /// Not readable without running the code: the expression, and why.
    case unknown(expression: String, why: String)

    public var name: String? {
      if case .known(let name, _) = self { return name }
      return nil
    }
  }

  /// A value of the properties' dictionary literal.
  public enum PropertyValue: Sendable, Hashable {
    case string(String)
    /// An integer or floating-point literal, as written (without `_` separators).
    case number(String, isInteger: Bool)
    case bool(Bool)
    /// A plain name (`id`): a parameter, a local or a property of `self`.
    case name(String)
    /// `self.cart.total` (without `self.`: `cart`, `total`).
    case selfPath([String])
    /// Anything else, as written.
    case expression(String)
  }

  public struct Property: Sendable, Hashable {
    /// The key, when it is a plain string literal; nil otherwise (`keyText` is then the expression).
    public var key: String?
    public var keyText: String
    public var value: PropertyValue
    public var valueText: String
    public var location: SourceLocation
  }

  /// What the call passes as properties.
  public enum Properties: Sendable, Hashable {
    /// None (or `nil`).
    case none
    /// A dictionary literal (possibly a local's, introduced only for this call).
    case literal([Property])
    /// Another expression: a variable, a call, a dictionary built elsewhere.
    case opaque(String)
  }

  /// Why the call's firing depends on more than its function being called.
  public struct Context: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
      /// Inside a closure: run later, several times, or never.
      case closure
      /// Inside a loop.
      case loop
      /// Inside an `if`, `guard`, `switch`, `catch`, `?:`, `&&`, `||` or `??`, or after an early exit.
      case condition
    }
    public var kind: Kind
    /// Where the call is: `inside a closure`, `after an early exit`.
    public var what: String
    public var line: Int
  }

  /// The function a call is written in.
  public struct Function: Sendable, Hashable {
    /// `onCheckout(_:)`; `init(cart:)`; `var total` for an accessor.
    public var name: String
    public var isMethod: Bool
    public var isStatic: Bool
    /// Parameter names in the body, with their argument labels (nil for `_`) and types as written.
    public var parameters: [(label: String?, name: String, type: String)]

    public static func == (lhs: Function, rhs: Function) -> Bool {
      lhs.name == rhs.name && lhs.isMethod == rhs.isMethod && lhs.isStatic == rhs.isStatic
        && lhs.parameters.elementsEqual(rhs.parameters) { $0.label == $1.label && $0.name == $1.name && $0.type == $1.type }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
  }

  /// A byte range of the file: the statements that removing the call takes out (the call's, and a local
  /// introduced only for it), each through its line's end when nothing else is on its lines.
  public struct Removal: Sendable, Hashable {
    /// Byte offsets of each statement's text (without trivia), in order.
    public var statements: [Range<Int>]
  }

  public var origin: String
  public var isScreenCall: Bool
  public var name: EventName
  public var properties: Properties
  /// Arguments the pattern does not name (`story:` of `Analytics.track(.shown, story: id)` when the
  /// wrapper is `Analytics.track(_:properties:)`), by label (`_` for none): what they add is unknown.
  public var extraArguments: [String] = []
  /// Where the call starts (the receiver or the function's name).
  public var location: SourceLocation
  /// The type (or extension) it is written in, qualified by the enclosing types; nil at the top level.
  public var enclosingType: String?
  public var function: Function?
  /// What makes its firing conditional, innermost first; empty when it fires each time its function runs.
  public var contexts: [Context]
  /// Nil when the call is not a statement of its own (`let sent = track(...)`, an argument).
  public var removal: Removal?
}
