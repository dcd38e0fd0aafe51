/// `--timings` lines: `trackc:    12.345 ms  phase`, like a compiler's time report.
package enum Timings {
  package static func line(_ phase: String, _ duration: Duration) -> String {
    let microseconds = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
    let fraction = String(microseconds % 1000)
    let milliseconds = "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    return "trackc: \(String(repeating: " ", count: max(0, 9 - milliseconds.count)))\(milliseconds) ms  \(phase)\n"
  }
}
