/// Checks that a config is UTF-8 before libyaml sees it, so that a wrong encoding is reported
/// as such, with the position of the first bad byte, rather than as a confusing syntax error.
public enum TextEncoding {
  public enum Problem: Sendable, Hashable {
    case utf16(bigEndian: Bool)
    case utf32(bigEndian: Bool)
    case invalidUTF8(byteOffset: Int, byte: UInt8)
  }

  static func problem(in bytes: UnsafeBufferPointer<UInt8>) -> Problem? {
    if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return .utf32(bigEndian: true) }
    if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return .utf32(bigEndian: false) }
    if bytes.starts(with: [0xFE, 0xFF]) { return .utf16(bigEndian: true) }
    if bytes.starts(with: [0xFF, 0xFE]) { return .utf16(bigEndian: false) }
    // The standard library's validators are vectorised; walk scalar by scalar only to locate a failure,
    // or where they are newer than the system (before macOS 15 and iOS 18).
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
      // Validates in place, without copying the file into a String.
      do {
        _ = try UTF8Span(validating: bytes.span)
        return nil
      } catch {
        let offset = error.byteOffsets.lowerBound
        return .invalidUTF8(byteOffset: offset, byte: bytes[offset])
      }
    } else if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
      if String(validating: bytes, as: UTF8.self) != nil { return nil }
    }
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        offset += UTF8.width(scalar)
      case .emptyInput:
        return nil
      case .error:
        return .invalidUTF8(byteOffset: offset, byte: bytes[offset])
      }
    }
  }

  /// The line and column (in Unicode scalars) of a byte offset in UTF-8 text, counting line breaks as
  /// YAML does (`\n`, `\r\n`, or a lone `\r`). Bytes after an invalid sequence count one column each.
  static func position(ofByteOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
    var line = 1
    var column = 1
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    let end = min(offset, bytes.count)
    while index < end {
      let byte = bytes[index]
      if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 && byte != 0x0D {
        column += 1
      }
      index += 1
    }
    return SourcePosition(line: line, column: column)
  }

  /// The first NEL (U+0085), LINE SEPARATOR (U+2028) or PARAGRAPH SEPARATOR (U+2029) in valid UTF-8.
  ///
  /// libyaml reads YAML 1.1, where these break lines; YAML 1.2 and editors take them as ordinary
  /// characters. Left in, they would end a comment early (turning the rest of an innocent-looking comment into
  /// config), fold inside quotes, and shift the line of every position after them; so they are refused,
  /// as text the reader and libyaml would see differently. Escaped (`"\u2028"`), they are fine.
  static func firstYAML11LineBreak(in bytes: UnsafeBufferPointer<UInt8>) -> (byteOffset: Int, scalar: Unicode.Scalar)? {
    // Found with memchr (a config is mostly ASCII, so lead bytes 0xC2 and 0xE2 are rare): a fraction of a
    // millisecond on a 6 MB config.
    func first(_ lead: UInt8, followedBy matches: (Int) -> Unicode.Scalar?) -> (Int, Unicode.Scalar)? {
      guard let base = bytes.baseAddress else { return nil }
      var offset = 0
      while offset < bytes.count, let found = Platform.firstByte(lead, in: base + offset, count: bytes.count - offset) {
        let index = base.distance(to: found)
        if let scalar = matches(index) { return (index, scalar) }
        offset = index + 1
      }
      return nil
    }
    let nextLine = first(0xC2) { index in index + 1 < bytes.count && bytes[index + 1] == 0x85 ? "\u{85}" : nil }
    let separator = first(0xE2) { index in
      guard index + 2 < bytes.count, bytes[index + 1] == 0x80 else { return nil }
      return bytes[index + 2] == 0xA8 ? "\u{2028}" : bytes[index + 2] == 0xA9 ? "\u{2029}" : nil
    }
    switch (nextLine, separator) {
    case (let a?, let b?): return a.0 < b.0 ? a : b
    case (let a, let b): return a ?? b
    }
  }
}
