import TrackcRouting

extension Invariants {
  /// A link read from any bytes (docs/entry-points.md, "Hostile links"): refused, or read within the bounds, each
  /// segment and query value well-formed UTF-8 of the kind it is classified as, and printed back (every
  /// value percent-encoded on its own) it reads as the same segments and query values.
  public static func linkViolations(_ bytes: [UInt8]) -> [String] {
    let rules = LinkRules()
    let parsed = bytes.withUnsafeBufferPointer { ParsedLink.parse(utf8: $0, rules: rules) }
    guard case .success(let link) = parsed else { return [] }
    var violations: [String] = []
    if bytes.count > rules.limits.maximumBytes { violations.append("a link of \(bytes.count) bytes was read") }
    if link.segments.count > rules.limits.maximumSegments { violations.append("\(link.segments.count) segments were read") }
    if link.query.count > rules.limits.maximumQueryItems { violations.append("\(link.query.count) query items were read") }
    for segment in link.segments {
      let decoded = link.bytes[segment.start..<segment.end]
      if !ParsedLink.isValidUTF8(decoded) { violations.append("a segment is not UTF-8: \(Array(decoded))") }
      if SegmentKind.of(decoded) != segment.kind { violations.append("a segment's kind is not its bytes' kind") }
      if decoded.contains(0) { violations.append("a segment holds NUL") }
    }
    // Printed back: the origin as read, each segment and query item encoded on its own.
    var text = link.isWeb ? link.schemeText + "://" + (link.hostText ?? "") : link.schemeText + ":"
    // An authority, empty when there is no host but the path starts with an empty segment (`shop:////`):
    // without it, that path's `//` would be read as the authority.
    if !link.isWeb, link.hostText != nil || link.texts(fromSegment: 0).first == "" { text += "//" }
    let segments = link.texts(fromSegment: 0)
    for (index, segment) in segments.enumerated() {
      // A custom scheme's host is its first segment, written as it is (a host is never encoded).
      if index == 0 && !link.isWeb && link.hostText != nil {
        text += segment
        continue
      }
      text += "/" + LinkEncoding.segment(segment)
    }
    if link.hasTrailingSlash || segments.last == "" { text += "/" }
    let query = link.query.indices.map { index in
      (String(decoding: link.bytes[link.query[index].nameStart..<link.query[index].nameEnd], as: UTF8.self), link.text(ofQueryItem: index))
    }
    if !query.isEmpty {
      text += "?" + query.map { LinkEncoding.percentEncoded($0.0) + "=" + LinkEncoding.percentEncoded($0.1) }.joined(separator: "&")
    }
    // Only links within the bounds once encoded can be compared: encoding may triple a value's length.
    guard text.utf8.count <= rules.limits.maximumBytes,
      query.allSatisfy({ $0.0.utf8.count * 3 <= rules.limits.maximumValueBytes && $0.1.utf8.count * 3 <= rules.limits.maximumValueBytes }),
      segments.allSatisfy({ $0.utf8.count * 3 <= rules.limits.maximumValueBytes })
    else { return violations }
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
}
