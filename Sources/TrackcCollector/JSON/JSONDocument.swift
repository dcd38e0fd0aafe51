/// A JSON text (RFC 8259, strict) read once into a flat list of nodes that point into its bytes.
///
/// Why not Foundation: on this platform `JSONDecoder` reads about 10,000 to 20,000 batch events a second
/// and `JSONSerialization` about 35,000 (and cannot tell `true` from `1`), while the collector must take
/// well over the runtime's 50,000 events/s end to end on a shared 2-core machine. This reader only
/// checks the grammar and records where each value is (no tree of boxed values, no string copies):
/// the wire decoder then reads the few fields it needs. `Benchmarks/ingest` measures it against
/// Foundation side by side; `JSONDocumentTests` hold it to Foundation's verdicts on a corpus.
///
/// Everything is bounded by the input: at most one node per value, nesting at most `maxDepth`
/// (recursion is that deep at most), and strings must be valid UTF-8 without lone surrogates, so that
/// every string it hands out is valid Unicode.
struct JSONDocument: Sendable {
  enum Kind: UInt8, Sendable {
    case object, array, string, number, `true`, `false`, null
  }

  struct Node: Sendable {
    var kind: Kind
    /// Strings: holds an escape sequence, so it must be decoded rather than taken as it is.
    var hasEscapes = false
    /// Strings: the first byte of the content (after the quote). Others: the first byte of the value.
    var start: Int32
    /// Strings: the closing quote. Others: just after the value.
    var end: Int32
    /// The node after this value and everything inside it (its next sibling, if any).
    var next: Int32
    /// Objects: members; arrays: elements.
    var count: Int32 = 0
  }

  /// The default nesting limit: the batch format needs 5 levels; 64 leaves room for unknown keys.
  static let defaultMaxDepth = 64

  let bytes: [UInt8]
  private(set) var nodes: [Node]
  /// Whitespace stands between tokens somewhere inside the value (not only around it): a compact text
  /// then has to leave it out; without any, the text as written is already compact.
  private(set) var hasInnerWhitespace = false

  /// Reads `bytes`, which must hold exactly one JSON value (whitespace around it allowed); at most
  /// Int32.max bytes.
  init(_ bytes: [UInt8], maxDepth: Int = JSONDocument.defaultMaxDepth) throws(JSONSyntaxError) {
    guard bytes.count < Int(Int32.max) else { throw JSONSyntaxError(offset: 0, reason: "the text is too large") }
    self.bytes = bytes
    (self.nodes, hasInnerWhitespace) = try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
      var reader = Reader(bytes: buffer, maxDepth: maxDepth)
      try reader.readDocument()
      return (reader.nodes, reader.skippedInnerWhitespace)
    }
  }

  var root: Int { 0 }

  subscript(index: Int) -> Node { nodes[index] }

  /// The members of an object, as (key node, value node) pairs, in order.
  func members(of object: Int) -> LazyMapSequence<ChildSequence, (key: Int, value: Int)> {
    ChildSequence(document: self, container: object, nodesPerChild: 2).lazy.map { (key: $0, value: $0 + 1) }
  }

  /// The elements of an array, as nodes, in order.
  func elements(of array: Int) -> ChildSequence {
    ChildSequence(document: self, container: array, nodesPerChild: 1)
  }

  /// The value of a string node, escapes decoded.
  func string(_ index: Int) -> String {
    let node = nodes[index]
    let range = Int(node.start)..<Int(node.end)
    if !node.hasEscapes {
      return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(range.count)
    var index = range.lowerBound
    while index < range.upperBound {
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\\") else {
        decoded.append(byte)
        index += 1
        continue
      }
      let escaped = bytes[index + 1]
      index += 2
      switch escaped {
      case UInt8(ascii: "b"): decoded.append(0x08)
      case UInt8(ascii: "f"): decoded.append(0x0C)
      case UInt8(ascii: "n"): decoded.append(0x0A)
      case UInt8(ascii: "r"): decoded.append(0x0D)
      case UInt8(ascii: "t"): decoded.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = Self.hexValue(bytes, at: index)
        index += 4
        if (0xD800...0xDBFF).contains(scalar) {
          // The reader checked that a low surrogate follows.
          let low = Self.hexValue(bytes, at: index + 2)
          index += 6
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        UTF8.encode(Unicode.Scalar(scalar)!) { decoded.append($0) }
      default: decoded.append(escaped)  // \" \\ \/
      }
    }
    return String(decoding: decoded, as: UTF8.self)
  }

  /// The value of a number node as a Double (the grammar was checked, so this always succeeds; numbers
  /// beyond Double's range become infinite, which callers treat as not a finite number).
  func number(_ index: Int) -> Double {
    let node = nodes[index]
    let text = String(decoding: bytes[Int(node.start)..<Int(node.end)], as: UTF8.self)
    return Double(text) ?? .nan
  }

  /// The bytes of a value as written (for an object or array, from its bracket to its closing bracket).
  func text(_ index: Int) -> ArraySlice<UInt8> {
    let node = nodes[index]
    return node.kind == .string ? bytes[Int(node.start) - 1...Int(node.end)] : bytes[Int(node.start)..<Int(node.end)]
  }

  /// The number of bytes of a value as written.
  func byteCount(_ index: Int) -> Int { text(index).count }

  /// The value as written, without the whitespace between tokens: one line of compact JSON.
  func compactText(_ index: Int) -> String {
    let slice = text(index)
    // What trackc sends has no whitespace: the bytes as they are (validated UTF-8 already).
    guard hasInnerWhitespace else { return String(decoding: slice, as: UTF8.self) }
    return slice.withUnsafeBufferPointer { source in
      String(unsafeUninitializedCapacity: source.count) { target in
        var count = 0
        var inString = false
        var escaped = false
        for byte in source {
          if inString {
            if escaped {
              escaped = false
            } else if byte == UInt8(ascii: "\\") {
              escaped = true
            } else if byte == UInt8(ascii: "\"") {
              inString = false
            }
          } else if byte == UInt8(ascii: "\"") {
            inString = true
          } else if Reader.isWhitespace(byte) {
            continue
          }
          target[count] = byte
          count += 1
        }
        return count
      }
    }
  }

  private static func hexValue(_ bytes: [UInt8], at index: Int) -> UInt32 {
    var value: UInt32 = 0
    for offset in 0..<4 { value = value << 4 | UInt32(Reader.hexDigit(bytes[index + offset])!) }
    return value
  }

  /// The children of an object or an array, in order, each as its first node: a member's key (its value
  /// is the node after it) or an element. The last node of a child says where the next one starts.
  struct ChildSequence: Sequence {
    let document: JSONDocument
    let container: Int
    /// Nodes a child starts with, up to the one that points at the next child: 2 for a member's key
    /// and value, 1 for an element.
    let nodesPerChild: Int

    struct Iterator: IteratorProtocol {
      let document: JSONDocument
      let nodesPerChild: Int
      var node: Int
      var remaining: Int32

      mutating func next() -> Int? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        let child = node
        node = Int(document.nodes[child + nodesPerChild - 1].next)
        return child
      }
    }

    func makeIterator() -> Iterator {
      Iterator(document: document, nodesPerChild: nodesPerChild, node: container + 1, remaining: document.nodes[container].count)
    }
  }
}

/// Why a text is not JSON, and where (a byte offset).
struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  var offset: Int
  var reason: String

  var description: String { "\(reason) at byte \(offset)" }
}

/// The recursive-descent reader behind `JSONDocument`.
private struct Reader {
  let bytes: UnsafeBufferPointer<UInt8>
  var nodes: [JSONDocument.Node]
  let maxDepth: Int
  var position = 0
  /// Whitespace was skipped between tokens inside the value.
  var skippedInnerWhitespace = false

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
    nodes = []
    nodes.reserveCapacity(min(bytes.count / 16 + 16, 1 << 16))
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  mutating func readDocument() throws(JSONSyntaxError) {
    skipWhitespace()
    try readValue(depth: 0)
    skipWhitespace()
    guard position == bytes.count else { throw failure("unexpected text after the JSON value") }
  }

  private func failure(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
    JSONSyntaxError(offset: offset ?? position, reason: reason)
  }

  private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  private mutating func skipWhitespace() {
    while position < bytes.count && Self.isWhitespace(bytes[position]) { position += 1 }
  }

  /// Inside a container: whitespace here makes the document's compact text differ from its bytes.
  private mutating func skipInnerWhitespace() {
    let before = position
    skipWhitespace()
    if position != before { skippedInnerWhitespace = true }
  }

  private mutating func readValue(depth: Int) throws(JSONSyntaxError) {
    guard let byte = current else { throw failure("unexpected end of the text") }
    switch byte {
    case UInt8(ascii: "{"): try readContainer(.object, closing: UInt8(ascii: "}"), depth: depth)
    case UInt8(ascii: "["): try readContainer(.array, closing: UInt8(ascii: "]"), depth: depth)
    case UInt8(ascii: "\""): try readString()
    case UInt8(ascii: "t"): try readLiteral("true", .true)
    case UInt8(ascii: "f"): try readLiteral("false", .false)
    case UInt8(ascii: "n"): try readLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try readNumber()
    default: throw failure(byte < 0x80 ? "unexpected character '\(Self.printable(byte))'" : "unexpected byte 0x\(String(byte, radix: 16))")
    }
  }

  private static func printable(_ byte: UInt8) -> String {
    byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
  }

  private mutating func readContainer(_ kind: JSONDocument.Kind, closing: UInt8, depth: Int) throws(JSONSyntaxError) {
    guard depth < maxDepth else { throw failure("nested more than \(maxDepth) levels deep") }
    let index = nodes.count
    nodes.append(JSONDocument.Node(kind: kind, start: Int32(position), end: 0, next: 0))
    position += 1
    skipInnerWhitespace()
    var count: Int32 = 0
    if current == closing {
      position += 1
    } else {
      while true {
        if kind == .object {
          guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
          try readString()
          skipInnerWhitespace()
          guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
          position += 1
          skipInnerWhitespace()
        }
        try readValue(depth: depth + 1)
        count += 1
        skipInnerWhitespace()
        if current == UInt8(ascii: ",") {
          position += 1
          skipInnerWhitespace()
          continue
        }
        if current == closing {
          position += 1
          break
        }
        throw failure(kind == .object ? "expected ',' or '}'" : "expected ',' or ']'")
      }
    }
    nodes[index].end = Int32(position)
    nodes[index].next = Int32(nodes.count)
    nodes[index].count = count
  }

  private mutating func readLiteral(_ word: StaticString, _ kind: JSONDocument.Kind) throws(JSONSyntaxError) {
    let start = position
    let count = word.utf8CodeUnitCount
    guard bytes.count - position >= count else { throw failure("unexpected end of the text") }
    for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] {
      throw failure("unexpected character '\(Self.printable(bytes[position + offset]))'", at: position + offset)
    }
    position += count
    nodes.append(JSONDocument.Node(kind: kind, start: Int32(start), end: Int32(position), next: Int32(nodes.count + 1)))
  }

  private mutating func readNumber() throws(JSONSyntaxError) {
    let start = position
    if current == UInt8(ascii: "-") { position += 1 }
    guard let first = current, first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else {
      throw failure("expected a digit")
    }
    position += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    if current == UInt8(ascii: ".") {
      position += 1
      guard skipDigits() > 0 else { throw failure("expected a digit after '.'") }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      position += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
      guard skipDigits() > 0 else { throw failure("expected a digit in the exponent") }
    }
    nodes.append(JSONDocument.Node(kind: .number, start: Int32(start), end: Int32(position), next: Int32(nodes.count + 1)))
  }

  @discardableResult
  private mutating func skipDigits() -> Int {
    let start = position
    while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
    return position - start
  }

  private mutating func readString() throws(JSONSyntaxError) {
    position += 1
    let start = position
    var hasEscapes = false
    while true {
      guard position < bytes.count else { throw failure("unterminated string", at: start - 1) }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") { break }
      if byte < 0x20 { throw failure("control character 0x\(String(byte, radix: 16)) in a string (it must be escaped)") }
      if byte == UInt8(ascii: "\\") {
        hasEscapes = true
        try readEscape()
      } else if byte < 0x80 {
        position += 1
      } else {
        try readMultibyteCharacter()
      }
    }
    nodes.append(
      JSONDocument.Node(kind: .string, hasEscapes: hasEscapes, start: Int32(start), end: Int32(position), next: Int32(nodes.count + 1)))
    position += 1
  }

  private mutating func readEscape() throws(JSONSyntaxError) {
    guard position + 1 < bytes.count else { throw failure("unterminated string") }
    switch bytes[position + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
      UInt8(ascii: "r"), UInt8(ascii: "t"):
      position += 2
    case UInt8(ascii: "u"):
      let unit = try readHexEscape()
      if (0xDC00...0xDFFF).contains(unit) { throw failure("a lone low surrogate (\\u\(String(unit, radix: 16)))", at: position - 6) }
      if (0xD800...0xDBFF).contains(unit) {
        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
          throw failure("a high surrogate not followed by a low one", at: position - 6)
        }
        let low = try readHexEscape()
        guard (0xDC00...0xDFFF).contains(low) else { throw failure("a high surrogate not followed by a low one", at: position - 12) }
      }
    default:
      throw failure("invalid escape '\\\(Self.printable(bytes[position + 1]))'")
    }
  }

  /// Reads `\uXXXX` at the position; returns the code unit.
  private mutating func readHexEscape() throws(JSONSyntaxError) -> UInt32 {
    guard bytes.count - position >= 6 else { throw failure("unterminated \\u escape") }
    var value: UInt32 = 0
    for offset in 2..<6 {
      guard let digit = Self.hexDigit(bytes[position + offset]) else { throw failure("invalid \\u escape") }
      value = value << 4 | UInt32(digit)
    }
    position += 6
    return value
  }

  /// Checks one UTF-8 sequence of 2 to 4 bytes (Unicode's table 3-7: no overlong forms, no surrogates,
  /// nothing above U+10FFFF).
  private mutating func readMultibyteCharacter() throws(JSONSyntaxError) {
    let first = bytes[position]
    let length: Int
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    switch first {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default: throw failure(JSONSyntaxError.invalidUTF8)
    }
    guard bytes.count - position >= length, secondRange.contains(bytes[position + 1]) else { throw failure(JSONSyntaxError.invalidUTF8) }
    for offset in 2..<length where !(0x80...0xBF).contains(bytes[position + offset]) {
      throw failure(JSONSyntaxError.invalidUTF8)
    }
    position += length
  }
}
