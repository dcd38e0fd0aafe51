/// A screen key: a Swift type name, optionally module-qualified or nested (`Shop.HomeViewController`).
public struct SwiftTypeName: Hashable, Sendable, CustomStringConvertible {
  /// The dot-separated components, without backticks.
  public var components: [String]

  public var description: String { components.joined(separator: ".") }
  /// The last component: the type's own name.
  public var simpleName: String { components[components.count - 1] }

  public struct ParseError: Error, Hashable, Sendable {
    public var message: String
  }

  public static func parse(_ text: String) -> Result<SwiftTypeName, ParseError> {
    if text.isEmpty { return .failure(ParseError(message: "a screen type name cannot be empty")) }
    if text.utf8.contains(UInt8(ascii: "<")) {
      return .failure(ParseError(message: "'\(text)' has generic arguments; name the type itself (a screen is matched by its type name)"))
    }
    var components: [String] = []
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    for component in parts {
      guard SwiftIdentifier.isValid(component, as: .declaration) else {
        if parts.count == 1 { return .failure(ParseError(message: "'\(text)' is not a Swift type name")) }
        let what = component.isEmpty ? "an empty component" : "'\(component)', which is not a Swift identifier"
        return .failure(ParseError(message: "'\(text)' is not a Swift type name: it has \(what)"))
      }
      components.append(component.hasPrefix("`") ? String(component.dropFirst().dropLast()) : String(component))
    }
    return .success(SwiftTypeName(components: components))
  }
}
