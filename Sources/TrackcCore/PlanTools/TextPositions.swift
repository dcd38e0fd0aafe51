/// Line/column positions (1-based, columns in Unicode scalars, as the YAML reader reports them) and
/// byte offsets into a UTF-8 text, converted both ways.
///
/// Lines end where libyaml ends them: at LF, CR, CRLF, NEL (U+0085), LS (U+2028) and PS (U+2029); a
/// byte order mark at the start is not a column.
struct TextPositions {
  let bytes: [UInt8]
  /// Byte offset of each line's first byte; `lineStarts[0]` is line 1.
  let lineStarts: [Int]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
    var index = starts[0]
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A {
        index += 1
      } else if byte == 0x0D {
        index += index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
      } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 {
        index += 2
      } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
        index += 3
      } else {
        index += 1
        continue
      }
      starts.append(index)
    }
    lineStarts = starts
  }

  /// The byte offset of a position; nil when the text has no such line or the line no such column
  /// (the column just past a line's last character, before its break, is valid).
  func offset(of position: SourcePosition) -> Int? {
    guard position.line >= 1, position.line <= lineStarts.count, position.column >= 1 else { return nil }
    let end = position.line < lineStarts.count ? lineStarts[position.line] : bytes.count
    var offset = lineStarts[position.line - 1]
    var column = 1
    while column < position.column {
      guard offset < end else { return nil }
      offset += 1
      while offset < end, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
      column += 1
    }
    return offset
  }

  /// The position of a byte offset (which should be at the start of a character).
  func position(of offset: Int) -> SourcePosition {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    var column = 1
    var index = lineStarts[low]
    while index < offset {
      if bytes[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    // A continuation byte at `offset` itself would have been counted by its leading byte.
    return SourcePosition(line: low + 1, column: column)
  }
}
