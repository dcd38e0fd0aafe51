/// A link read by trackc's rules (README, "Hostile links"), ready to match: the scheme and host folded
/// to lower case, the path split into segments while still encoded and each segment decoded on its own
/// (so `%2F` stays inside its segment and `..` is only text), the query split into items with `+` read as
/// a space; every segment and query value classified (`SegmentKind`) and hashed (`LinkHash`).
///
/// It never uses Foundation's `URL.path`, which on Linux turns `%FF` or `%C0%AE` into an empty path (a
/// naive router sends that to the root screen): an invalid escape, `%00` or bytes that are not UTF-8
/// reject the whole link, as does a link over any of `LinkLimits`, checked before decoding.
public struct ParsedLink: Sendable {
  /// Decoded bytes: the scheme and host (lower case), then each segment, query name and value.
  public let bytes: [UInt8]
  public let segments: [LinkSegment]
  public let query: [LinkQueryItem]
  /// `http` or `https`: the host is the origin and the path starts the segments. Any other scheme is a
  /// custom scheme: the scheme is the origin, and its host (`shop://product/1`) is the first segment.
  public let isWeb: Bool
  /// The path ended with `/` (a lone `/` does not count).
  public let hasTrailingSlash: Bool
  /// Whether segment literals compare folding ASCII case (`LinkRules.pathCase`).
  public let foldsCase: Bool
  /// The hash of the origin key: the host for web links, the scheme and `:` otherwise.
  public let originHash: UInt64
  @usableFromInline let scheme: Range<Int>
  @usableFromInline let host: Range<Int>?

  /// The scheme, in lower case.
  public var schemeText: String { String(decoding: bytes[scheme], as: UTF8.self) }
  /// The host, in lower case; nil when the link has no authority.
  public var hostText: String? { host.map { String(decoding: bytes[$0], as: UTF8.self) } }

  // MARK: Reading

  /// Reads `text` by `rules`; a rejection says why it is not a link trackc will match.
  public static func parse(_ text: String, rules: LinkRules) -> Result<ParsedLink, LinkRejection> {
    var text = text
    return text.withUTF8 { parse(utf8: $0, rules: rules) }
  }

  /// Reads UTF-8 bytes by `rules` (bytes that are not UTF-8 are rejected too).
  public static func parse(utf8 input: UnsafeBufferPointer<UInt8>, rules: LinkRules) -> Result<ParsedLink, LinkRejection> {
    var reader = Reader(input: input, rules: rules)
    do throws(LinkRejection) {
      return .success(try reader.read())
    } catch {
      return .failure(error)
    }
  }

  init(
    bytes: [UInt8], segments: [LinkSegment], query: [LinkQueryItem], isWeb: Bool, hasTrailingSlash: Bool, foldsCase: Bool,
    originHash: UInt64, scheme: Range<Int>, host: Range<Int>?
  ) {
    self.bytes = bytes
    self.segments = segments
    self.query = query
    self.isWeb = isWeb
    self.hasTrailingSlash = hasTrailingSlash
    self.foldsCase = foldsCase
    self.originHash = originHash
    self.scheme = scheme
    self.host = host
  }

  // MARK: Matching

  /// Whether the origin is `key`: a host for web links, `scheme:` for custom schemes (lower case).
  @inlinable
  public func originIs(_ key: StaticString) -> Bool {
    let expected = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
    if isWeb {
      guard let host else { return false }
      return bytes[host].elementsEqual(expected)
    }
    return expected.count == scheme.count + 1 && expected.last == UInt8(ascii: ":")
      && bytes[scheme].elementsEqual(expected[0..<scheme.count])
  }

  /// Whether the link is of custom scheme `scheme` (lower case).
  @inlinable
  public func schemeIs(_ scheme: StaticString) -> Bool {
    let expected = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
    return !isWeb && bytes[self.scheme].elementsEqual(expected)
  }

  /// Whether segment `index` is `literal` (folding ASCII case when the rules do; the compiler writes
  /// literals folded then).
  @inlinable
  public func segment(_ index: Int, is literal: StaticString) -> Bool {
    guard index < segments.count else { return false }
    let segment = segments[index]
    let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    guard segment.end - segment.start == expected.count else { return false }
    var position = segment.start
    for byte in expected {
      var actual = bytes[position]
      if foldsCase && actual >= UInt8(ascii: "A") && actual <= UInt8(ascii: "Z") { actual += 32 }
      if actual != byte { return false }
      position += 1
    }
    return true
  }

  /// The decoded text of segment `index`.
  public func text(ofSegment index: Int) -> String {
    let segment = segments[index]
    return String(decoding: bytes[segment.start..<segment.end], as: UTF8.self)
  }

  /// The decoded text of each segment from `index` on.
  public func texts(fromSegment index: Int) -> [String] {
    (index..<segments.count).map(text(ofSegment:))
  }

  /// How often `name` appears in the query: what decides whether a declared query parameter is there.
  public enum QueryLookup: Sendable, Equatable {
    case absent
    case one(Int)
    /// Twice or more: no match (a declared parameter is never guessed from several values).
    case repeated
  }

  public func query(named name: StaticString) -> QueryLookup {
    let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    var found: Int?
    for (index, item) in query.enumerated() where bytes[item.nameStart..<item.nameEnd].elementsEqual(expected) {
      if found != nil { return .repeated }
      found = index
    }
    return found.map { .one($0) } ?? .absent
  }

  /// The decoded value of query item `index`.
  public func text(ofQueryItem index: Int) -> String {
    let item = query[index]
    return String(decoding: bytes[item.valueStart..<item.valueEnd], as: UTF8.self)
  }
}

/// One decoded path segment: where its bytes are in `ParsedLink.bytes`, its hash and its kind.
public struct LinkSegment: Sendable, Hashable {
  public let start: Int
  public let end: Int
  /// `LinkHash` of the decoded bytes, folding ASCII case when the rules do.
  public let hash: UInt64
  public let kind: SegmentKind
}

/// One `name=value` item of the query, decoded (`+` is a space here, and only here).
public struct LinkQueryItem: Sendable, Hashable {
  public let nameStart: Int
  public let nameEnd: Int
  public let valueStart: Int
  public let valueEnd: Int
  public let kind: SegmentKind
}

/// The reading itself: one pass to check the bounds and raw characters, then the parts in order.
private struct Reader {
  let input: UnsafeBufferPointer<UInt8>
  let rules: LinkRules
  var bytes: [UInt8] = []
  var segments: [LinkSegment] = []
  var query: [LinkQueryItem] = []

  init(input: UnsafeBufferPointer<UInt8>, rules: LinkRules) {
    self.input = input
    self.rules = rules
  }

  mutating func read() throws(LinkRejection) -> ParsedLink {
    let limits = rules.limits
    guard input.count <= limits.maximumBytes else { throw .tooLong }
    for byte in input where byte <= 0x20 || byte == 0x7F { throw .controlCharacter }
    guard ParsedLink.isValidUTF8(input[...]) else { throw .invalidUTF8 }
    bytes.reserveCapacity(input.count + 1)
    let end = input.firstIndex(of: UInt8(ascii: "#")) ?? input.count

    // scheme ":"
    var position = 0
    guard position < end, isLetter(input[position]) else { throw .noScheme }
    while position < end, isSchemeCharacter(input[position]) { position += 1 }
    guard position < end, input[position] == UInt8(ascii: ":") else { throw .noScheme }
    let scheme = appendLowercased(input[0..<position])
    position += 1
    let schemeBytes = bytes[scheme]
    let isWeb = schemeBytes.elementsEqual("https".utf8) || schemeBytes.elementsEqual("http".utf8)

    // "//" authority
    var host: Range<Int>?
    if end - position >= 2 && input[position] == UInt8(ascii: "/") && input[position + 1] == UInt8(ascii: "/") {
      position += 2
      var authorityEnd = position
      while authorityEnd < end, input[authorityEnd] != UInt8(ascii: "/"), input[authorityEnd] != UInt8(ascii: "?") { authorityEnd += 1 }
      for byte in input[position..<authorityEnd] {
        if byte == UInt8(ascii: "@") { throw .userInfo }
        if byte == UInt8(ascii: ":") { throw .port }
        guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else {
          throw .invalidHost
        }
      }
      guard authorityEnd - position <= limits.maximumValueBytes else { throw .valueTooLong }
      if authorityEnd > position { host = appendLowercased(input[position..<authorityEnd]) }
      position = authorityEnd
    }
    let originHash: UInt64
    if isWeb {
      originHash = host.map { LinkHash.hash(bytes[$0]) } ?? LinkHash.hash(EmptyCollection())
    } else {
      originHash = LinkHash.hash(bytes[scheme] + [UInt8(ascii: ":")])
    }

    // path
    let pathEnd = input[position..<end].firstIndex(of: UInt8(ascii: "?")) ?? end
    var path = input[position..<pathEnd]
    var hasTrailingSlash = false
    if path.first == UInt8(ascii: "/") { path = path.dropFirst() }
    if path.count > 0 && path.last == UInt8(ascii: "/") {
      hasTrailingSlash = true
      path = path.dropLast()
    }
    let segmentCount = (path.isEmpty && !hasTrailingSlash ? 0 : path.count(where: { $0 == UInt8(ascii: "/") }) + 1) + (isWeb || host == nil ? 0 : 1)
    guard segmentCount <= limits.maximumSegments else { throw .tooManySegments }
    segments.reserveCapacity(segmentCount)
    let folds = rules.pathCase == .insensitive
    if !isWeb, let host {
      // A custom scheme's host is the first segment, and folds like any host.
      segments.append(LinkSegment(start: host.lowerBound, end: host.upperBound, hash: LinkHash.hash(bytes[host]), kind: SegmentKind.of(bytes[host])))
    }
    if !path.isEmpty || hasTrailingSlash {
      for piece in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
        guard piece.count <= limits.maximumValueBytes else { throw .valueTooLong }
        let decoded = try decode(piece, plusIsSpace: false)
        segments.append(
          LinkSegment(
            start: decoded.lowerBound, end: decoded.upperBound, hash: LinkHash.hash(bytes[decoded], foldingCase: folds),
            kind: SegmentKind.of(bytes[decoded])))
      }
    }

    // query
    if pathEnd < end {
      for item in input[(pathEnd + 1)..<end].split(separator: UInt8(ascii: "&")) {
        guard query.count < limits.maximumQueryItems else { throw .tooManyQueryItems }
        let equals = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
        let rawName = item[item.startIndex..<equals]
        let rawValue = equals < item.endIndex ? item[(equals + 1)..<item.endIndex] : item[item.endIndex..<item.endIndex]
        guard rawName.count <= limits.maximumValueBytes, rawValue.count <= limits.maximumValueBytes else {
          throw .valueTooLong
        }
        let name = try decode(rawName, plusIsSpace: true)
        let value = try decode(rawValue, plusIsSpace: true)
        query.append(
          LinkQueryItem(
            nameStart: name.lowerBound, nameEnd: name.upperBound, valueStart: value.lowerBound, valueEnd: value.upperBound,
            kind: SegmentKind.of(bytes[value])))
      }
    }
    return ParsedLink(
      bytes: bytes, segments: segments, query: query, isWeb: isWeb, hasTrailingSlash: hasTrailingSlash, foldsCase: folds,
      originHash: originHash, scheme: scheme, host: host)
  }

  /// Appends `raw` decoded: `%XX` escapes (two hexadecimal digits, never `%00`), `+` as a space when
  /// `plusIsSpace`; the result must be UTF-8.
  private mutating func decode(_ raw: Slice<UnsafeBufferPointer<UInt8>>, plusIsSpace: Bool) throws(LinkRejection) -> Range<Int> {
    let start = bytes.count
    var index = raw.startIndex
    var escaped = false
    while index < raw.endIndex {
      let byte = raw[index]
      if byte == UInt8(ascii: "%") {
        guard raw.endIndex - index >= 3, let high = LinkNumber.hexValue(raw[index + 1]), let low = LinkNumber.hexValue(raw[index + 2]) else {
          throw .invalidEscape
        }
        let decoded = high << 4 | low
        if decoded == 0 { throw .nul }
        if decoded >= 0x80 { escaped = true }
        bytes.append(decoded)
        index += 3
      } else {
        bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        index += 1
      }
    }
    // Raw input is UTF-8 already; escaped bytes may not be, alone or beside raw ones.
    if escaped && !ParsedLink.isValidUTF8(bytes[start...]) { throw .invalidUTF8 }
    return start..<bytes.count
  }

  private mutating func appendLowercased(_ raw: Slice<UnsafeBufferPointer<UInt8>>) -> Range<Int> {
    let start = bytes.count
    for byte in raw { bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte) }
    return start..<bytes.count
  }

  private func isLetter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private func isSchemeCharacter(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
  }
}

extension ParsedLink {
  /// Whether bytes are well-formed UTF-8: no overlong forms (`C0 AE`), no surrogates, nothing past
  /// U+10FFFF, no truncated sequence.
  public static func isValidUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool where Bytes.Index == Int {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let first = bytes[index]
      if first < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch first {
      case 0xC2...0xDF: length = 2
      case 0xE0: (length, lower) = (3, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED: (length, upper) = (3, 0x9F)
      case 0xF0: (length, lower) = (4, 0x90)
      case 0xF1...0xF3: length = 4
      case 0xF4: (length, upper) = (4, 0x8F)
      default: return false
      }
      guard bytes.endIndex - index >= length else { return false }
      let second = bytes[index + 1]
      guard second >= lower && second <= upper else { return false }
      for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return false }
      index += length
    }
    return true
  }
}
