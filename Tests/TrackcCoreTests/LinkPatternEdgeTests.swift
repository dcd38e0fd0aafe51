import Testing
import TrackcLinks

@testable import TrackcCore

/// Link patterns at the edges: as deep as the input likes, and patterns no link can match.
@Suite struct LinkPatternEdgeTests {
  /// Limits that let any pattern parse, so that the overlap analysis meets what lint would refuse first.
  static let unbounded = LinkLimits(maximumBytes: .max / 4, maximumSegments: .max, maximumQueryItems: .max, maximumValueBytes: .max / 4)

  static func links(_ patterns: [String]) throws -> [EntryPointPlan.Link] {
    try patterns.enumerated().map { index, text in
      let parsed = LinkPattern.parse(text, schemes: ["shop"], hosts: ["shop.example.com"], limits: unbounded)
      let pattern = try #require(parsed.pattern, "\(parsed.problems)")
      return EntryPointPlan.Link(route: index, pattern: pattern, written: Located(text, at: SourceRange(at: SourcePosition(line: 1, column: 1))))
    }
  }

  /// The overlap trie holds a pattern of 20,000 segments (and two that share them all): it is one array
  /// walked with a stack of its own, where a tree of objects overflowed the stack when it was freed.
  @Test func theOverlapAnalysisHoldsPatternsOfAnyDepth() throws {
    let deep = (0..<20_000).map { "/s\($0 % 10)" }.joined()
    let withParameters = (0..<20_000).map { $0 % 10 == 9 ? "/{n\($0):slug}" : "/s\($0 % 10)" }.joined()
    let links = try Self.links([deep, "/fine", deep + "/{rest:path}", withParameters])
    let overlaps = LinkOverlap.find(in: links, rules: LinkRules(), schemes: ["shop"], hosts: ["shop.example.com"], urlHosts: [])
    // The deep pattern and its copy with parameters meet; the rest, one segment longer, meets neither.
    #expect(overlaps.map { [$0.earlier, $0.later] } == [[0, 3]])
  }

  /// On a custom scheme a pattern's first segment is the link's host: a pattern of no segment, or whose
  /// first segment is no host name, never meets another there, so an overlap is found (and its example
  /// written) on a universal-link host only. Found by the links fuzz target: `/` and `/?q=…` were said to
  /// overlap at `app://`, a link without a host, which no reader accepts.
  @Test func patternsThatCannotMatchACustomSchemeDoNotOverlapThere() throws {
    let links = try Self.links(["/", "/?q={q:int=1}", "/a_b/{n:int}", "/{x:enum(a_b|c)}/{n:int}"])
    let both = LinkOverlap.find(in: links, rules: LinkRules(), schemes: ["app", "shop"], hosts: ["shop.example.com"], urlHosts: [])
    #expect(both.map(\.example).sorted() == ["https://shop.example.com", "https://shop.example.com/a_b/1"])
    let schemesOnly = LinkOverlap.find(in: links, rules: LinkRules(), schemes: ["app", "shop"], hosts: [], urlHosts: [])
    #expect(schemesOnly.isEmpty)
  }

  /// An enumeration compares its raw values with a custom scheme's host as the app reads it, in lower
  /// case (a literal there folds; an enumeration folds only when paths do): `C` never meets `c` there.
  /// Found by the links fuzz target: `/{t:enum(Y_b|C)}/x` and `/{t:enum(a_b|c)}/x` were said to overlap
  /// at `app://c/x`, which the first does not match.
  @Test func anEnumAtACustomSchemesHostComparesWithTheHostInLowerCase() throws {
    let links = try Self.links(["/{t:enum(Y_b|C)}/x", "/{t:enum(a_b|c)}/x"])
    #expect(LinkOverlap.find(in: links, rules: LinkRules(), schemes: ["app"], hosts: ["shop.example.com"], urlHosts: []).isEmpty)
    let folding = LinkOverlap.find(in: links, rules: LinkRules(pathCase: .insensitive), schemes: ["app"], hosts: [], urlHosts: [])
    #expect(folding.map(\.example) == ["app://c/x"])
  }
}
