import Foundation
import Routes100
import Routes1000
import Routes10000
import TrackcLinks
import TrackcRuntime

// Per size: the median time to read one URL (percent-decoding included) into a route, over 1,000 URLs
// (1 in 10 matching nothing), by the generated matcher, from a `URL` (`Route(url:)`, its text read
// with `absoluteString`) and from text (`Route(link:)`); the same URLs through a linear scan of the
// patterns (each tried in turn on the decoded segments); through a loop over one regular expression per
// pattern on the URL's path, as URLNavigator and DeepLinkKit do; and `ParsedLink.parse` alone, the floor
// every reader pays. Medians of rounds; the machine is shared, read the ratios.

let work = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "work"
let rounds = 15

func lines(_ name: String) -> [String] {
  (try! String(contentsOfFile: work + "/" + name, encoding: .utf8)).split(separator: "\n").map(String.init)
}

@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// Nanoseconds per item: the median over rounds of one pass over `items`.
func measure<Item>(_ items: [Item], rounds: Int, _ body: (Item) -> Bool) -> (median: Double, matched: Int) {
  var times: [Double] = []
  var matched = 0
  for _ in 0..<rounds {
    matched = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for item in items where body(item) { matched += 1 }
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(items.count))
  }
  return (times.sorted()[times.count / 2], matched)
}

// MARK: The linear scan

enum Piece {
  case literal([UInt8])
  case kinds(SegmentKinds)
  case rest
}

func pieces(_ pattern: String) -> [Piece] {
  let path = pattern.split(separator: "?", maxSplits: 1)[0]
  return path.split(separator: "/").map { segment in
    guard segment.hasPrefix("{") else { return .literal(Array(segment.utf8)) }
    let type = segment.dropFirst().dropLast().split(separator: ":")[1]
    switch type {
    case "int": return .kinds(LinkValueType.int.accepted)
    case "uuid": return .kinds(LinkValueType.uuid.accepted)
    case "path": return .rest
    default: return .kinds(LinkValueType.string.accepted)
    }
  }
}

func linearMatch(_ link: ParsedLink, _ patterns: [[Piece]]) -> Int? {
  patterns: for (index, pattern) in patterns.enumerated() {
    for (position, piece) in pattern.enumerated() {
      switch piece {
      case .rest:
        if position < link.segments.count { return index }
        continue patterns
      case .literal(let bytes):
        guard position < link.segments.count else { continue patterns }
        let segment = link.segments[position]
        guard link.bytes[segment.start..<segment.end].elementsEqual(bytes) else { continue patterns }
      case .kinds(let kinds):
        guard position < link.segments.count, kinds.contains(link.segments[position].kind) else { continue patterns }
      }
    }
    if pattern.count == link.segments.count { return index }
  }
  return nil
}

// MARK: The regular expressions

func regex(_ pattern: String) -> NSRegularExpression {
  let path = pattern.split(separator: "?", maxSplits: 1)[0]
  let parts = path.split(separator: "/").map { segment -> String in
    guard segment.hasPrefix("{") else { return NSRegularExpression.escapedPattern(for: String(segment)) }
    switch segment.dropFirst().dropLast().split(separator: ":")[1] {
    case "int": return "([0-9]+)"
    case "uuid": return "([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
    case "path": return "(.+)"
    default: return "([^/]+)"
    }
  }
  return try! NSRegularExpression(pattern: "^/" + parts.joined(separator: "/") + "/?$")
}

func regexMatch(_ url: String, _ expressions: [NSRegularExpression]) -> Int? {
  guard let path = URLComponents(string: url)?.percentEncodedPath else { return nil }
  let range = NSRange(path.startIndex..., in: path)
  for (index, expression) in expressions.enumerated() {
    guard let match = expression.firstMatch(in: path, range: range) else { continue }
    // The values, decoded, as the routers hand them over.
    for group in 1..<match.numberOfRanges {
      if let captured = Range(match.range(at: group), in: path) { blackHole(path[captured].removingPercentEncoding) }
    }
    return index
  }
  return nil
}

// MARK: Running

struct Size {
  let count: Int
  let parse: (String) -> Bool
  /// `Route(url:)`: what an app delegate calls with the `URL` the system gives it (made beforehand here).
  let parseURL: (URL) -> Bool
}

let sizes = [
  Size(count: 100, parse: { Routes100.Route(link: $0) != nil }, parseURL: { Routes100.Route(url: $0) != nil }),
  Size(count: 1000, parse: { Routes1000.Route(link: $0) != nil }, parseURL: { Routes1000.Route(url: $0) != nil }),
  Size(count: 10000, parse: { Routes10000.Route(link: $0) != nil }, parseURL: { Routes10000.Route(url: $0) != nil }),
]

print(
  "patterns  Route(url:) (ns/URL)  Route(link:) (ns/URL)  ParsedLink.parse (ns/URL)  linear scan (ns/URL)  regex loop (ns/URL)  matched")
var generated: [Int: Double] = [:]
for size in sizes {
  let urls = lines("urls-\(size.count).txt")
  let patterns = lines("patterns-\(size.count).txt")
  let route = measure(urls, rounds: rounds, size.parse)
  let urlObjects = urls.map { URL(string: $0)! }
  let routeOfURL = measure(urlObjects, rounds: rounds, size.parseURL)
  let floor = measure(urls, rounds: rounds) { (try? ParsedLink.parse($0, rules: LinkRules()).get()) != nil }
  let scanPatterns = patterns.map(pieces)
  let scan = measure(urls, rounds: rounds) { url in
    guard case .success(let link) = ParsedLink.parse(url, rules: LinkRules()) else { return false }
    return linearMatch(link, scanPatterns) != nil
  }
  let expressions = patterns.map(regex)
  // The regular expressions are slow enough that fewer URLs and rounds tell the story.
  let regexURLs = Array(urls.prefix(max(20, 100_000 / size.count)))
  let loop = measure(regexURLs, rounds: 3) { regexMatch($0, expressions) != nil }
  generated[size.count] = route.median
  print(
    String(size.count).padding(toLength: 10, withPad: " ", startingAt: 0)
      + String(format: "%-22.0f%-23.0f%-27.0f%-22.0f%-21.0f", routeOfURL.median, route.median, floor.median, scan.median, loop.median)
      + "\(route.matched)/\(urls.count) (URL \(routeOfURL.matched), scan \(scan.matched), regex \(loop.matched)/\(regexURLs.count))")
}
if let small = generated[100], let large = generated[10000] {
  print(String(format: "growth of the generated matcher from 100 to 10,000 patterns: %.2fx", large / small))
}
