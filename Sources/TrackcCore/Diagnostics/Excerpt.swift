extension Diagnostic {
  /// Text from the input as a message quotes it: whole when short, else its first `limit` scalars and
  /// `…`, so that a finding about a 60 KB link pattern or path is one readable line, not the input again.
  public static func excerpt(_ text: some StringProtocol, limit: Int = 120) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > limit else { return String(text) }
    return String(String.UnicodeScalarView(scalars.prefix(limit))) + "…"
  }
}
