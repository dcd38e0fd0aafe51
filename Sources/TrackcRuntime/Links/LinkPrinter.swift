import Foundation
import TrackcLinks

/// Writes a route back as a link (`route.url`), so that reading it gives the same route again: every
/// segment and query value percent-encoded on its own (all but unreserved characters), `+` and space
/// escaped in the query.
///
/// The generated printer gives the parts as arrays (`[.literal("product"), .value(id, .int)]`), so a
/// pattern of any length is one call and the generated code stays declarative. Only a link that reads
/// back as the route is given, so a value no link can carry (`-5` as an `int`, an empty string, a
/// URL off the allowlist, a value over the bounds) gives nil, never a link to something else.
@_spi(Generated) public enum LinkPrinter {
  /// `route` as a custom-scheme link (`shop://product/1`, the first part its host); nil unless the link
  /// reads back as `route`.
  public static func url<Route: TrackableRoute>(
    of route: Route, scheme: StaticString, path: [LinkPathPart], query: [LinkQueryPart] = [], trailingSlash: Bool = false
  ) -> URL? {
    checked(url(start: scheme.description + "://", hostFirst: true, path: path, query: query, trailingSlash: trailingSlash), route)
  }

  /// `route` as a universal link on `host` (`https://shop.example.com/product/1`); nil unless the link
  /// reads back as `route`.
  public static func url<Route: TrackableRoute>(
    of route: Route, host: StaticString, path: [LinkPathPart], query: [LinkQueryPart] = [], trailingSlash: Bool = false
  ) -> URL? {
    checked(url(start: "https://" + host.description, hostFirst: false, path: path, query: query, trailingSlash: trailingSlash), route)
  }

  /// The link when it reads back as `route` (what generated routes' `url` promises), else nil.
  private static func checked<Route: TrackableRoute>(_ url: URL?, _ route: Route) -> URL? {
    guard let url, Route(url: url) == route else { return nil }
    return url
  }

  /// Nil when a segment would be `.` or `..`: browsers and the systems resolve those away (escaped as
  /// `%2E` too, by the URL standard), so the app would be opened with another link.
  private static func url(start: String, hostFirst: Bool, path: [LinkPathPart], query: [LinkQueryPart], trailingSlash: Bool) -> URL? {
    guard !path.contains(where: { $0.segments.contains { $0 == "." || $0 == ".." } }) else { return nil }
    return URL(string: text(start: start, hostFirst: hostFirst, path: path, query: query, trailingSlash: trailingSlash))
  }

  /// The link as text (what `url` parses).
  public static func text(start: String, hostFirst: Bool, path: [LinkPathPart], query: [LinkQueryPart], trailingSlash: Bool) -> String {
    var text = start
    var atHost = hostFirst
    let segments = path.flatMap(\.segments)
    for segment in segments {
      if atHost {
        atHost = false
      } else {
        text += "/"
      }
      text += LinkEncoding.segment(segment)
    }
    // A last segment that is empty (`{rest:path}` of `a//`) needs the `/` after it, or reading the link
    // would take that `/` for a trailing slash and lose the segment.
    if trailingSlash || (segments.last == "" && !(hostFirst && segments.count == 1)) { text += "/" }
    var separator = "?"
    for item in query {
      guard let value = item.value else { continue }
      text += separator + LinkEncoding.percentEncoded(item.name) + "=" + LinkEncoding.percentEncoded(value)
      separator = "&"
    }
    return text
  }
}

/// Segments of a printed link: a literal of the pattern, a parameter's value, or the rest of the path.
@_spi(Generated) public struct LinkPathPart: Sendable {
  let segments: [String]

  /// A literal segment of the pattern.
  public static func literal(_ segment: StaticString) -> LinkPathPart {
    LinkPathPart(segments: [segment.description])
  }

  /// A parameter's value as one segment.
  public static func value<Value>(_ value: Value, _ type: RouteValueType<Value>) -> LinkPathPart {
    LinkPathPart(segments: [type.linkText(value)])
  }

  /// `{rest:path}`: each segment on its own.
  public static func rest(_ segments: [String]) -> LinkPathPart {
    LinkPathPart(segments: segments)
  }
}

/// A query item of a printed link; left out when its value is nil or the default.
@_spi(Generated) public struct LinkQueryPart: Sendable {
  let name: String
  let value: String?

  /// A query parameter; nothing when the value is nil.
  public static func value<Value>(_ name: StaticString, _ value: Value?, _ type: RouteValueType<Value>) -> LinkQueryPart {
    LinkQueryPart(name: name.description, value: value.map(type.linkText))
  }

  /// A query parameter with a default (as the config writes it); nothing when the value is the default,
  /// which reading the link gives back.
  public static func value<Value>(_ name: StaticString, _ value: Value, _ type: RouteValueType<Value>, defaultText: StaticString) -> LinkQueryPart {
    let text = type.linkText(value)
    return LinkQueryPart(name: name.description, value: text == defaultText.description ? nil : text)
  }
}
