/// Takes the calls `trackc adopt` mapped out of a file's text: each call's statement (and a local it
/// introduced only for the call), through its line's end when nothing else is on its lines, every other
/// byte as it was. Refuses a file whose content is not the one the calls were read from.
public enum CallRemover {
  public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's content has changed since the scan: the calls' positions may be wrong.
    case changedSinceScan(file: String)
    case unreadable(file: String)

    public var description: String {
      switch self {
      case .changedSinceScan(let file): return "'\(file)' has changed since it was scanned; run trackc adopt again"
      case .unreadable(let file): return "cannot read '\(file)'"
      }
    }
  }

  /// The file's bytes without the removals' statements.
  /// - Parameter expectedHash: the hash `Adopter` recorded for the file (`Result.fileHashes`).
  public static func remove(_ removals: [AnalyticsCall.Removal], from bytes: [UInt8], file: String, expectedHash: String) -> Result<[UInt8], Refusal>
  {
    let hash = bytes.withUnsafeBufferPointer { ContentHash.of($0) }
    guard hash == expectedHash else { return .failure(.changedSinceScan(file: file)) }
    var ranges = removals.flatMap(\.statements).map { widened($0, in: bytes) }.sorted { $0.lowerBound < $1.lowerBound }
    // Overlapping ranges (never from one scan) are merged rather than cut twice.
    var merged: [Range<Int>] = []
    for range in ranges where range.lowerBound >= 0 && range.upperBound <= bytes.count {
      if let last = merged.last, range.lowerBound < last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    ranges = merged
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var next = 0
    for range in ranges {
      result += bytes[next..<range.lowerBound]
      next = range.upperBound
    }
    result += bytes[next...]
    return .success(result)
  }

  /// A statement's range, with its whole lines when nothing else is on them (indentation, a `;`, the
  /// line break), else with a `;` that ends it.
  static func widened(_ range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
    func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    var start = range.lowerBound
    while start > 0, isBlank(bytes[start - 1]) { start -= 1 }
    let startsLine = start == 0 || bytes[start - 1] == 0x0A || bytes[start - 1] == 0x0D
    var end = range.upperBound
    while end < bytes.count, isBlank(bytes[end]) { end += 1 }
    if end < bytes.count, bytes[end] == UInt8(ascii: ";") {
      end += 1
      while end < bytes.count, isBlank(bytes[end]) { end += 1 }
    }
    let endsLine = end == bytes.count || bytes[end] == 0x0A || bytes[end] == 0x0D
    if startsLine && endsLine {
      if end < bytes.count, bytes[end] == 0x0D { end += 1 }
      if end < bytes.count, bytes[end] == 0x0A { end += 1 }
      return start..<end
    }
    // Something else shares the line: the statement alone, with its `;` and the blanks after it.
    // (A statement's syntax may hold its `;` already.)
    var own = range.upperBound
    while own < bytes.count, isBlank(bytes[own]) { own += 1 }
    if own < bytes.count, bytes[own] == UInt8(ascii: ";") {
      own += 1
      while own < bytes.count, isBlank(bytes[own]) { own += 1 }
      return range.lowerBound..<own
    }
    return range.upperBound > range.lowerBound && bytes[range.upperBound - 1] == UInt8(ascii: ";") ? range.lowerBound..<own : range
  }
}
