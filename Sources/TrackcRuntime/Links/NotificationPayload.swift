import Foundation
import TrackcLinks

/// A notification's `userInfo`, read by dotted key paths (`order.id`) as the config writes them: a
/// string is itself, an integer its decimal digits, a Boolean `true` or `false`; anything else (a
/// dictionary, an array, a date) is not a value. Nested dictionaries are followed at most
/// `maximumDepth` keys deep.
@_spi(Generated) public struct NotificationPayload {
  public static let maximumDepth = 8
  private let userInfo: [AnyHashable: Any]

  public init(_ userInfo: [AnyHashable: Any]) {
    self.userInfo = userInfo
  }

  /// The value at `path` as text; nil when a key is missing or the value is not a string, integer or
  /// Boolean.
  public func text(at path: StaticString) -> String? {
    let keys = path.description.split(separator: ".", omittingEmptySubsequences: false)
    guard !keys.isEmpty, keys.count <= Self.maximumDepth else { return nil }
    var current: Any = userInfo
    for key in keys {
      guard let next = Self.lookUp(String(key), in: current) else { return nil }
      current = next
    }
    switch current {
    case let text as String: return text
    case let bool as Bool where type(of: current) == Bool.self: return bool ? "true" : "false"
    case let int as Int: return String(int)
    case let int as Int64: return String(int)
    default: return nil
    }
  }

  private static func lookUp(_ key: String, in value: Any) -> Any? {
    if let dictionary = value as? [AnyHashable: Any] { return dictionary[AnyHashable(key)] }
    if let dictionary = value as? [String: Any] { return dictionary[key] }
    return nil
  }

  /// The hash of the value at `path` (`LinkHash`), for the generated selector's `switch`; 0 when there
  /// is none (a selector always confirms the value itself, so a hash of 0 selects nothing by mistake).
  public func selectorHash(at path: StaticString) -> UInt64 {
    text(at: path).map { LinkHash.hash($0) } ?? 0
  }

  /// Whether the value at `path` is `expected`.
  public func value(at path: StaticString, is expected: StaticString) -> Bool {
    text(at: path) == expected.description
  }

  /// A required parameter: nil when missing or not of the type.
  public func value<Value>(at path: StaticString, as type: RouteValueType<Value>) -> Value? {
    text(at: path).flatMap { type.value(of: $0) }
  }

  /// An optional parameter: `.some(nil)` when missing; nil when present but not of the type.
  public func optionalValue<Value>(at path: StaticString, as type: RouteValueType<Value>) -> Value?? {
    guard let text = text(at: path) else { return .some(nil) }
    guard let value = type.value(of: text) else { return nil }
    return .some(value)
  }

  /// A parameter with a default as the config writes it: the default when missing; nil when present but
  /// not of the type.
  public func value<Value>(at path: StaticString, as type: RouteValueType<Value>, defaultText: StaticString) -> Value? {
    switch optionalValue(at: path, as: type) {
    case .none: return nil
    case .some(.none): return type.value(of: defaultText.description)
    case .some(.some(let found)): return found
    }
  }

  /// A parameter with a default: the default when missing; nil when present but not of the type.
  public func value<Value>(at path: StaticString, as type: RouteValueType<Value>, default value: Value) -> Value? {
    switch optionalValue(at: path, as: type) {
    case .none: return nil
    case .some(.none): return value
    case .some(.some(let found)): return found
    }
  }
}
