/// Where a bound property's value comes from, as `from:` writes it: a handler parameter by its argument
/// label or its name (`id`, `position`), the screen's state (`self.selectedTab`, `self.cart.total`), or a
/// property of a parameter (`item.sku`). A path reads at most `maximumSteps` properties: a binding names a
/// value close at hand, and a longer chain is a sign that the screen should offer the value itself.
public struct BindingPath: Hashable, Sendable, CustomStringConvertible {
  public enum Root: Hashable, Sendable {
    /// `self`: the screen the event is on.
    case screen
    /// A handler parameter, by its argument label or its name, without backticks.
    case parameter(String)
  }

  public static let maximumSteps = 4

  public var root: Root
  /// The properties read after the root, in order, without backticks.
  public var steps: [String]

  public var description: String {
    let head: String
    switch root {
    case .screen: head = "self"
    case .parameter(let name): head = name
    }
    return ([head] + steps).joined(separator: ".")
  }

  public struct ParseError: Error, Hashable, Sendable {
    public var message: String
  }

  /// Reads `from:`. Every failure is a sentence saying what is wrong and what is allowed.
  public static func parse(_ text: String) -> Result<BindingPath, ParseError> {
    let shown = text.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…" : text
    guard !text.isEmpty else {
      return .failure(ParseError(message: "'from' is empty; name a handler parameter ('id') or the screen's state ('self.cart.total')"))
    }
    let components = text.split(separator: ".", omittingEmptySubsequences: false)
    let steps = components.count - 1
    guard steps <= maximumSteps else {
      return .failure(
        ParseError(
          message: "'\(shown)' reads \(steps) properties; a binding reads at most \(maximumSteps) (give the screen a property that holds the value)"))
    }
    var names: [String] = []
    for (index, component) in components.enumerated() {
      guard !component.isEmpty else {
        return .failure(ParseError(message: "'\(shown)' has an empty step; write names separated by single dots, such as 'self.cart.total'"))
      }
      if index == 0 && component == "self" {
        names.append("self")
        continue
      }
      // After a dot, and as an argument label, most keywords are names (`self.default`, `for`).
      guard SwiftIdentifier.isValid(component, as: .member), !isReserved(component) else {
        return .failure(
          ParseError(
            message:
              "'\(shown)' is not a binding path: \(describe(component)) is not a Swift name; write a handler parameter ('id') or a path such as 'self.cart.total'"
          ))
      }
      names.append(component.hasPrefix("`") ? String(component.dropFirst().dropLast()) : String(component))
    }
    if components[0] == "self" {
      guard steps > 0 else {
        return .failure(
          ParseError(message: "'self' is the screen itself, which is not a property value; name a property of it, such as 'self.selectedTab'"))
      }
      return .success(BindingPath(root: .screen, steps: Array(names.dropFirst())))
    }
    return .success(BindingPath(root: .parameter(names[0]), steps: Array(names.dropFirst())))
  }

  /// Names that cannot stand for a parameter or a property even after a dot.
  private static func isReserved(_ component: Substring) -> Bool {
    ["self", "Self", "Type", "init", "_"].contains(component)
  }

  private static func describe(_ component: Substring) -> String {
    let text = component.unicodeScalars.count > 24 ? String(String.UnicodeScalarView(component.unicodeScalars.prefix(24))) + "…" : String(component)
    return "'\(text)'"
  }
}

/// The types a property can have on the wire, as `type:` and the plan's `properties` write them.
public enum PropertyType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case string, int, double, bool

  public var description: String { rawValue }

  /// What a type name may have been meant as (`Int`, `integer`, `float`, `Boolean`): for did-you-mean.
  public static func suggestion(for text: String) -> PropertyType? {
    switch text.lowercased() {
    case "string", "str", "text", "substring", "character": return .string
    case "int", "integer", "int64", "int32", "long", "uint": return .int
    case "double", "float", "decimal", "real", "cgfloat", "float64", "number": return .double
    case "bool", "boolean", "flag": return .bool
    default: return Suggestions.closest(to: text, in: allCases.map(\.rawValue)).flatMap(PropertyType.init(rawValue:))
    }
  }

  /// The Swift type a typed tracking function takes.
  public var swiftName: StaticString {
    switch self {
    case .string: return "String"
    case .int: return "Int"
    case .double: return "Double"
    case .bool: return "Bool"
    }
  }

  /// The JSON type, as JSON Schema names it.
  public var jsonType: String {
    switch self {
    case .string: return "string"
    case .int: return "integer"
    case .double: return "number"
    case .bool: return "boolean"
    }
  }

  /// Whether a value of this type may stand where `other` is expected: only itself, and an integer where
  /// a double is (a JSON number either way).
  public func fits(_ other: PropertyType) -> Bool {
    self == other || (self == .int && other == .double)
  }
}
