import TrackcLinks

/// Two link patterns that some URL matches both of, decided statically and by type: `{id:int}` and
/// `{id:uuid}` never share a value, a literal meets a parameter only if the parameter's type accepts it,
/// `/user/{a:string}` and `/user/{b:string}` share every URL. Each overlap carries an example URL that
/// both match, and says when one pattern is wholly shadowed by the other (every URL it matches, the other
/// matches too).
///
/// Values are compared by `SegmentKind` (every type accepts all of a kind or none of it), so the answer
/// is exact, and the work is a walk of a trie of the patterns: each pattern meets only the patterns that
/// can share its segments, not every other pattern.
public struct LinkOverlap: Sendable {
  /// Indices into `EntryPointPlan.links`, `earlier < later`.
  public let earlier: Int
  public let later: Int
  /// A URL both match.
  public let example: String
  public let shadowing: Shadowing?

  public enum Shadowing: Sendable, Hashable {
    /// Every URL the later pattern matches, the earlier matches too.
    case laterByEarlier
    /// Every URL the earlier pattern matches, the later matches too.
    case earlierByLater
  }

  /// Where a pattern is matched: custom schemes (whose first segment is a host, compared without case)
  /// or web hosts.
  enum OriginClass: CaseIterable {
    case scheme
    case host
  }

  /// What one segment of a pattern accepts.
  enum Accepts: Hashable {
    case literal(String)
    case kinds(SegmentKinds, isURL: Bool)
    case values([String])
    case rest

    init(_ segment: LinkPattern.Segment, fold: Bool) {
      switch segment {
      case .literal(let text): self = .literal(fold ? Self.folded(text) : text)
      case .parameter(let parameter):
        switch parameter.type {
        case .value(.path): self = .rest
        case .value(let type): self = .kinds(type.accepted, isURL: type == .url)
        case .enumeration(let values): self = .values(fold ? values.map(Self.folded) : values)
        }
      }
    }

    init(_ type: ParameterType) {
      switch type {
      case .value(let type): self = .kinds(type.accepted, isURL: type == .url)
      case .enumeration(let values): self = .values(values)
      }
    }

    static func folded(_ text: String) -> String {
      String(String.UnicodeScalarView(text.unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 }))
    }

    /// Whether the value (decoded, folded as the segment folds) is accepted.
    func accepts(_ text: String) -> Bool {
      switch self {
      case .literal(let literal): return literal == text
      case .kinds(let kinds, let isURL): return kinds.contains(SegmentKind.of(text)) && (!isURL || text.hasPrefix("https://"))
      case .values(let values): return values.contains(text)
      case .rest: return LinkValueType.path.accepted.contains(SegmentKind.of(text))
      }
    }

    /// A value both accept, or nil.
    func intersection(_ other: Accepts, urlHost: String) -> String? {
      switch (self, other) {
      case (.literal(let text), _): return other.accepts(text) ? text : nil
      case (_, .literal(let text)): return accepts(text) ? text : nil
      case (.values(let values), _): return values.first(where: other.accepts)
      case (_, .values(let values)): return values.first(where: accepts)
      case (.kinds(let a, let aURL), .kinds(let b, let bURL)):
        let common = a.intersection(b)
        if aURL || bURL { return common.contains(.text) ? "https://\(urlHost)/" : nil }
        return common.kinds.first.map(Self.sample)
      case (.rest, .kinds(let kinds, let isURL)), (.kinds(let kinds, let isURL), .rest):
        if isURL { return "https://\(urlHost)/" }
        return kinds.intersection(LinkValueType.path.accepted).kinds.first.map(Self.sample)
      case (.rest, .rest): return "a"
      }
    }

    /// Whether every value this accepts, `other` accepts too.
    func isSubset(of other: Accepts) -> Bool {
      switch (self, other) {
      case (.literal(let text), _): return other.accepts(text)
      case (.values(let values), _): return values.allSatisfy(other.accepts)
      case (.kinds, .literal), (.kinds, .values), (.rest, .literal), (.rest, .values): return false
      case (.kinds(let a, let aURL), .kinds(let b, let bURL)): return b.isSuperset(of: a) && (aURL || !bURL)
      case (.kinds(let a, _), .rest): return LinkValueType.path.accepted.isSuperset(of: a)
      case (.rest, .kinds): return false
      case (.rest, .rest): return true
      }
    }

    /// A value of each kind, for example URLs.
    static func sample(_ kind: SegmentKind) -> String {
      switch kind {
      case .int: return "1"
      case .int64: return "4294967296"
      case .digits: return "99999999999999999999"
      case .uuid: return "00000000-0000-4000-8000-000000000000"
      case .slug: return "a"
      case .text: return "a.b"
      case .empty, .control: return ""
      }
    }
  }

  // MARK: Finding them

  static func find(in links: [EntryPointPlan.Link], rules: LinkRules, schemes: [String], hosts: [String], urlHosts: [String]) -> [LinkOverlap] {
    let analysis = Analysis(links: links, rules: rules, schemes: schemes, hosts: hosts, urlHost: urlHosts.first ?? hosts.first ?? "example.com")
    var found: [Int64: LinkOverlap] = [:]
    for originClass in OriginClass.allCases {
      let members = links.indices.filter { !analysis.origins(of: $0, in: originClass).isEmpty }
      guard members.count > 1 else { continue }
      var trie = Trie()
      for link in members { trie.insert(link, segments: analysis.accepts[originClass]![link]) }
      for link in members {
        var candidates = Set<Int>()
        trie.candidates(for: analysis.accepts[originClass]![link], into: &candidates)
        for other in candidates where other > link {
          let key = Int64(link) << 32 | Int64(other)
          guard found[key] == nil, let overlap = analysis.overlap(link, other, in: originClass) else { continue }
          found[key] = overlap
        }
      }
    }
    return found.values.sorted { ($0.later, $0.earlier) < ($1.later, $1.earlier) }
  }

  /// The patterns as the analysis reads them, per origin class.
  struct Analysis {
    let links: [EntryPointPlan.Link]
    let rules: LinkRules
    let schemes: [String]
    let hosts: [String]
    let urlHost: String
    /// Each link's segments, folded as the class folds them.
    var accepts: [OriginClass: [[Accepts]]] = [:]
    /// Whether each link can match a custom-scheme link at all: its first segment is that link's host,
    /// so a pattern of no segment, or whose first is a literal that is no host name, never does; an
    /// enumeration there is kept to its values that can be a host as read (folded to lower case): host
    /// names, and unless paths fold, without upper-case letters (an enumeration compares its raw values,
    /// as the generated matcher does, where a literal there folds like the host).
    var matchesSchemes: [Bool] = []

    init(links: [EntryPointPlan.Link], rules: LinkRules, schemes: [String], hosts: [String], urlHost: String) {
      self.links = links
      self.rules = rules
      self.schemes = schemes
      self.hosts = hosts
      self.urlHost = urlHost
      let foldsPath = rules.pathCase == .insensitive
      for originClass in OriginClass.allCases {
        accepts[originClass] = links.map { link in
          link.pattern.segments.enumerated().map { index, segment in
            guard originClass == .scheme && index == 0, case .literal = segment else { return Accepts(segment, fold: foldsPath) }
            return Accepts(segment, fold: true)
          }
        }
      }
      func canBeHost(_ value: String) -> Bool { LinkPattern.isHostName(value) && (foldsPath || Accepts.folded(value) == value) }
      matchesSchemes = accepts[.scheme]!.map { segments in
        switch segments.first {
        case nil: return false
        case .literal(let text)?: return LinkPattern.isHostName(text)
        case .values(let values)?: return values.contains(where: canBeHost)
        default: return true
        }
      }
      for index in links.indices {
        guard case .values(let values)? = accepts[.scheme]![index].first else { continue }
        accepts[.scheme]![index][0] = .values(values.filter(canBeHost))
      }
    }

    func origins(of link: Int, in originClass: OriginClass) -> Set<String> {
      if originClass == .scheme && !matchesSchemes[link] { return [] }
      switch (links[link].pattern.origin, originClass) {
      case (.everywhere, .scheme): return Set(schemes)
      case (.everywhere, .host): return Set(hosts)
      case (.scheme(let scheme), .scheme): return [scheme]
      case (.host(let host), .host): return [host]
      default: return []
      }
    }

    /// The overlap of two links in one origin class, with an example URL; nil when no URL matches both.
    func overlap(_ a: Int, _ b: Int, in originClass: OriginClass) -> LinkOverlap? {
      let common = origins(of: a, in: originClass).intersection(origins(of: b, in: originClass))
      guard let origin = common.min() else { return nil }
      let patternA = links[a].pattern
      let patternB = links[b].pattern
      if rules.trailingSlash == .strict && patternA.trailingSlash != patternB.trailingSlash { return nil }
      guard let segments = sharedSegments(accepts[originClass]![a], accepts[originClass]![b]),
        let query = sharedQuery(patternA.query, patternB.query)
      else { return nil }
      var example = originClass == .scheme ? origin + "://" : "https://" + origin + (segments.isEmpty ? "" : "/")
      example += segments.map(LinkEncoding.segment).joined(separator: "/")
      if patternA.trailingSlash && rules.trailingSlash == .strict { example += "/" }
      if !query.isEmpty {
        example += "?" + query.map { LinkEncoding.percentEncoded($0.key) + "=" + LinkEncoding.percentEncoded($0.value) }.joined(separator: "&")
      }
      var shadowing: Shadowing?
      if isSubset(b, of: a) {
        shadowing = .laterByEarlier
      } else if isSubset(a, of: b) {
        shadowing = .earlierByLater
      }
      return LinkOverlap(earlier: a, later: b, example: example, shadowing: shadowing)
    }

    /// Decoded segments of a URL both match, or nil.
    func sharedSegments(_ a: [Accepts], _ b: [Accepts]) -> [String]? {
      let restA = a.firstIndex(of: .rest)
      let restB = b.firstIndex(of: .rest)
      var result: [String] = []
      switch (restA, restB) {
      case (nil, nil):
        guard a.count == b.count else { return nil }
        for (x, y) in zip(a, b) {
          guard let value = x.intersection(y, urlHost: urlHost) else { return nil }
          result.append(value)
        }
      case (let rest?, nil), (nil, let rest?):
        let (withRest, fixed) = restA != nil ? (a, b) : (b, a)
        guard fixed.count >= rest + 1 else { return nil }
        for index in fixed.indices {
          guard let value = (index < rest ? withRest[index] : .rest).intersection(fixed[index], urlHost: urlHost) else { return nil }
          result.append(value)
        }
      case (let x?, let y?):
        for index in 0..<max(x, y) {
          let left = index < x ? a[index] : .rest
          let right = index < y ? b[index] : .rest
          guard let value = left.intersection(right, urlHost: urlHost) else { return nil }
          result.append(value)
        }
        result.append("a")
      }
      return result
    }

    /// Query items of a URL both match (key and decoded value), or nil. A key both declare needs a value
    /// both accept unless both may go without it; a key one requires needs a value it accepts.
    func sharedQuery(_ a: [LinkPattern.QueryItem], _ b: [LinkPattern.QueryItem]) -> [(key: String, value: String)]? {
      var result: [(key: String, value: String)] = []
      for item in a {
        if let other = b.first(where: { $0.key == item.key }) {
          if item.requirement.mayBeAbsent && other.requirement.mayBeAbsent { continue }
          guard let value = Accepts(item.parameter.type).intersection(Accepts(other.parameter.type), urlHost: urlHost) else { return nil }
          result.append((item.key, value))
        } else if item.requirement == .required {
          guard let value = Accepts(item.parameter.type).intersection(Accepts(item.parameter.type), urlHost: urlHost) else { return nil }
          result.append((item.key, value))
        }
      }
      for item in b where item.requirement == .required && !a.contains(where: { $0.key == item.key }) {
        guard let value = Accepts(item.parameter.type).intersection(Accepts(item.parameter.type), urlHost: urlHost) else { return nil }
        result.append((item.key, value))
      }
      return result
    }

    /// Whether every URL link `inner` matches, `outer` matches too (in every origin class).
    func isSubset(_ inner: Int, of outer: Int) -> Bool {
      let innerPattern = links[inner].pattern
      let outerPattern = links[outer].pattern
      for originClass in OriginClass.allCases {
        let innerOrigins = origins(of: inner, in: originClass)
        guard !innerOrigins.isEmpty else { continue }
        guard innerOrigins.isSubset(of: origins(of: outer, in: originClass)) else { return false }
        guard segmentsAreSubset(accepts[originClass]![inner], of: accepts[originClass]![outer]) else { return false }
      }
      if rules.trailingSlash == .strict && innerPattern.trailingSlash != outerPattern.trailingSlash { return false }
      for item in outerPattern.query {
        guard let mine = innerPattern.query.first(where: { $0.key == item.key }) else { return false }
        if item.requirement == .required && mine.requirement != .required { return false }
        guard Accepts(mine.parameter.type).isSubset(of: Accepts(item.parameter.type)) else { return false }
      }
      return true
    }

    func segmentsAreSubset(_ inner: [Accepts], of outer: [Accepts]) -> Bool {
      if let rest = outer.firstIndex(of: .rest) {
        guard inner.count >= rest + 1 else { return false }
        if let innerRest = inner.firstIndex(of: .rest), innerRest < rest { return false }
        return inner.indices.allSatisfy { index in inner[index].isSubset(of: index < rest ? outer[index] : .rest) }
      }
      guard inner.count == outer.count, !inner.contains(.rest) else { return false }
      return zip(inner, outer).allSatisfy { $0.isSubset(of: $1) }
    }
  }

  /// The patterns of one origin class as a trie of segments: a pattern meets only those that can
  /// share each of its segments.
  ///
  /// The nodes live in one array and name their children by index, and every walk keeps its own stack:
  /// a pattern's depth is the config's to choose, so nothing here recurses on it (a tree of class
  /// instances is also freed recursively, which overflowed the stack at about 20,000 segments).
  struct Trie {
    struct Node {
      var literals: [String: Int] = [:]
      var literalsByKind: [SegmentKind: [Int]] = [:]
      var parameters: [(accepts: Accepts, node: Int)] = []
      /// Patterns that end here, and patterns whose `{rest:path}` starts here.
      var ends: [Int] = []
      var rests: [Int] = []
    }

    private(set) var nodes = [Node()]

    mutating func insert(_ link: Int, segments: [Accepts]) {
      var node = 0
      for segment in segments {
        switch segment {
        case .rest:
          nodes[node].rests.append(link)
          return
        case .literal(let text):
          if let child = nodes[node].literals[text] {
            node = child
          } else {
            let child = nodes.count
            nodes.append(Node())
            nodes[node].literals[text] = child
            nodes[node].literalsByKind[SegmentKind.of(text), default: []].append(child)
            node = child
          }
        case .kinds, .values:
          if let existing = nodes[node].parameters.first(where: { $0.accepts == segment }) {
            node = existing.node
          } else {
            let child = nodes.count
            nodes.append(Node())
            nodes[node].parameters.append((segment, child))
            node = child
          }
        }
      }
      nodes[node].ends.append(link)
    }

    /// Every pattern that can share each of `segments` (a superset of the overlaps, checked after).
    func candidates(for segments: [Accepts], into found: inout Set<Int>) {
      var stack: [(node: Int, depth: Int)] = [(0, 0)]
      while let (index, depth) = stack.popLast() {
        let node = nodes[index]
        // A rest that starts here takes whatever is left, if anything is.
        guard depth < segments.count else {
          found.formUnion(node.ends)
          continue
        }
        found.formUnion(node.rests)
        let segment = segments[depth]
        switch segment {
        case .rest:
          // Every pattern below this node (not those ending here: they have too few segments).
          collectAll(below: index, into: &found)
          continue
        case .literal(let text):
          if let child = node.literals[text] { stack.append((child, depth + 1)) }
        case .values(let values):
          for value in values { if let child = node.literals[value] { stack.append((child, depth + 1)) } }
        case .kinds(let kinds, _):
          for kind in kinds.kinds { for child in node.literalsByKind[kind] ?? [] { stack.append((child, depth + 1)) } }
        }
        for parameter in node.parameters where parameter.accepts.intersection(segment, urlHost: "example.com") != nil {
          stack.append((parameter.node, depth + 1))
        }
      }
    }

    /// Every pattern that ends or rests below `index` (its children and their descendants).
    private func collectAll(below index: Int, into found: inout Set<Int>) {
      var stack = Array(nodes[index].literals.values) + nodes[index].parameters.map(\.node)
      while let next = stack.popLast() {
        let node = nodes[next]
        found.formUnion(node.ends)
        found.formUnion(node.rests)
        stack += node.literals.values
        stack += node.parameters.map(\.node)
      }
    }
  }
}
