import Foundation
import TrackcLinks

/// A route parameter's type as generated routes use it: which kinds of link value it accepts, how its
/// text becomes the Swift value, how the value is written back into a link, and what property the open
/// event carries. One value per type of the config (`int`, `string`, an enumeration...), so links,
/// notifications, printing and tracking agree.
@_spi(Generated) public struct RouteValueType<Value: Sendable>: Sendable {
  /// The kinds of link value the type accepts (`LinkValueType.accepted`); values of other kinds are never
  /// converted.
  public let accepted: SegmentKinds
  @usableFromInline let make: @Sendable (String) -> Value?
  @usableFromInline let text: @Sendable (Value) -> String
  @usableFromInline let property: @Sendable (Value) -> PropertyValue

  public init(
    accepted: SegmentKinds, make: @escaping @Sendable (String) -> Value?, text: @escaping @Sendable (Value) -> String,
    property: @escaping @Sendable (Value) -> PropertyValue
  ) {
    self.accepted = accepted
    self.make = make
    self.text = text
    self.property = property
  }

  /// The value of decoded text, when the text is of an accepted kind.
  @inlinable
  public func value(of text: String, kind: SegmentKind) -> Value? {
    accepted.contains(kind) ? make(text) : nil
  }

  /// The value of text from elsewhere than a link (a notification's payload): classified first.
  public func value(of text: String, limits: LinkLimits = LinkLimits()) -> Value? {
    guard text.utf8.count <= limits.maximumValueBytes else { return nil }
    return value(of: text, kind: SegmentKind.of(text))
  }

  /// The value as a link writes it (before percent-encoding).
  public func linkText(_ value: Value) -> String { text(value) }

  /// The value as the open event's property.
  public func propertyValue(_ value: Value) -> PropertyValue { property(value) }
}

extension RouteValueType where Value == Int {
  /// `int`: ASCII digits that fit `Int`.
  public static var int: Self {
    Self(accepted: LinkValueType.int.accepted, make: { Int($0) }, text: { String($0) }, property: { .int($0) })
  }
}

extension RouteValueType where Value == Int64 {
  /// `int64`: ASCII digits that fit `Int64`.
  public static var int64: Self {
    Self(
      accepted: LinkValueType.int64.accepted, make: { Int64($0) }, text: { String($0) },
      // Past `Int`'s range (32-bit platforms), the property is the digits.
      property: { Int(exactly: $0).map(PropertyValue.int) ?? .string(String($0)) })
  }
}

extension RouteValueType where Value == String {
  /// `string`: non-empty text without control characters.
  public static var string: Self {
    Self(accepted: LinkValueType.string.accepted, make: { $0 }, text: { $0 }, property: { .string($0) })
  }

  /// `slug`: ASCII letters, digits, `-` and `_`.
  public static var slug: Self {
    Self(accepted: LinkValueType.slug.accepted, make: { $0 }, text: { $0 }, property: { .string($0) })
  }
}

extension RouteValueType where Value == UUID {
  /// `uuid`: canonical form, either case; written in lower case.
  public static var uuid: Self {
    Self(
      accepted: LinkValueType.uuid.accepted, make: uuid(fromCanonical:), text: { $0.uuidString.lowercased() },
      property: { .string($0.uuidString.lowercased()) })
  }

  /// The UUID of canonical text (`8-4-4-4-12` hex digits, either case), read from its bytes: Foundation's
  /// `UUID(uuidString:)` goes through `sscanf` on Linux, which was a fifth of reading a link with a UUID.
  /// Nil for anything else, as `UUID(uuidString:)` gives.
  static func uuid(fromCanonical text: String) -> UUID? {
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let valid = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
      guard utf8.count == 36 else { return false }
      return withUnsafeMutableBytes(of: &bytes) { out -> Bool in
        var position = 0
        for index in 0..<16 {
          if position == 8 || position == 13 || position == 18 || position == 23 {
            guard utf8[position] == UInt8(ascii: "-") else { return false }
            position += 1
          }
          guard let high = LinkNumber.hexValue(utf8[position]), let low = LinkNumber.hexValue(utf8[position + 1]) else { return false }
          out[index] = high << 4 | low
          position += 2
        }
        return true
      }
    }
    guard let valid else { return UUID(uuidString: text) }
    return valid ? UUID(uuid: bytes) : nil
  }
}

extension RouteValueType where Value == URL {
  /// `url`: an absolute `https` URL on one of `hosts` (lower case), read by the same rules as links
  /// (`LinkValueType.acceptsURL`), so a value cannot send the app to a site the plan does not name (an
  /// open redirect).
  public static func url(allowing hosts: [StaticString]) -> Self {
    let allowed = Set(hosts.map { $0.description })
    return Self(
      accepted: LinkValueType.url.accepted,
      make: { text in LinkValueType.acceptsURL(text, allowing: allowed) ? URL(string: text) : nil },
      text: { $0.absoluteString }, property: { .string($0.absoluteString) })
  }
}

extension RouteValueType where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// An enumeration of listed values (`{tab:enum(reviews|specs)}`), by raw value; with `foldingCase`, ASCII
  /// letters compare without case (a path under `path_case: insensitive`).
  public static func enumeration(_ type: Value.Type, foldingCase: Bool = false) -> Self {
    Self(
      accepted: .nonEmptyText,
      make: { text in
        if let value = Value(rawValue: text) { return value }
        guard foldingCase else { return nil }
        let folded = Self.folded(text)
        return Value.allCases.first { Self.folded($0.rawValue) == folded }
      },
      text: { $0.rawValue }, property: { .string($0.rawValue) })
  }

  private static func folded(_ text: String) -> String {
    String(decoding: text.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
  }
}

extension RouteValueType where Value == [String] {
  /// `path`: the rest of the path, one or more segments; the property joins them with `/`.
  public static var path: Self {
    Self(
      accepted: LinkValueType.path.accepted, make: { $0.isEmpty ? nil : [$0] }, text: { $0.joined(separator: "/") },
      property: { .string($0.joined(separator: "/")) })
  }
}

// MARK: Reading values from a link

@_spi(Generated) extension ParsedLink {
  /// Segment `index` as `type`; nil when its kind is not one the type accepts or it does not convert.
  @inlinable
  @_spi(Generated) public func segment<Value>(_ index: Int, as type: RouteValueType<Value>) -> Value? {
    guard index < segments.count else { return nil }
    return type.value(of: text(ofSegment: index), kind: segments[index].kind)
  }

  /// The segments from `index` on (`{rest:path}`): at least one, none with a control character.
  @_spi(Generated) public func rest(from index: Int) -> [String]? {
    guard index < segments.count, segments[index...].allSatisfy({ LinkValueType.path.accepted.contains($0.kind) }) else { return nil }
    return texts(fromSegment: index)
  }

  /// A required query parameter: nil (no match) when it is absent, repeated, or not of the type.
  @inlinable
  @_spi(Generated) public func query<Value>(_ name: StaticString, as type: RouteValueType<Value>) -> Value? {
    guard case .one(let index) = query(named: name) else { return nil }
    return type.value(of: text(ofQueryItem: index), kind: query[index].kind)
  }

  /// An optional query parameter: `.some(nil)` when absent; nil (no match) when repeated or present but
  /// not of the type (a declared parameter with a bad value is never taken as absent).
  @inlinable
  @_spi(Generated) public func optionalQuery<Value>(_ name: StaticString, as type: RouteValueType<Value>) -> Value?? {
    switch query(named: name) {
    case .absent: return .some(nil)
    case .repeated: return nil
    case .one(let index):
      guard let value = type.value(of: text(ofQueryItem: index), kind: query[index].kind) else { return nil }
      return .some(value)
    }
  }

  /// A query parameter with a default: the default when absent; nil (no match) when repeated or bad.
  @inlinable
  @_spi(Generated) public func query<Value>(_ name: StaticString, as type: RouteValueType<Value>, default value: Value) -> Value? {
    switch optionalQuery(name, as: type) {
    case .none: return nil
    case .some(.none): return value
    case .some(.some(let found)): return found
    }
  }

  /// A query parameter with a default as the config writes it (checked by the linter to be a value of
  /// the type): the default when absent; nil (no match) when repeated or bad.
  @_spi(Generated) public func query<Value>(_ name: StaticString, as type: RouteValueType<Value>, defaultText: StaticString) -> Value? {
    switch optionalQuery(name, as: type) {
    case .none: return nil
    case .some(.none): return type.value(of: defaultText.description)
    case .some(.some(let found)): return found
    }
  }

  // MARK: What the generated matcher asks

  /// Whether the link has exactly `count` segments: the matcher is at the end of its path.
  @inlinable
  @_spi(Generated) public func ends(after count: Int) -> Bool { segments.count == count }

  /// Whether the link has segment `index` (a `{rest:path}` there has one segment at least).
  @inlinable
  @_spi(Generated) public func hasSegment(_ index: Int) -> Bool { index < segments.count }

  /// The hash of segment `index` (`LinkHash`, folded as the rules fold), which the matcher switches on.
  @inlinable
  @_spi(Generated) public func hash(ofSegment index: Int) -> UInt64 { index < segments.count ? segments[index].hash : 0 }

  /// Whether segment `index` is of one of `kinds`: a parameter's edge of the matcher.
  @inlinable
  @_spi(Generated) public func segment(_ index: Int, isKindOf kinds: SegmentKinds) -> Bool {
    index < segments.count && kinds.contains(segments[index].kind)
  }

  /// Whether the link ends with `/` as the pattern does (under `trailing_slash: strict`).
  @inlinable
  @_spi(Generated) public func trailingSlash(_ expected: Bool) -> Bool { hasTrailingSlash == expected }
}
