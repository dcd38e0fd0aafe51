import Foundation
import Testing
import TrackcLinks
@_spi(Generated) import TrackcRuntime
import TrackcTestSupport

/// The rules by which links are read (docs/entry-points.md, "Hostile links"), one test each: what a
/// link is split into, what it decodes to, and every way it is refused. The generated matcher reads only
/// what `ParsedLink` gives it, so a link these rules refuse or leave unmatched can never open a screen.
@Suite struct HostileLinkTests {
  let rules = LinkRules()

  func parse(_ link: String, _ rules: LinkRules = LinkRules()) -> ParsedLink? {
    try? ParsedLink.parse(link, rules: rules).get()
  }

  func rejection(_ link: String, _ rules: LinkRules = LinkRules()) -> LinkRejection? {
    if case .failure(let rejection) = ParsedLink.parse(link, rules: rules) { return rejection }
    return nil
  }

  func segments(_ link: String, _ rules: LinkRules = LinkRules()) -> [String]? {
    parse(link, rules).map { $0.texts(fromSegment: 0) }
  }

  // MARK: 1. Bounds before parsing

  @Test func boundsAreCheckedBeforeAnythingIsDecoded() {
    // Over the length limit, whatever it holds.
    #expect(rejection("shop://a/" + String(repeating: "%", count: 5000)) == .tooLong)
    #expect(rejection("shop://a/" + String(repeating: "%41", count: 5000)) == .tooLong)
    // The bounds measure the decoded link: 4,000 escapes are 4,000 bytes, whatever their text's length;
    // the fragment is never read.
    #expect(parse("shop://a/" + Array(repeating: String(repeating: "%41", count: 1000), count: 4).joined(separator: "/")) != nil)
    #expect(parse("shop://a/" + String(repeating: "%41", count: 1024)) != nil)
    #expect(parse("shop://a/b#" + String(repeating: "x", count: 100_000)) != nil)
    #expect(rejection("shop://a/" + String(repeating: "b/", count: 40)) == .tooManySegments)
    #expect(rejection("shop://a?" + (0..<70).map { "k\($0)=v" }.joined(separator: "&")) == .tooManyQueryItems)
    #expect(rejection("shop://a/" + String(repeating: "x", count: 1100)) == .valueTooLong)
    #expect(rejection("shop://a?q=" + String(repeating: "x", count: 1100)) == .valueTooLong)
    // Just inside every bound.
    let limits = LinkLimits()
    #expect(parse("shop://a/" + Array(repeating: "b", count: limits.maximumSegments - 1).joined(separator: "/")) != nil)
    #expect(parse("shop://a/" + String(repeating: "x", count: limits.maximumValueBytes)) != nil)
  }

  @Test func tighterLimitsAreHonoured() {
    let tight = LinkRules(limits: LinkLimits(maximumBytes: 20, maximumSegments: 2, maximumQueryItems: 1, maximumValueBytes: 4))
    #expect(rejection("shop://a/bbbbbbbbbbbbbbbbbbbb", tight) == .tooLong)
    #expect(rejection("shop://a/b/c", tight) == .tooManySegments)
    #expect(rejection("shop://a?x=1&y=2", tight) == .tooManyQueryItems)
    #expect(rejection("shop://a/bbbbb", tight) == .valueTooLong)
  }

  // MARK: 2. Split before decoding

  @Test func theEncodedPathIsSplitBeforeEachSegmentIsDecoded() {
    // %2F stays inside its segment: it is never a separator.
    #expect(segments("https://h.example/files/a%2Fb/c") == ["files", "a/b", "c"])
    #expect(segments("shop://files/%2F%2F") == ["files", "//"])
    // Empty segments are kept (never collapsed), so `//` cannot make two paths one.
    #expect(segments("https://h.example/a//b") == ["a", "", "b"])
  }

  // MARK: 3. + is a space only in the query

  @Test func plusIsASpaceOnlyInTheQuery() throws {
    let link = try #require(parse("https://h.example/a+b?q=c+d&r=e%2Bf"))
    #expect(link.texts(fromSegment: 0) == ["a+b"])
    #expect(link.text(ofQueryItem: 0) == "c d")
    #expect(link.text(ofQueryItem: 1) == "e+f")
  }

  // MARK: 4. Case

  @Test func schemeAndHostFoldButThePathKeepsItsCaseByDefault() throws {
    let link = try #require(parse("HTTPS://Shop.EXAMPLE.com/Product/AbC"))
    #expect(link.schemeText == "https")
    #expect(link.hostText == "shop.example.com")
    #expect(link.originIs("shop.example.com"))
    #expect(link.texts(fromSegment: 0) == ["Product", "AbC"])
    #expect(!link.segment(0, is: "product"))
    // A custom scheme's host is its first segment, folded like any host.
    #expect(try #require(parse("SHOP://Cart")).segment(0, is: "cart"))
  }

  @Test func pathCaseInsensitiveFoldsASCIILettersOfLiterals() throws {
    let folding = LinkRules(pathCase: .insensitive)
    let link = try #require(parse("https://h.example/PRODUCT", folding))
    #expect(link.segment(0, is: "product"))
    #expect(link.segments[0].hash == LinkHash.hash("product"))
    // Values keep what was written.
    #expect(link.text(ofSegment: 0) == "PRODUCT")
  }

  @Test func hostsAreASCIIAnIDNHostArrivesInItsPunycodeForm() {
    // `Route(link:)` reads such a host in the form Foundation's `URL` gives it (`GeneratedRouteTests`).
    #expect(rejection("https://bücher.example/a") == .invalidHost)
    #expect(parse("https://xn--bcher-kva.example/a")?.hostText == "xn--bcher-kva.example")
    #expect(rejection("https://user@h.example/a") == .userInfo)
    #expect(rejection("https://h.example:443/a") == .port)
    #expect(rejection("https://h_x.example/a") == .invalidHost)
  }

  // MARK: 5. Trailing slash

  @Test func aTrailingSlashIsNotedNeverASegment() throws {
    let link = try #require(parse("https://h.example/cart/"))
    #expect(link.texts(fromSegment: 0) == ["cart"])
    #expect(link.hasTrailingSlash)
    #expect(link.trailingSlash(true))
    #expect(try #require(parse("https://h.example/cart")).trailingSlash(false))
    // `/` alone is the root, with no trailing slash.
    #expect(try #require(parse("https://h.example/")).segments.isEmpty)
    // After a custom scheme's host, its first segment, a lone `/` trails that segment (found by the
    // links fuzz target: `shop://cart/` read as `shop://cart`, so that `shop://cart/` of a strict plan
    // matched nothing).
    let cart = try #require(parse("shop://cart/"))
    #expect(cart.texts(fromSegment: 0) == ["cart"])
    #expect(cart.hasTrailingSlash)
    #expect(try #require(parse("shop://cart")).hasTrailingSlash == false)
    #expect(segments("shop://cart//") == ["cart", ""])
  }

  // MARK: 6. `..` is text

  @Test func dotSegmentsAreLiteralTextNeverResolved() {
    #expect(segments("https://h.example/a/../b") == ["a", "..", "b"])
    #expect(segments("https://h.example/a/%2E%2E/b") == ["a", "..", "b"])
    #expect(segments("https://h.example/./a") == [".", "a"])
    #expect(LinkEncoding.segment("..") == "%2E%2E")
  }

  // MARK: 7. NUL, control characters, invalid UTF-8; what Foundation repairs

  @Test(arguments: [
    ("https://h.example/%00", LinkRejection.nul), ("https://h.example/a?q=%00", .nul), ("https://h.example/a\u{0}", .nul),
    // A lone continuation byte, a byte that never starts UTF-8, an overlong `.`, a surrogate, past U+10FFFF, truncated.
    ("https://h.example/%80", .invalidUTF8), ("https://h.example/%FF", .invalidUTF8), ("https://h.example/%C0%AE", .invalidUTF8),
    ("https://h.example/%ED%A0%80", .invalidUTF8), ("https://h.example/%F4%90%80%80", .invalidUTF8), ("https://h.example/%E2%82", .invalidUTF8),
    // Control characters and DEL, raw or escaped (C1 too).
    ("https://h.example/a\u{7F}", .controlCharacter), ("https://h.example/a\n", .controlCharacter), ("https://h.example/a%0Ab", .controlCharacter),
    ("https://h.example/a?q=%7F", .controlCharacter), ("https://h.example/a%C2%85", .controlCharacter),
    ("https://h.example/a\u{85}", .controlCharacter),
    ("no scheme", .noScheme), ("/relative", .noScheme), ("1shop://a", .noScheme),
    // No host: `shop:cart` is not `shop://cart`.
    ("shop:cart", .missingHost), ("shop:/cart", .missingHost), ("shop:///cart", .missingHost), ("https:/h.example/a", .missingHost),
    ("https://", .missingHost), ("https://?q=1", .missingHost),
    // An IDN host is read in its ASCII form only (`Route(link:)` asks Foundation for it).
    ("https://bücher.example/a", .invalidHost),
  ])
  func brokenLinksAreRefusedWithTheirReason(link: String, expected: LinkRejection) {
    #expect(rejection(link) == expected)
  }

  /// What `URL(string:)` escapes rather than refuses (a `%` that begins no escape, a raw space) reads as
  /// Foundation then has it: the same segment whether the app holds the text or the `URL`.
  @Test(arguments: [
    ("https://h.example/%", "%"), ("https://h.example/%2", "%2"), ("https://h.example/%GG", "%GG"), ("https://h.example/a b", "a b"),
    ("https://h.example/100%25", "100%"), ("https://h.example/%zz%4", "%zz%4"),
  ])
  func whatFoundationRepairsReadsAsTheRepairedLink(link: String, segment: String) throws {
    #expect(segments(link) == [segment])
    let url = try #require(URL(string: link))
    #expect(segments(url.absoluteString) == [segment], "\(url.absoluteString)")
  }

  /// One reading of a link, as text or as Foundation's `URL`: for every text `URL(string:)` accepts, the
  /// two read the same segments, query and origin, or are refused for the same reason (random links
  /// around the syntax, Foundation's repairs, the bounds and non-ASCII hosts included). About a second:
  /// Foundation's parser, in a debug build, on 8,000 links.
  @Test func aLinkReadsTheSameAsTextAndAsFoundationsURL() throws {
    var generator = SeededRandom(seed: SeededRandom.baseSeed)
    let alphabet = Array("aZ/%?&=+.#:@ 2FfC0AE-_~[]\"<>\\^`{|}\u{0}\u{1}\u{7F}\u{85}é😀\u{202E}\t".unicodeScalars)
    let starts = ["https://h.example/", "shop://p/", "SHOP://P", "https://h.example?", "shop://p?q=", "https://bücher.example/", "shop://"]
    var compared = 0
    for round in 0..<8_000 {
      var text = starts[round % starts.count]
      let length = round % 50 == 0 ? Int.random(in: 1000..<5000, using: &generator) : Int.random(in: 0..<40, using: &generator)
      for _ in 0..<length { text.unicodeScalars.append(alphabet.randomElement(using: &generator)!) }
      guard let url = URL(string: text) else { continue }
      compared += 1
      #expect(Reading(text) == Reading(url.absoluteString), "\(text.debugDescription) as \(url.absoluteString.debugDescription)")
    }
    #expect(compared > 4_000)
  }

  /// What a reading gives, to compare two: the refusal, or the parts.
  struct Reading: Equatable, CustomStringConvertible {
    var rejection: LinkRejection?
    var parts: [String] = []

    init(_ given: String) {
      var text = given
      if case .failure(.invalidHost) = ParsedLink.parse(text, rules: LinkRules()), text.utf8.contains(where: { $0 >= 0x80 }) {
        // What `Route(link:)` does with a host that is not ASCII: Foundation's IDNA form.
        text = URL(string: text)?.absoluteString ?? text
      }
      switch ParsedLink.parse(text, rules: LinkRules()) {
      case .failure(let refusal): rejection = refusal
      case .success(let link):
        parts =
          [link.schemeText, link.hostText ?? "-", link.hasTrailingSlash ? "/" : ""] + link.texts(fromSegment: 0)
          + link.query.indices.map {
            "?" + String(decoding: link.bytes[link.query[$0].nameStart..<link.query[$0].nameEnd], as: UTF8.self) + "=" + link.text(ofQueryItem: $0)
          }
      }
    }

    var description: String { rejection.map { "\($0)" } ?? parts.description }
  }

  @Test func validEscapesDecodeToUTF8() {
    #expect(segments("https://h.example/caf%C3%A9/%F0%9F%98%80") == ["café", "😀"])
    #expect(segments("https://h.example/café") == ["café"])
  }

  /// Foundation's `URL.path` on Linux turns `%FF` into an empty path, which a naive router sends to the
  /// root screen; reading the URL's text instead, the link is refused and counted.
  @Test func aURLWhosePathFoundationEmptiesIsRefusedNotRoutedToTheRoot() throws {
    let url = try #require(URL(string: "https://h.example/%FF"))
    #expect(rejection(url.absoluteString) == .invalidUTF8)
  }

  // MARK: 8. Query

  @Test func aDeclaredParameterRepeatedIsNoMatchNeverAGuess() throws {
    let link = try #require(parse("https://h.example/a?id=1&id=2&other=x"))
    #expect(link.query(named: "id") == .repeated)
    #expect(link.query("id", as: .int) == nil)
    #expect(link.optionalQuery("id", as: .int) == .none)
    #expect(link.query(named: "missing") == .absent)
    #expect(link.optionalQuery("missing", as: .int) == .some(nil))
    #expect(link.query("missing", as: .int, defaultText: "3") == 3)
  }

  @Test func theFragmentIsIgnored() {
    #expect(segments("https://h.example/a#/b/c") == ["a"])
    #expect(parse("https://h.example/a?q=1#x")?.text(ofQueryItem: 0) == "1")
  }

  // MARK: 9. Values by type

  @Test func numbersFitOrDoNotMatch() {
    let link = parse("https://h.example/9223372036854775807/9223372036854775808/-1/007")!
    #expect(link.segment(0, as: .int64) == Int64.max)
    #expect(link.segment(1, as: .int64) == nil)
    #expect(link.segment(1, as: .string) == "9223372036854775808")
    #expect(link.segment(2, as: .int) == nil)
    #expect(link.segment(3, as: .int) == 7)
    #expect(link.segments[1].kind == .digits)
  }

  @Test func uuidsAreCanonicalOnly() {
    let link = parse(
      "https://h.example/6ba7b810-9dad-11d1-80b4-00c04fd430c8/6ba7b8109dad11d180b400c04fd430c8/{6ba7b810-9dad-11d1-80b4-00c04fd430c8}")!
    #expect(link.segment(0, as: .uuid) != nil)
    #expect(link.segment(1, as: .uuid) == nil)
    #expect(link.segment(2, as: .uuid) == nil)
  }

  // MARK: 10. Never a crash, never unbounded

  /// Random bytes around the link's syntax: every input is refused or read, nothing traps, and what is
  /// read decodes again to the same segments when printed back. The law holds trivially for a refused
  /// link, so a good share of the inputs must be read. Seeded (`TRACKC_PROPERTY_SEED` picks another).
  @Test func randomLinksAreRefusedOrReadAndPrintBackToTheSameSegments() {
    let seed = SeededRandom.baseSeed
    var generator = SeededRandom(seed: seed)
    let alphabet = Array("ab/%?&=+.#:@ 2FfC0AE\u{0}\u{7F}é".unicodeScalars)
    var read = 0
    for _ in 0..<5000 {
      var text = "https://h.example/"
      for _ in 0..<Int.random(in: 0..<40, using: &generator) { text.unicodeScalars.append(alphabet.randomElement(using: &generator)!) }
      guard let link = parse(text) else { continue }
      read += 1
      let segments = link.texts(fromSegment: 0)
      let printed = LinkPrinter.text(start: "https://h.example", hostFirst: false, path: [.rest(segments)], query: [], trailingSlash: false)
      #expect(parse(printed)?.texts(fromSegment: 0) == segments, "\(text) -> \(printed); seed \(seed)")
    }
    // About 780 of them with the base seed.
    #expect(read >= 500, "\(read) of 5,000 links read; seed \(seed)")
  }
}
