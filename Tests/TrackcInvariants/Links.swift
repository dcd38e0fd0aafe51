import Foundation
import TrackcLinks

extension Invariants {
  /// A link read from any bytes (docs/entry-points.md, "Hostile links"): refused, or read within the
  /// bounds, each segment and query value well-formed UTF-8 of the kind it is classified as, without a
  /// control character; printed back (every value percent-encoded on its own) it reads as the same
  /// segments, query values and origin; and the `URL` Foundation makes of the same text reads the same.
  public static func linkViolations(_ bytes: [UInt8]) -> [String] {
    let rules = LinkRules()
    let parsed = bytes.withUnsafeBufferPointer { ParsedLink.parse(utf8: $0, rules: rules) }
    var violations = oneReadingViolations(bytes, parsed, rules: rules)
    guard case .success(let link) = parsed else { return violations }
    let beforeFragment = bytes.prefix { $0 != UInt8(ascii: "#") }
    if beforeFragment.count > 3 * rules.limits.maximumBytes { violations.append("a link of \(beforeFragment.count) bytes was read") }
    if link.segments.count > rules.limits.maximumSegments { violations.append("\(link.segments.count) segments were read") }
    if link.query.count > rules.limits.maximumQueryItems { violations.append("\(link.query.count) query items were read") }
    guard let host = link.hostText else { return violations + ["a link without a host was read"] }
    for segment in link.segments {
      let decoded = link.bytes[segment.start..<segment.end]
      if !ParsedLink.isValidUTF8(decoded) { violations.append("a segment is not UTF-8: \(Array(decoded))") }
      if SegmentKind.of(decoded) != segment.kind { violations.append("a segment's kind is not its bytes' kind") }
      if segment.kind == .control || decoded.contains(0) { violations.append("a segment holds a control character") }
      if decoded.count > rules.limits.maximumValueBytes { violations.append("a segment of \(decoded.count) bytes was read") }
    }
    // Printed back: the origin as read, each segment and query item encoded on its own.
    var text = link.schemeText + "://" + host
    let segments = link.texts(fromSegment: 0)
    for (index, segment) in segments.enumerated() {
      // A custom scheme's host is its first segment, written above (a host is never encoded).
      if index == 0 && !link.isWeb { continue }
      text += "/" + LinkEncoding.segment(segment)
    }
    if link.hasTrailingSlash { text += "/" }
    let query = link.query.indices.map { index in
      (String(decoding: link.bytes[link.query[index].nameStart..<link.query[index].nameEnd], as: UTF8.self), link.text(ofQueryItem: index))
    }
    if !query.isEmpty {
      text += "?" + query.map { LinkEncoding.percentEncoded($0.0) + "=" + LinkEncoding.percentEncoded($0.1) }.joined(separator: "&")
    }
    // The bounds measure the decoded link, so what was read prints back within them.
    switch ParsedLink.parse(text, rules: rules) {
    case .failure(let rejection):
      violations.append("the link printed back as \(text) is refused: \(rejection)")
    case .success(let again):
      if again.texts(fromSegment: 0) != segments {
        violations.append("printed back as \(text), the segments read \(again.texts(fromSegment: 0)), not \(segments)")
      }
      let queryAgain = again.query.indices.map { again.text(ofQueryItem: $0) }
      if queryAgain != query.map(\.1) { violations.append("printed back as \(text), the query values read \(queryAgain), not \(query.map(\.1))") }
      if again.originHash != link.originHash { violations.append("printed back as \(text), the origin changed") }
    }
    return violations
  }

  /// One reading of a link: the text, and the `URL` Foundation's `URL(string:)` makes of it (which
  /// escapes what may not stand raw), are refused alike or read as the same parts. A host that is not
  /// ASCII is read in Foundation's IDNA form, as `Route(link:)` reads it.
  static func oneReadingViolations(_ bytes: [UInt8], _ parsed: Result<ParsedLink, LinkRejection>, rules: LinkRules) -> [String] {
    // Valid UTF-8 only (it decodes without a replacement); `String(validating:as:)` is macOS 15 and later.
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.utf8.elementsEqual(bytes), let url = URL(string: text) else { return [] }
    func reading(_ text: String) -> [String]? {
      var text = text
      if case .failure(.invalidHost) = ParsedLink.parse(text, rules: rules), text.utf8.contains(where: { $0 >= 0x80 }) {
        text = URL(string: text)?.absoluteString ?? text
      }
      guard case .success(let link) = ParsedLink.parse(text, rules: rules) else { return nil }
      return [link.schemeText, link.hostText ?? "", link.hasTrailingSlash ? "/" : ""] + link.texts(fromSegment: 0)
        + link.query.indices.map {
          "?" + String(decoding: link.bytes[link.query[$0].nameStart..<link.query[$0].nameEnd], as: UTF8.self) + "=" + link.text(ofQueryItem: $0)
        }
    }
    let asText = reading(text)
    let asURL = reading(url.absoluteString)
    guard asText != asURL else { return [] }
    return [
      "\(text.debugDescription) reads \(asText.map(\.description) ?? "refused") as text, \(asURL.map(\.description) ?? "refused") as the URL \(url.absoluteString.debugDescription)"
    ]
  }
}
