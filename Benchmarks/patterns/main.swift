// The event ID matchers side by side, per ID: the default pattern's fast path (`DefaultEventIDPattern`),
// the linear-time matcher (`LinearRegex`) and Swift's `Regex` (Unicode-scalar semantics, as trackc used
// it), on the IDs of Benchmarks/lint's generated config; then the cases `Regex` cannot finish, for the
// linear matcher alone. Built by bench.sh from TrackcCore's own files with `swiftc -O`.
import Foundation

let rounds = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 15

/// The 105,000 event IDs of Benchmarks/lint/generate_config.py's default config (5,000 x 20 + pages).
func generatedIDs() -> [String] {
  let nouns = ["Fav", "Share", "Buy", "Filter", "Sort", "AddToCart", "Card", "Banner", "Search", "Avatar"]
  var ids: [String] = []
  for screen in 0..<5_000 {
    let tag = "S" + String(repeating: "0", count: 5 - String(screen).count) + String(screen)
    ids.append("PAGE_\(tag)_ENTER")
    ids.append("PAGE_\(tag)_LEAVE")
    for handler in 0..<20 { ids.append("CTRL_\(tag)_\(nouns[handler % nouns.count].uppercased())_\(handler)") }
  }
  return ids
}

final class RegexBox: @unchecked Sendable {
  let regex: Regex<AnyRegexOutput>
  init(_ pattern: String) { regex = try! Regex(pattern).matchingSemantics(.unicodeScalar) }
  func matches(_ id: String) -> Bool { (try? regex.firstMatch(in: id)) != nil }
}

/// Median nanoseconds per ID of each matcher, timed in alternating rounds (the machine is shared).
func compare(_ label: String, ids: [String], _ matchers: [(String, (String) -> Bool)]) {
  var samples = [[Double]](repeating: [], count: matchers.count)
  var counts = [Int](repeating: 0, count: matchers.count)
  for _ in 0..<rounds {
    for (index, (_, matches)) in matchers.enumerated() {
      let clock = ContinuousClock()
      var count = 0
      let elapsed = clock.measure { for id in ids where matches(id) { count += 1 } }
      counts[index] = count
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      samples[index].append(seconds * 1e9 / Double(ids.count))
    }
  }
  print("\n\(label): \(ids.count) IDs, \(rounds) rounds, median (min) ns per ID")
  for (index, (name, _)) in matchers.enumerated() {
    let sorted = samples[index].sorted()
    print(
      "  \(name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(String(format: "%8.1f", sorted[sorted.count / 2])) (\(String(format: "%.1f", sorted[0])))   \(counts[index]) matched"
    )
  }
  if Set(counts).count > 1 { print("  !! the matchers disagree") }
}

let ids = generatedIDs()
let custom = ["^[A-Z][A-Z0-9_]+$", "^(PAGE|CTRL)_[A-Z0-9_]+$", "^[A-Z]+(_[A-Z0-9]+)*$", "_[0-9]+$", "^(page|ctrl)\\.[a-z_]+\\.[a-z_]+$"]
let defaultPattern = try! LinearRegex.compile("^[A-Z][A-Z0-9_]*$")
let defaultRegex = RegexBox("^[A-Z][A-Z0-9_]*$")
compare(
  "default pattern ^[A-Z][A-Z0-9_]*$", ids: ids,
  [
    ("fast path", DefaultEventIDPattern.matches), ("linear matcher", defaultPattern.matches), ("Regex", defaultRegex.matches),
  ])
for pattern in custom {
  let linear = try! LinearRegex.compile(pattern)
  let regex = RegexBox(pattern)
  compare(pattern, ids: ids, [("linear matcher", linear.matches), ("Regex", regex.matches)])
}

/// Seconds for one match, for the cases only the linear matcher finishes.
func time(_ pattern: String, _ id: String, maxDFAStates: Int = RegexDFA.maxStates) {
  let clock = ContinuousClock()
  var compiled: LinearRegex? = nil
  let compile = clock.measure { compiled = try! LinearRegex.compile(pattern, maxDFAStates: maxDFAStates) }
  var result = false
  let match = clock.measure { result = compiled!.matches(id) }
  let scalars = id.unicodeScalars.count
  let seconds = Double(match.components.seconds) + Double(match.components.attoseconds) / 1e18
  print(
    "  \(pattern.count > 40 ? String(pattern.prefix(37)) + "..." : pattern) on \(scalars) scalars\(maxDFAStates == 1 ? " (NFA only)" : ""): \(result), compile \(compile), match \(match) (\(String(format: "%.1f", seconds * 1e9 / Double(scalars))) ns per scalar)"
  )
}
print("\nadversarial (Regex would take minutes to forever):")
let long = String(repeating: "a", count: 1_000_000)
time("^(a|a)*$", long + "b")
time("(a*)*b", long)
time("(a+)+$", long + "b")
time("(.*a){20}", String(repeating: "a", count: 19) + String(repeating: "b", count: 1_000_000))
time("(a|b)*a(a|b){20}", String((0..<1_000_000).map { $0 % 7 == 0 ? "a" : "b" }))
time("^[a-z]{1,1000}$", String(repeating: "a", count: 1_000) + "!")
time("(a?){1000}a{1000}b", long)
time("([a-z]|x?){1000}!", String(repeating: "x", count: 100_000))
time("(a?){1000}a{1000}b", long, maxDFAStates: 1)
time("^(a|a)*$", String(repeating: "é", count: 1_000_000))
