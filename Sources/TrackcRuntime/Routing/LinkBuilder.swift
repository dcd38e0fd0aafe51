import Foundation

/// Writes a route back as a link (`route.url`), so that reading it gives the same route again: every
/// segment and query value percent-encoded on its own (all but unreserved characters), `.` and `..`
/// segments escaped so that no URL library can resolve them away, `+` and space escaped in the query.
public struct LinkBuilder: Sendable {
  private var text: String
  /// Before the first segment of a custom scheme, which is its host and takes no `/`.
  private var atHost: Bool
  private var hasQuery = false

  /// A custom-scheme link (`shop://`): the first literal is its host.
  public init(scheme: StaticString) {
    text = scheme.description + "://"
    atHost = true
  }

  /// A universal link on `host` (`https://shop.example.com`).
  public init(host: StaticString) {
    text = "https://" + host.description
    atHost = false
  }

  /// A literal segment of the pattern.
  public func literal(_ segment: StaticString) -> LinkBuilder {
    appending(segment: segment.description)
  }

  /// A parameter's value as a segment.
  public func value<Value>(_ value: Value, as type: RouteValueType<Value>) -> LinkBuilder {
    appending(segment: type.linkText(value))
  }

  /// `{rest:path}`: each segment on its own.
  public func rest(_ segments: [String]) -> LinkBuilder {
    segments.reduce(self) { $0.appending(segment: $1) }
  }

  /// The `/` a pattern ends with (under `trailing_slash: strict`).
  public func trailingSlash() -> LinkBuilder {
    var copy = self
    copy.text += "/"
    return copy
  }

  /// A query parameter; nothing when the value is nil.
  public func query<Value>(_ name: StaticString, _ value: Value?, as type: RouteValueType<Value>) -> LinkBuilder {
    guard let value else { return self }
    var copy = self
    copy.text += (hasQuery ? "&" : "?") + LinkEncoding.percentEncoded(name.description) + "=" + LinkEncoding.percentEncoded(type.linkText(value))
    copy.hasQuery = true
    return copy
  }

  /// A query parameter with a default; nothing when the value is the default.
  public func query<Value: Equatable>(_ name: StaticString, _ value: Value, as type: RouteValueType<Value>, default: Value) -> LinkBuilder {
    value == `default` ? self : query(name, Optional(value), as: type)
  }

  public var url: URL? { URL(string: text) }

  /// The link as text.
  public var string: String { text }

  private func appending(segment: String) -> LinkBuilder {
    var copy = self
    if copy.atHost {
      copy.atHost = false
    } else {
      copy.text += "/"
    }
    copy.text += LinkEncoding.segment(segment)
    return copy
  }
}
