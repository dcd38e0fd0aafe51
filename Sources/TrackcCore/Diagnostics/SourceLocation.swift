/// A position in a text file: 1-based line and 1-based column.
///
/// Columns count Unicode scalars (code points), as the YAML specification counts characters and as
/// SARIF's `unicodeCodePoints` column kind does, so a column is the same whatever the editor's encoding.
public struct SourcePosition: Hashable, Sendable, Comparable {
  // Stored in 32 bits (a config has far fewer than two billion lines), so that the ranges carried by
  // every value of a large config take half the memory.
  private var storedLine: Int32
  private var storedColumn: Int32

  public var line: Int {
    get { Int(storedLine) }
    set { storedLine = Int32(clamping: newValue) }
  }

  public var column: Int {
    get { Int(storedColumn) }
    set { storedColumn = Int32(clamping: newValue) }
  }

  public init(line: Int, column: Int) {
    storedLine = Int32(clamping: line)
    storedColumn = Int32(clamping: column)
  }

  public static let start = SourcePosition(line: 1, column: 1)

  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
    (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
  }
}

/// A half-open span of text: `start` is the first character, `end` is just after the last.
public struct SourceRange: Hashable, Sendable {
  public var start: SourcePosition
  public var end: SourcePosition

  public init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }

  /// An empty range at `position`.
  public init(at position: SourcePosition) {
    self.init(start: position, end: position)
  }
}

/// A range in a named file: what a diagnostic points at.
public struct SourceLocation: Hashable, Sendable, Comparable {
  public var file: String
  public var range: SourceRange

  public init(file: String, range: SourceRange) {
    self.file = file
    self.range = range
  }

  public init(file: String, line: Int, column: Int) {
    self.init(file: file, range: SourceRange(at: SourcePosition(line: line, column: column)))
  }

  public var line: Int { range.start.line }
  public var column: Int { range.start.column }

  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    if lhs.file != rhs.file { return lhs.file < rhs.file }
    if lhs.range.start != rhs.range.start { return lhs.range.start < rhs.range.start }
    return lhs.range.end < rhs.range.end
  }
}
