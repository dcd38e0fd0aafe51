/// A link read by trackc's rules (docs/entry-points.md, "Hostile links"), ready to match: the scheme and
/// host folded to lower case, the path split into segments while still encoded and each segment decoded
/// on its own (so `%2F` stays inside its segment and `..` is only text), the query split into items with
/// `+` read as a space; every segment and query value classified (`SegmentKind`) and hashed (`LinkHash`).
///
/// A link reads the same whether it arrives as text or as the `URL` Foundation makes of that text.
/// `URL(string:)` takes a path or query that is not RFC 3986 text (a raw space, a `%` that begins no
/// escape, a character that may not stand raw) as text to escape, `%` included; so does this reader,
/// decoding only a component that is encoded text, and the bounds measure the decoded link. It never uses Foundation's `URL.path`, which on Linux turns `%FF` or `%C0%AE` into an
/// empty path (a naive router sends that to the root screen): `%00`, a control character, bytes that are
/// not UTF-8, a link without a host, and a link over any of `LinkLimits` reject the whole link.
public struct ParsedLink: Sendable {
  /// Decoded bytes: the scheme and host (lower case), then each segment, query name and value.
  public let bytes: [UInt8]
  public let segments: [LinkSegment]
  public let query: [LinkQueryItem]
  /// `http` or `https`: the host is the origin and the path starts the segments. Any other scheme is a
  /// custom scheme: the scheme is the origin, and its host (`shop://product/1`) is the first segment.
  public let isWeb: Bool
  /// The path ended with `/`: after a segment (a lone `/` after a web host is the root, after a custom
  /// scheme's host it trails that host, the first segment).
  public let hasTrailingSlash: Bool
  /// Whether segment literals compare folding ASCII case (`LinkRules.pathCase`).
  public let foldsCase: Bool
  /// The hash of the origin key: the host for web links, the scheme and `:` otherwise.
  public let originHash: UInt64
  @usableFromInline let scheme: Range<Int>
  @usableFromInline let host: Range<Int>?

  /// The scheme, in lower case.
  public var schemeText: String { String(decoding: bytes[scheme], as: UTF8.self) }
  /// The scheme is `https`.
  @inlinable
  public var isSecure: Bool { bytes[scheme].elementsEqual("https".utf8) }
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

  /// Whether the origin is `key`: a host for web links, which must be `https` (universal links are
  /// never `http`), or `scheme:` for custom schemes (lower case).
  @inlinable
  public func originIs(_ key: StaticString) -> Bool {
    let expected = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
    if isWeb {
      guard let host, isSecure else { return false }
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
    // The fragment is the page's, never the app's: nothing after `#` is read, checked or bounded.
    // One pass finds the `#` and checks the UTF-8 before it (no byte of a multi-byte sequence is `#`).
    let (end, isUTF8) = ParsedLink.fragmentStart(in: input)
    // A link decodes to at most a third of its text (`%XX` is one byte), so the text is bounded first.
    guard end <= 3 * limits.maximumBytes else { throw .tooLong }
    guard isUTF8 else { throw .invalidUTF8 }
    bytes.reserveCapacity(end + 1)

    // scheme ":"
    var position = 0
    guard position < end, isLetter(input[position]) else { throw .noScheme }
    while position < end, isSchemeCharacter(input[position]) { position += 1 }
    guard position < end, input[position] == UInt8(ascii: ":") else { throw .noScheme }
    let scheme = appendLowercased(input[0..<position])
    position += 1
    let schemeBytes = bytes[scheme]
    let isWeb = schemeBytes.elementsEqual("https".utf8) || schemeBytes.elementsEqual("http".utf8)

    // "//" authority: a link names its host (a custom scheme's is its first segment), or it is no link
    // an app is opened with (`shop:cart` is not `shop://cart`).
    guard end - position >= 2 && input[position] == UInt8(ascii: "/") && input[position + 1] == UInt8(ascii: "/") else {
      throw .missingHost
    }
    position += 2
    var authorityEnd = position
    while authorityEnd < end, input[authorityEnd] != UInt8(ascii: "/"), input[authorityEnd] != UInt8(ascii: "?") { authorityEnd += 1 }
    var hostEnd = authorityEnd
    // An empty port (`host:`) is no port (RFC 3986 drops it, and so does Foundation's `URL` when it
    // escapes the rest of the link).
    if hostEnd > position, input[hostEnd - 1] == UInt8(ascii: ":") { hostEnd -= 1 }
    // User info first, wherever its `@` is (Foundation escapes all but the last one).
    if input[position..<authorityEnd].contains(UInt8(ascii: "@")) { throw .userInfo }
    for byte in input[position..<hostEnd] {
      if byte == UInt8(ascii: ":") { throw .port }
      guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else {
        throw .invalidHost
      }
    }
    guard hostEnd > position else { throw .missingHost }
    guard hostEnd - position <= limits.maximumValueBytes else { throw .valueTooLong }

    // The path and the query: each decoded when it is RFC 3986 text, else read as it stands, `%` and
    // all. That is how Foundation's `URL(string:)` takes a component with a space, a `%` that begins no
    // escape or another character that may not stand raw: it escapes every such character, `%`
    // included, so `%41 b` is the text `%41 b`, never `A b`.
    let pathEnd = input[authorityEnd..<end].firstIndex(of: UInt8(ascii: "?")) ?? end
    let pathLength = ParsedLink.decodedLength(ofEncoded: input[authorityEnd..<pathEnd])
    let queryLength = pathEnd < end ? ParsedLink.decodedLength(ofEncoded: input[(pathEnd + 1)..<end]) : 0
    let pathIsText = pathLength == nil
    let queryIsText = queryLength == nil
    // Bounds on the link as decoded, which Foundation's escaping leaves as it is.
    let decodedLength =
      hostEnd + (pathLength ?? pathEnd - authorityEnd) + (pathEnd < end ? 1 + (queryLength ?? end - pathEnd - 1) : 0)
    guard decodedLength <= limits.maximumBytes else { throw .tooLong }
    let host = appendLowercased(input[position..<hostEnd])
    position = authorityEnd
    let originHash = isWeb ? LinkHash.hash(bytes[host]) : (LinkHash.hash(bytes[scheme]) ^ UInt64(UInt8(ascii: ":"))) &* LinkHash.prime

    // path
    var path = input[position..<pathEnd]
    var hasTrailingSlash = false
    // A lone `/` after a custom scheme's host trails that host, its first segment (`shop://cart/` is to
    // `shop://cart` what `https://h/cart/` is to `https://h/cart`); after a web host it is the root.
    let trailsHost = !isWeb && path.count == 1 && path.first == UInt8(ascii: "/")
    if path.first == UInt8(ascii: "/") { path = path.dropFirst() }
    if trailsHost {
      hasTrailingSlash = true
    } else if path.count > 0 && path.last == UInt8(ascii: "/") {
      hasTrailingSlash = true
      path = path.dropLast()
    }
    let segmentCount =
      (trailsHost || (path.isEmpty && !hasTrailingSlash) ? 0 : path.count(where: { $0 == UInt8(ascii: "/") }) + 1) + (isWeb ? 0 : 1)
    guard segmentCount <= limits.maximumSegments else { throw .tooManySegments }
    segments.reserveCapacity(segmentCount)
    let folds = rules.pathCase == .insensitive
    if !isWeb {
      // A custom scheme's host is the first segment, and folds like any host.
      segments.append(LinkSegment(start: host.lowerBound, end: host.upperBound, hash: LinkHash.hash(bytes[host]), kind: SegmentKind.of(bytes[host])))
    }
    if !trailsHost && (!path.isEmpty || hasTrailingSlash) {
      // Split by hand: `split` would build an array of the pieces on every read.
      var pieceStart = path.startIndex
      while true {
        let pieceEnd = path[pieceStart...].firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
        let decoded = try decode(path[pieceStart..<pieceEnd], plusIsSpace: false, isText: pathIsText)
        segments.append(
          LinkSegment(
            start: decoded.lowerBound, end: decoded.upperBound, hash: LinkHash.hash(bytes[decoded], foldingCase: folds),
            kind: SegmentKind.of(bytes[decoded])))
        guard pieceEnd < path.endIndex else { break }
        pieceStart = pieceEnd + 1
      }
    }

    // query
    if pathEnd < end {
      var itemStart = pathEnd + 1
      while itemStart < end {
        let itemEnd = input[itemStart..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
        defer { itemStart = itemEnd + 1 }
        // Empty items (`a&&b`, a trailing `&`) are no items.
        if itemEnd == itemStart { continue }
        let item = input[itemStart..<itemEnd]
        guard query.count < limits.maximumQueryItems else { throw .tooManyQueryItems }
        let equals = item.firstIndex(of: UInt8(ascii: "=")) ?? item.endIndex
        let rawName = item[item.startIndex..<equals]
        let rawValue = equals < item.endIndex ? item[(equals + 1)..<item.endIndex] : item[item.endIndex..<item.endIndex]
        let name = try decode(rawName, plusIsSpace: true, isText: queryIsText)
        let value = try decode(rawValue, plusIsSpace: true, isText: queryIsText)
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

  /// Appends `raw` decoded: `%XX` escapes (none when the component `isText`), `+` as a space when
  /// `plusIsSpace`. What it decodes to must be UTF-8 of at most `maximumValueBytes`, without NUL or a
  /// control character (C0, DEL, C1), raw or escaped: the same refusals whether Foundation escaped the
  /// link first or not.
  private mutating func decode(
    _ raw: Slice<UnsafeBufferPointer<UInt8>>, plusIsSpace: Bool, isText: Bool
  ) throws(LinkRejection) -> Range<Int> {
    let start = bytes.count
    var index = raw.startIndex
    var escaped = false
    var previous: UInt8 = 0
    var hasC1 = false
    while index < raw.endIndex {
      var byte = raw[index]
      index += 1
      if !isText, byte == UInt8(ascii: "%"), raw.endIndex - index >= 2, let high = LinkNumber.hexValue(raw[index]),
        let low = LinkNumber.hexValue(raw[index + 1])
      {
        byte = high << 4 | low
        index += 2
        if byte >= 0x80 { escaped = true }
      } else if plusIsSpace && byte == UInt8(ascii: "+") {
        byte = UInt8(ascii: " ")
      }
      if byte == 0 { throw .nul }
      if byte < 0x20 || byte == 0x7F { throw .controlCharacter }
      // U+0080-U+009F are C2 80 - C2 9F in UTF-8; refused after the other checks, as before.
      if previous == 0xC2 && byte >= 0x80 && byte <= 0x9F { hasC1 = true }
      previous = byte
      bytes.append(byte)
    }
    guard bytes.count - start <= rules.limits.maximumValueBytes else { throw .valueTooLong }
    // Raw input is UTF-8 already; escaped bytes may not be, alone or beside raw ones.
    if escaped && !ParsedLink.isValidUTF8(bytes[start...]) { throw .invalidUTF8 }
    if hasC1 { throw .controlCharacter }
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
  /// The length of a path or query as decoded when it is RFC 3986 text (every `%` begins an escape,
  /// which counts as the one byte it stands for, and nothing stands raw that may not: a space, a control
  /// character, a character that is not ASCII, `" < > [ \ ] ^ ` { | }`); nil when it is not, and is
  /// read as the text it is.
  static func decodedLength<Bytes: Collection<UInt8>>(ofEncoded text: Bytes) -> Int? where Bytes.Index == Int {
    var length = 0
    var index = text.startIndex
    while index < text.endIndex {
      let byte = text[index]
      length += 1
      if byte == UInt8(ascii: "%") {
        guard text.endIndex - index >= 3, LinkNumber.hexValue(text[index + 1]) != nil, LinkNumber.hexValue(text[index + 2]) != nil else {
          return nil
        }
        index += 3
        continue
      }
      switch byte {
      case 0...0x20, 0x7F...0xFF, UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"),
        UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
        return nil
      default:
        index += 1
      }
    }
    return length
  }

  /// Where the fragment starts (`#`, or the end) and whether the bytes before it are well-formed UTF-8
  /// (`isValidUTF8`), in one pass.
  static func fragmentStart(in input: UnsafeBufferPointer<UInt8>) -> (end: Int, isUTF8: Bool) {
    var index = 0
    while index < input.count {
      let byte = input[index]
      if byte < 0x80 {
        if byte == UInt8(ascii: "#") { return (index, true) }
        index += 1
        continue
      }
      guard let length = utf8SequenceLength(input, at: index) else {
        return (input[index...].firstIndex(of: UInt8(ascii: "#")) ?? input.count, false)
      }
      index += length
    }
    return (input.count, true)
  }

  /// The length of the well-formed UTF-8 sequence starting with the non-ASCII byte at `index`; nil when
  /// there is none.
  @inline(__always)
  static func utf8SequenceLength<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: Int) -> Int? where Bytes.Index == Int {
    let length: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch bytes[index] {
    case 0xC2...0xDF: length = 2
    case 0xE0: (length, lower) = (3, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: (length, upper) = (3, 0x9F)
    case 0xF0: (length, lower) = (4, 0x90)
    case 0xF1...0xF3: length = 4
    case 0xF4: (length, upper) = (4, 0x8F)
    default: return nil
    }
    guard bytes.endIndex - index >= length else { return nil }
    let second = bytes[index + 1]
    guard second >= lower && second <= upper else { return nil }
    for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
    return length
  }

  /// Whether bytes are well-formed UTF-8: no overlong forms (`C0 AE`), no surrogates, nothing past
  /// U+10FFFF, no truncated sequence.
  public static func isValidUTF8<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool where Bytes.Index == Int {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if bytes[index] < 0x80 {
        index += 1
        continue
      }
      guard let length = utf8SequenceLength(bytes, at: index) else { return false }
      index += length
    }
    return true
  }
}
