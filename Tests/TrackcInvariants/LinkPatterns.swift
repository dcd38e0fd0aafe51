import TrackcCore
import TrackcLinks

extension Invariants {
  /// The `links` target's input: a link, or after a first `!` patterns and links.
  public static func linksTargetViolations(_ bytes: [UInt8]) -> [String] {
    bytes.first == UInt8(ascii: "!") ? linkPatternViolations(Array(bytes.dropFirst())) : linkViolations(bytes)
  }

  /// Link patterns, as the `links` target writes them after a `!` (a first line of settings, `i` for
  /// `path_case: insensitive` and `s` for `trailing_slash: strict`; a pattern a line; a blank line; then
  /// a link a line): linted in a config of their own, every pattern that parses can be matched (a link
  /// built from it matches it), every overlap's example matches both patterns, and no link matches two
  /// patterns the analysis did not report as overlapping (nor the shadowed one without its shadow).
  /// Matching is `ReferenceMatcher`'s, the generated matcher's rules written plainly.
  public static func linkPatternViolations(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard !lines.isEmpty else { return [] }
    let settings = lines.removeFirst()
    let blank = lines.firstIndex(of: "") ?? lines.count
    let patterns = Array(lines[..<blank].prefix(16))
    let links = Array(lines[min(blank + 1, lines.count)...].prefix(32))
    guard !patterns.isEmpty else { return [] }
    var config = "version: 1\nscreens:\n  S: {page_events: {enter: S_ENTER}}\n"
    config += "links: {schemes: [shop, app], hosts: [shop.example.com, m.example.com], url_hosts: [shop.example.com]"
    if settings.contains("i") { config += ", path_case: insensitive" }
    if settings.contains("s") { config += ", trailing_slash: strict" }
    config += "}\nentry_points:\n"
    for (index, pattern) in patterns.enumerated() { config += "  e\(index): {screen: S, links: [\(yamlQuoted(pattern))]}\n" }
    let lint = lint(Array(config.utf8), code: nil)
    guard let entryPoints = lint.plan?.entryPoints else { return [] }
    let matcher = ReferenceMatcher(entryPoints)
    var violations: [String] = []
    for (index, link) in entryPoints.links.enumerated() {
      guard let sample = matcher.sample(of: link.pattern) else { continue }
      switch ParsedLink.parse(sample, rules: entryPoints.rules) {
      case .failure(let rejection): violations.append("pattern '\(link.pattern.text)' parses, but its link \(sample) is refused: \(rejection)")
      case .success(let parsed):
        if !matcher.matches(index, parsed) { violations.append("pattern '\(link.pattern.text)' parses, but its link \(sample) does not match it") }
      }
    }
    var overlapping = Set<[Int]>()
    for overlap in entryPoints.overlaps {
      overlapping.insert([overlap.earlier, overlap.later])
      guard case .success(let example) = ParsedLink.parse(overlap.example, rules: entryPoints.rules) else {
        violations.append("the overlap example \(overlap.example) is refused")
        continue
      }
      for pattern in [overlap.earlier, overlap.later] where !matcher.matches(pattern, example) {
        violations.append("the overlap example \(overlap.example) does not match '\(entryPoints.links[pattern].pattern.text)'")
      }
    }
    for link in links {
      guard case .success(let parsed) = ParsedLink.parse(link, rules: entryPoints.rules) else { continue }
      let matching = entryPoints.links.indices.filter { matcher.matches($0, parsed) }
      for (position, first) in matching.enumerated() {
        for second in matching[(position + 1)...] where !overlapping.contains([first, second]) {
          violations.append(
            "\(link) matches '\(entryPoints.links[first].pattern.text)' and '\(entryPoints.links[second].pattern.text)', which were not reported as overlapping"
          )
        }
      }
      for overlap in entryPoints.overlaps {
        guard let shadowing = overlap.shadowing else { continue }
        let (inner, outer) = shadowing == .laterByEarlier ? (overlap.later, overlap.earlier) : (overlap.earlier, overlap.later)
        if matching.contains(inner) && !matching.contains(outer) {
          violations.append(
            "\(link) matches '\(entryPoints.links[inner].pattern.text)' but not '\(entryPoints.links[outer].pattern.text)', said to shadow it")
        }
      }
    }
    return violations
  }

  /// A YAML double-quoted scalar of any text.
  static func yamlQuoted(_ text: String) -> String {
    var quoted = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": quoted += "\\\""
      case "\\": quoted += "\\\\"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
          || scalar.value == 0xFEFF
        {
          quoted += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
        } else {
          quoted.unicodeScalars.append(scalar)
        }
      }
    }
    return quoted + "\""
  }
}

/// Whether a link matches a pattern of a plan, decided as the generated matcher decides it (its origin,
/// each segment by literal, kind and value, a `{rest:path}`, the trailing slash under `strict`, each
/// declared query item absent, once or repeated), but plainly, pattern by pattern: the model the link
/// laws compare the overlap analysis with.
public struct ReferenceMatcher {
  let entryPoints: EntryPointPlan

  public init(_ entryPoints: EntryPointPlan) {
    self.entryPoints = entryPoints
  }

  var folds: Bool { entryPoints.rules.pathCase == .insensitive }

  static func folded(_ text: String) -> String {
    String(decoding: text.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
  }

  /// Whether pattern `index` of the plan matches `link`.
  public func matches(_ index: Int, _ link: ParsedLink) -> Bool {
    let pattern = entryPoints.links[index].pattern
    guard let host = link.hostText else { return false }
    let isScheme: Bool
    switch (pattern.origin, link.isWeb) {
    case (.host(let expected), true):
      guard link.isSecure, expected == host else { return false }
      isScheme = false
    case (.scheme(let expected), false):
      guard expected == link.schemeText else { return false }
      isScheme = true
    case (.everywhere, true):
      guard link.isSecure, entryPoints.hosts.contains(host) else { return false }
      isScheme = false
    case (.everywhere, false):
      guard entryPoints.schemes.contains(link.schemeText) else { return false }
      isScheme = true
    default: return false
    }
    let texts = link.texts(fromSegment: 0)
    for (position, segment) in pattern.segments.enumerated() {
      switch segment {
      case .literal(let literal):
        guard position < texts.count else { return false }
        let fold = folds || (isScheme && position == 0)
        guard (fold ? Self.folded(texts[position]) : texts[position]) == (fold ? Self.folded(literal) : literal) else { return false }
      case .parameter(let parameter):
        if parameter.type == .value(.path) {
          return position < texts.count && link.segments[position...].allSatisfy { LinkValueType.path.accepted.contains($0.kind) }
            && tail(pattern, link)
        }
        guard position < texts.count, accepts(parameter.type, texts[position], kind: link.segments[position].kind, inPath: true) else { return false }
      }
    }
    return texts.count == pattern.segments.count && tail(pattern, link)
  }

  /// The trailing slash and the query.
  private func tail(_ pattern: LinkPattern, _ link: ParsedLink) -> Bool {
    if entryPoints.rules.trailingSlash == .strict && link.hasTrailingSlash != pattern.trailingSlash { return false }
    for item in pattern.query {
      let found = link.query.indices.filter {
        String(decoding: link.bytes[link.query[$0].nameStart..<link.query[$0].nameEnd], as: UTF8.self) == item.key
      }
      switch found.count {
      case 0: if item.requirement == .required { return false }
      case 1:
        guard accepts(item.parameter.type, link.text(ofQueryItem: found[0]), kind: link.query[found[0]].kind, inPath: false) else { return false }
      default: return false
      }
    }
    return true
  }

  private func accepts(_ type: ParameterType, _ text: String, kind: SegmentKind, inPath: Bool) -> Bool {
    switch type {
    case .value(.url): return kind == .text && LinkValueType.acceptsURL(text, allowing: Set(entryPoints.urlHosts))
    case .value(.uuid): return kind == .uuid
    case .value(let value): return value.accepted.contains(kind)
    case .enumeration(let values):
      guard SegmentKinds.nonEmptyText.contains(kind) else { return false }
      return inPath && folds ? values.map(Self.folded).contains(Self.folded(text)) : values.contains(text)
    }
  }

  /// A link the pattern should match, the shortest of its origins (lint bounds a pattern by its
  /// shortest link): the shortest value of each parameter, each required query item; nil when the plan
  /// gives it nowhere to apply (or a `url` nowhere to point).
  public func sample(of pattern: LinkPattern) -> String? {
    let origins: [(start: String, hostFirst: Bool)]
    switch pattern.origin {
    case .host(let host): origins = [("https://" + host, false)]
    case .scheme(let scheme): origins = [(scheme + "://", true)]
    case .everywhere: origins = entryPoints.hosts.map { ("https://" + $0, false) } + entryPoints.schemes.map { ($0 + "://", true) }
    }
    return origins.compactMap { sample(of: pattern, from: $0.start, hostFirst: $0.hostFirst) }.min { $0.utf8.count < $1.utf8.count }
  }

  private func sample(of pattern: LinkPattern, from origin: String, hostFirst: Bool) -> String? {
    var start = origin
    for (position, segment) in pattern.segments.enumerated() {
      var value: String
      switch segment {
      case .literal(let literal): value = literal
      case .parameter(let parameter):
        guard let sample = sample(parameter.type) else { return nil }
        value = sample
      }
      if hostFirst && position == 0 {
        // The app reads a host in lower case: a literal is compared so, a parameter's value must be so.
        if case .literal = segment { value = value.lowercased() }
        guard
          LinkNumber.isUUID(Array(value.utf8))
            || value.utf8.allSatisfy({
              $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            })
        else { return nil }
        start += value
      } else {
        start += "/" + LinkEncoding.percentEncoded(value)
      }
    }
    if hostFirst && pattern.segments.isEmpty { return nil }
    if pattern.trailingSlash { start += "/" }
    let required = pattern.query.filter { $0.requirement == .required }
    for (position, item) in required.enumerated() {
      guard let value = sample(item.parameter.type) else { return nil }
      start += (position == 0 ? "?" : "&") + LinkEncoding.percentEncoded(item.key) + "=" + LinkEncoding.percentEncoded(value)
    }
    return start
  }

  private func sample(_ type: ParameterType) -> String? {
    switch type {
    case .value(.uuid): return "00000000-0000-4000-8000-000000000000"
    case .value(.url): return entryPoints.urlHosts.first.map { "https://" + $0 + "/" }
    case .value: return "1"
    case .enumeration(let values): return values.min { $0.utf8.count < $1.utf8.count }
    }
  }
}
