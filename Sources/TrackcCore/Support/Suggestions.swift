/// "Did you mean" candidates, as compilers offer them for misspelt names.
public enum Suggestions {
  /// The candidate closest to `word`, if it is close enough to be a likely typo.
  ///
  /// Names that differ only in case, `_` or `-` (`pageEvents`, `page-events`) always match; otherwise
  /// the edit distance may be at most a third of the longer name's length (and at most 6).
  public static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    let normalizedWord = normalized(word)
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      if normalized(candidate) == normalizedWord { return candidate }
      // A third of the longer name: one typo in a short key, a renamed word in a long handler name.
      let limit = min(6, max(1, max(word.count, candidate.count) / 3))
      guard let distance = editDistance(word, candidate, limit: limit) else { continue }
      if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.candidate) {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }

  private static func normalized(_ word: String) -> String {
    String(word.lowercased().filter { $0 != "_" && $0 != "-" })
  }

  /// Levenshtein distance over Unicode scalars, or nil when it exceeds `limit` (checked cheaply first).
  public static func editDistance(_ a: String, _ b: String, limit: Int) -> Int? {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    guard abs(a.count - b.count) <= limit else { return nil }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMinimum = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
        rowMinimum = min(rowMinimum, current[j])
      }
      if rowMinimum > limit { return nil }
      swap(&previous, &current)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }
}
