import TrackcLinks

/// A link pattern of the config, parsed: `shop://product/{id:int}`, `/product/{id:int}?ref={ref:string?}`,
/// `https://shop.example.com/files/{rest:path}`. What the rules, the overlap analysis, the generated
/// matcher and printer and the platform files all read, parsed once in the plan stage.
///
/// Grammar (characters are Unicode scalars; positions are offsets into the pattern for diagnostics):
///
///     pattern   = [scheme "://"] segments ["?" query]      custom scheme: the first segment is the host
///               | ("https" | "http") "://" host ["/" segments] ["?" query]
///               | "/" segments ["?" query]                 every scheme and every host of the plan
///     segments  = segment *("/" segment) ["/"]
///     segment   = literal | "{" name ":" type "}"
///     query     = item *("&" item)
///     item      = key "=" "{" name ":" type ["?" | "=" default] "}"
///     type      = "int" | "int64" | "string" | "slug" | "uuid" | "path" | "url" | "enum(" value *("|" value) ")"
public struct LinkPattern: Sendable, Hashable {
  /// Where the pattern applies.
  public enum Origin: Sendable, Hashable {
    /// `/…`: every scheme (its first segment the host) and every host of the plan.
    case everywhere
    /// `shop://…`: that custom scheme (lower case).
    case scheme(String)
    /// `https://shop.example.com/…`: that host (lower case).
    case host(String)
  }

  public enum Segment: Sendable, Hashable {
    case literal(String)
    case parameter(Parameter)
  }

  public struct Parameter: Sendable, Hashable {
    public var name: String
    public var type: ParameterType
    /// Where `{` is, for diagnostics.
    public var offset: Int
  }

  /// A declared query parameter: `ref={ref:string?}`.
  public struct QueryItem: Sendable, Hashable {
    /// The query key (`ref`).
    public var key: String
    public var parameter: Parameter
    public var requirement: Requirement
  }

  public var text: String
  public var origin: Origin
  public var segments: [Segment]
  public var query: [QueryItem]
  /// The pattern ends with `/` (it matters under `trailing_slash: strict`).
  public var trailingSlash: Bool

  /// Every parameter, path then query.
  public var parameters: [(parameter: Parameter, requirement: Requirement)] {
    segments.compactMap { segment in
      if case .parameter(let parameter) = segment { return (parameter, .required) }
      return nil
    } + query.map { ($0.parameter, $0.requirement) }
  }

  /// A rest parameter's position, when the pattern ends with `{rest:path}`.
  public var restIndex: Int? {
    guard case .parameter(let parameter)? = segments.last, parameter.type == .value(.path) else { return nil }
    return segments.count - 1
  }
}

/// A parameter's type: one of the value types, or an enumeration of listed values.
public enum ParameterType: Sendable, Hashable, CustomStringConvertible {
  case value(LinkValueType)
  case enumeration([String])

  public var description: String {
    switch self {
    case .value(let type): return type.rawValue
    case .enumeration(let values): return "enum(" + values.joined(separator: "|") + ")"
    }
  }

  /// Parses a type as written (`int`, `enum(a|b)`); the problem says what is wrong.
  static func parse(_ text: Substring) -> Result<ParameterType, LinkPatternProblem.Kind> {
    if let type = LinkValueType(rawValue: String(text)) { return .success(.value(type)) }
    if text.hasPrefix("enum(") && text.hasSuffix(")") {
      let inner = text.dropFirst(5).dropLast()
      let values = inner.isEmpty ? [] : inner.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
      guard !values.isEmpty else { return .failure(.emptyEnum) }
      if let empty = values.firstIndex(where: \.isEmpty) { return .failure(.enumValue(values[empty])) }
      for value in values where !LinkPattern.isLiteralText(value) { return .failure(.enumValue(value)) }
      var seen = Set<String>()
      for value in values where !seen.insert(value).inserted { return .failure(.duplicateEnumValue(value)) }
      return .success(.enumeration(values))
    }
    let names = LinkValueType.allCases.map(\.rawValue) + ["enum(a|b)"]
    return .failure(.unknownType(String(text), suggestion: Suggestions.closest(to: String(text), in: names)))
  }
}

/// Whether a parameter must be in the query, may be absent (nil), or has a default when absent.
public enum Requirement: Sendable, Hashable {
  case required
  case optional
  /// The default, as written.
  case defaulted(String)

  public var mayBeAbsent: Bool { self != .required }
}

/// What is wrong with a pattern, and where in it.
public struct LinkPatternProblem: Sendable, Hashable {
  public enum Kind: Error, Sendable, Hashable {
    case empty
    case unbalancedBrace
    case unknownType(String, suggestion: String?)
    case missingType(name: String)
    case invalidName(String)
    case duplicateName(String)
    /// A name used by a path and a query parameter.
    case pathAndQuery(String)
    case restNotLast
    case emptyEnum
    case enumValue(String)
    case duplicateEnumValue(String)
    case emptySegment
    case invalidCharacter(Character)
    case undeclaredScheme(String, suggestion: String?)
    case undeclaredHost(String, suggestion: String?)
    /// A pattern that starts with neither `/` nor `scheme://`.
    case noStart
    /// A custom scheme's host (the first segment) that is not a literal host name.
    case deepLinkHost(String)
    /// `{x:int?}` in the path.
    case optionalInPath(String)
    case queryItem(String)
    case invalidDefault(String, type: ParameterType)
    /// `path` or `url` where they cannot be.
    case misplacedType(LinkValueType, inQuery: Bool)
    case webScheme(String)
    /// `.` or `..` as a path segment (a literal or an enumeration's value): browsers and the systems
    /// resolve them away before the app sees the link.
    case dotSegment(String)
    /// More segments than a link may have (`LinkLimits.maximumSegments`; a custom scheme's host counts).
    case tooManySegments(count: Int, limit: Int)
    /// A literal, query key or enumeration value longer than a segment or value may be
    /// (`LinkLimits.maximumValueBytes`, in UTF-8 bytes).
    case literalTooLong(bytes: Int, limit: Int)
    /// The shortest link the pattern matches is longer than a link may be (`LinkLimits.maximumBytes`).
    case linkTooLong(bytes: Int, limit: Int)
    /// A query key declared twice: a link that repeats a declared key matches nothing, so the pattern
    /// would need one value for two parameters.
    case duplicateQueryKey(String)
    /// More query items than a link may have (`LinkLimits.maximumQueryItems`).
    case tooManyQueryItems(count: Int, limit: Int)
  }

  public var kind: Kind
  /// Offset in Unicode scalars from the start of the pattern.
  public var offset: Int
}

extension LinkPattern {
  /// Characters a literal may hold: anything visible but the pattern's own syntax (`/ ? # { } % &` and `=`
  /// in the query) and spaces.
  static func isLiteralText(_ text: some StringProtocol) -> Bool {
    !text.isEmpty && text.unicodeScalars.allSatisfy(isLiteralScalar)
  }

  static func isLiteralScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "/", "?", "#", "{", "}", "%", "&", "=", "|", "(", ")", " ": return false
    default: return !TextEscaping.isInvisible(scalar)
    }
  }

  static func isName(_ text: Substring) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) || ("A"..."Z").contains(first) else { return false }
    return text.unicodeScalars.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
  }

  static func isHostName(_ text: some StringProtocol) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      }
  }

  /// Parses `text`; every problem found, or the pattern. `schemes`, `hosts` and `urlHosts` are the plan's
  /// (lower case); `limits` are those links are read with, which no pattern may need more than.
  static func parse(
    _ text: String, schemes: Set<String>, hosts: Set<String>, urlHosts: [String] = [], limits: LinkLimits = LinkLimits()
  ) -> (pattern: LinkPattern?, problems: [LinkPatternProblem]) {
    var parser = LinkPatternParser(scalars: Array(text.unicodeScalars), schemes: schemes, hosts: hosts, urlHosts: urlHosts, limits: limits)
    return parser.parse(text)
  }

  /// The length of the shortest link the pattern matches, measured as links are bounded (decoded, one
  /// byte per separator: `ParsedLink.length`), on the origin where it is shortest.
  func shortestLink(schemes: [String], hosts: [String]) -> Int {
    var origins: [(length: Int, hostIsSegment: Bool)] = []
    // A custom scheme's host is the first segment: a literal that is no host name (`/a+/...`) never
    // stands there, so only the universal-link hosts measure such a pattern.
    var firstCanBeHost = true
    if case .literal(let first)? = segments.first { firstCanBeHost = Self.isHostName(first) }
    switch origin {
    case .scheme(let scheme): origins.append((scheme.utf8.count + 3, true))
    case .host(let host): origins.append(("https://".utf8.count + host.utf8.count, false))
    case .everywhere:
      if firstCanBeHost { origins += schemes.map { ($0.utf8.count + 3, true) } }
      origins += hosts.map { ("https://".utf8.count + $0.utf8.count, false) }
    }
    var path = 0
    for segment in segments {
      path += 1  // its `/`
      switch segment {
      case .literal(let text): path += text.utf8.count
      case .parameter(let parameter): path += Self.shortestValue(parameter.type)
      }
    }
    if trailingSlash { path += 1 }
    var queryLength = 0
    for item in query where item.requirement == .required {
      queryLength += 2 + item.key.utf8.count + Self.shortestValue(item.parameter.type)  // `?` or `&`, `=`
    }
    // A custom scheme's host is its first segment, without a `/` before it.
    return (origins.map { $0.length - ($0.hostIsSegment && !segments.isEmpty ? 1 : 0) }.min() ?? 0) + path + queryLength
  }

  /// The fewest bytes a value of the type takes.
  static func shortestValue(_ type: ParameterType) -> Int {
    switch type {
    case .value(.uuid): return 36
    case .value(.url): return "https://".utf8.count + 1
    case .value: return 1
    case .enumeration(let values): return values.map(\.utf8.count).min() ?? 1
    }
  }
}

/// The parser behind `LinkPattern.parse`: a hand-written scanner over the pattern's scalars, which
/// collects every problem it can rather than stopping at the first.
private struct LinkPatternParser {
  let scalars: [Unicode.Scalar]
  let schemes: Set<String>
  let hosts: Set<String>
  let urlHosts: [String]
  let limits: LinkLimits
  var problems: [LinkPatternProblem] = []
  var names: [String: (offset: Int, inQuery: Bool)] = [:]

  init(scalars: [Unicode.Scalar], schemes: Set<String>, hosts: Set<String>, urlHosts: [String], limits: LinkLimits) {
    self.scalars = scalars
    self.schemes = schemes
    self.hosts = hosts
    self.urlHosts = urlHosts
    self.limits = limits
  }

  mutating func report(_ kind: LinkPatternProblem.Kind, at offset: Int) {
    problems.append(LinkPatternProblem(kind: kind, offset: offset))
  }

  func text(_ range: Range<Int>) -> Substring {
    Substring(String(String.UnicodeScalarView(scalars[range])))
  }

  mutating func parse(_ whole: String) -> (pattern: LinkPattern?, problems: [LinkPatternProblem]) {
    guard !scalars.isEmpty else { return (nil, [LinkPatternProblem(kind: .empty, offset: 0)]) }
    // The first `?` outside braces (`{ref:string?}` marks an optional parameter).
    var depth = 0
    var queryStart = scalars.count
    for (index, scalar) in scalars.enumerated() {
      if scalar == "{" {
        depth += 1
      } else if scalar == "}" {
        depth = max(0, depth - 1)
      } else if scalar == "?" && depth == 0 {
        queryStart = index
        break
      }
    }
    var position = 0
    var origin = LinkPattern.Origin.everywhere
    var isDeepLink = false
    if let separator = find("://", before: queryStart) {
      let scheme = text(0..<separator).lowercased()
      position = separator + 3
      if scheme == "https" || scheme == "http" {
        let hostEnd = scalars[position..<queryStart].firstIndex(of: "/") ?? queryStart
        let host = text(position..<hostEnd).lowercased()
        if scheme == "http" { report(.webScheme(scheme), at: 0) }
        if !hosts.contains(host) {
          report(.undeclaredHost(host, suggestion: Suggestions.closest(to: host, in: hosts.sorted())), at: position)
        }
        origin = .host(host)
        position = hostEnd
        if position < queryStart { position += 1 }
      } else {
        if !schemes.contains(scheme) {
          report(.undeclaredScheme(scheme, suggestion: Suggestions.closest(to: scheme, in: schemes.sorted())), at: 0)
        }
        origin = .scheme(scheme)
        isDeepLink = true
      }
    } else if scalars.first == "/" {
      position = 1
    } else {
      report(.noStart, at: 0)
    }

    // Segments.
    var segments: [LinkPattern.Segment] = []
    var trailingSlash = false
    var segmentStart = position
    if position < queryStart || (isDeepLink && position == queryStart) {
      while segmentStart <= queryStart {
        let end = scalars[segmentStart..<queryStart].firstIndex(of: "/") ?? queryStart
        if segmentStart == end {
          if end == queryStart && !segments.isEmpty {
            trailingSlash = true
          } else if !(end == queryStart && segments.isEmpty && !isDeepLink) {
            report(.emptySegment, at: segmentStart)
          }
        } else if let segment = segment(segmentStart..<end) {
          segments.append(segment)
        }
        segmentStart = end + 1
      }
    }
    if segments.count > limits.maximumSegments {
      report(.tooManySegments(count: segments.count, limit: limits.maximumSegments), at: position)
    }
    if isDeepLink, let first = segments.first {
      if case .literal(let host) = first, LinkPattern.isHostName(host) {
        segments[0] = .literal(host.lowercased())
      } else {
        report(.deepLinkHost(segmentText(first)), at: position)
      }
    }
    for (index, segment) in segments.enumerated() where index < segments.count - 1 {
      if case .parameter(let parameter) = segment, parameter.type == .value(.path) { report(.restNotLast, at: parameter.offset) }
    }
    if trailingSlash, case .parameter(let parameter)? = segments.last, parameter.type == .value(.path) {
      report(.restNotLast, at: parameter.offset)
    }

    // Query.
    var query: [LinkPattern.QueryItem] = []
    if queryStart < scalars.count {
      var itemStart = queryStart + 1
      while itemStart <= scalars.count {
        let end = scalars[itemStart...].firstIndex(of: "&") ?? scalars.count
        if let item = queryItem(itemStart..<end) { query.append(item) }
        itemStart = end + 1
      }
    }
    var keys = Set<String>()
    for item in query where !keys.insert(item.key).inserted {
      report(.duplicateQueryKey(item.key), at: item.parameter.offset)
    }
    if query.count > limits.maximumQueryItems {
      report(.tooManyQueryItems(count: query.count, limit: limits.maximumQueryItems), at: queryStart)
    }
    guard problems.isEmpty else { return (nil, problems) }
    let pattern = LinkPattern(text: whole, origin: origin, segments: segments, query: query, trailingSlash: trailingSlash)
    let shortest = pattern.shortestLink(schemes: schemes.sorted(), hosts: hosts.sorted())
    if shortest > limits.maximumBytes {
      return (nil, [LinkPatternProblem(kind: .linkTooLong(bytes: shortest, limit: limits.maximumBytes), offset: 0)])
    }
    return (pattern, [])
  }

  func segmentText(_ segment: LinkPattern.Segment) -> String {
    switch segment {
    case .literal(let text): return text
    case .parameter(let parameter): return "{\(parameter.name):\(parameter.type)}"
    }
  }

  func find(_ needle: String, before end: Int) -> Int? {
    let needle = Array(needle.unicodeScalars)
    guard end >= needle.count else { return nil }
    for start in 0...(end - needle.count) where scalars[start..<(start + needle.count)].elementsEqual(needle) {
      // Only a scheme may stand before "://".
      let scheme = scalars[0..<start]
      guard let first = scheme.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first),
        scheme.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
      else { return nil }
      return start
    }
    return nil
  }

  /// One path segment: a literal, or a parameter filling the whole segment.
  mutating func segment(_ range: Range<Int>) -> LinkPattern.Segment? {
    let opens = scalars[range].filter { $0 == "{" }.count
    let closes = scalars[range].filter { $0 == "}" }.count
    if opens == 0 && closes == 0 {
      for index in range where !LinkPattern.isLiteralScalar(scalars[index]) {
        report(.invalidCharacter(Character(scalars[index])), at: index)
        return nil
      }
      let literal = String(text(range))
      if literal == "." || literal == ".." {
        report(.dotSegment(literal), at: range.lowerBound)
        return nil
      }
      if literal.utf8.count > limits.maximumValueBytes {
        report(.literalTooLong(bytes: literal.utf8.count, limit: limits.maximumValueBytes), at: range.lowerBound)
        return nil
      }
      return .literal(literal)
    }
    guard scalars[range.lowerBound] == "{", scalars[range.upperBound - 1] == "}", opens == 1, closes == 1 else {
      let at = scalars[range].firstIndex { $0 == "{" || $0 == "}" } ?? range.lowerBound
      // A parameter is a whole segment: `{id}x` is as unbalanced for matching as `{id`.
      report(.unbalancedBrace, at: opens == 1 && closes == 1 && scalars[range.lowerBound] != "{" ? range.lowerBound : at)
      return nil
    }
    guard let (parameter, requirement) = parameter(range, inQuery: false) else { return nil }
    if requirement != .required { report(.optionalInPath(parameter.name), at: range.lowerBound) }
    if case .enumeration(let values) = parameter.type, let dot = values.first(where: { $0 == "." || $0 == ".." }) {
      report(.dotSegment(dot), at: range.lowerBound)
    }
    if parameter.type == .value(.url) { report(.misplacedType(.url, inQuery: false), at: range.lowerBound) }
    return .parameter(parameter)
  }

  /// `key={name:type}`, `key={name:type?}`, `key={name:type=default}`.
  mutating func queryItem(_ range: Range<Int>) -> LinkPattern.QueryItem? {
    guard let equals = scalars[range].firstIndex(of: "="), equals > range.lowerBound, equals + 1 < range.upperBound,
      scalars[equals + 1] == "{"
    else {
      report(.queryItem(String(text(range))), at: range.lowerBound)
      return nil
    }
    let key = text(range.lowerBound..<equals)
    guard LinkPattern.isLiteralText(key) else {
      report(.queryItem(String(text(range))), at: range.lowerBound)
      return nil
    }
    if key.utf8.count > limits.maximumValueBytes {
      report(.literalTooLong(bytes: key.utf8.count, limit: limits.maximumValueBytes), at: range.lowerBound)
      return nil
    }
    let value = (equals + 1)..<range.upperBound
    let braces = scalars[value].filter { $0 == "{" || $0 == "}" }.count
    guard scalars[value.upperBound - 1] == "}", braces == 2 else {
      report(.unbalancedBrace, at: value.lowerBound)
      return nil
    }
    guard let (parameter, requirement) = parameter(value, inQuery: true) else { return nil }
    if parameter.type == .value(.path) { report(.misplacedType(.path, inQuery: true), at: value.lowerBound) }
    return LinkPattern.QueryItem(key: String(key), parameter: parameter, requirement: requirement)
  }

  /// `{name:type}` with an optional `?` or `=default` suffix (allowed by the caller or not).
  mutating func parameter(_ range: Range<Int>, inQuery: Bool) -> (LinkPattern.Parameter, Requirement)? {
    let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
    guard let colon = scalars[inner].firstIndex(of: ":") else {
      let name = text(inner)
      report(LinkPattern.isName(name) ? .missingType(name: String(name)) : .invalidName(String(name)), at: range.lowerBound)
      return nil
    }
    let name = text(inner.lowerBound..<colon)
    guard LinkPattern.isName(name) else {
      report(.invalidName(String(name)), at: range.lowerBound + 1)
      return nil
    }
    var typeText = text((colon + 1)..<inner.upperBound)
    var requirement = Requirement.required
    if typeText.hasSuffix("?") {
      typeText = typeText.dropLast()
      requirement = .optional
    } else if !typeText.hasPrefix("enum("), let equals = typeText.firstIndex(of: "=") {
      requirement = .defaulted(String(typeText[typeText.index(after: equals)...]))
      typeText = typeText[..<equals]
    } else if typeText.hasPrefix("enum("), let close = typeText.lastIndex(of: ")"), typeText[typeText.index(after: close)...].hasPrefix("=") {
      requirement = .defaulted(String(typeText[typeText.index(close, offsetBy: 2)...]))
      typeText = typeText[...close]
    }
    let type: ParameterType
    switch ParameterType.parse(typeText) {
    case .success(let parsed): type = parsed
    case .failure(let kind):
      report(kind, at: colon + 1)
      return nil
    }
    if case .enumeration(let values) = type, let long = values.first(where: { $0.utf8.count > limits.maximumValueBytes }) {
      report(.literalTooLong(bytes: long.utf8.count, limit: limits.maximumValueBytes), at: colon + 1)
    }
    if case .defaulted(let value) = requirement, !EntryPointPlan.accepts(type, value, urlHosts: urlHosts) {
      report(.invalidDefault(value, type: type), at: colon + 1)
    }
    if let previous = names[String(name)] {
      report(previous.inQuery != inQuery ? .pathAndQuery(String(name)) : .duplicateName(String(name)), at: range.lowerBound + 1)
    } else {
      names[String(name)] = (range.lowerBound, inQuery)
    }
    return (LinkPattern.Parameter(name: String(name), type: type, offset: range.lowerBound), requirement)
  }
}

extension Located where Value == String {
  /// The position of the scalar at `offset` in the string, when the scalar is written on one line as
  /// plain text or quoted without escapes (so columns follow offsets); else the start of the scalar.
  public func range(atOffset offset: Int) -> SourceRange {
    let count = value.unicodeScalars.count
    guard range.start.line == range.end.line, offset >= 0, offset <= count else { return range }
    let width = range.end.column - range.start.column
    let first: Int
    if width == count {
      first = range.start.column
    } else if width == count + 2 {
      first = range.start.column + 1
    } else {
      return range
    }
    let start = SourcePosition(line: range.start.line, column: first + offset)
    return SourceRange(start: start, end: SourcePosition(line: range.start.line, column: min(first + offset + 1, first + count)))
  }
}
