import Foundation
import ShopApp
import Synchronization
import TrackcCollector
import TrackcCore
import TrackcRuntime

// Runs the scripted visit as the app ships: the generated interceptors emit the events, the journal keeps
// them, and the collector destination uploads them to a collector, here `trackc collector`'s server started on
// 127.0.0.1 with the example's own tracking plan. The collector prints each event as it arrives, with
// any violation of the plan. The feature code has no tracking calls.
let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("tracking.yaml")
let plan = try CollectorPlan(lintResult: Linter.lint(try ConfigSource.read(path: config.path)))
var settings = CollectorConfiguration()
settings.plan = plan
// The collector's lines are kept until their step is printed: uploads may finish before the step's
// callback runs.
let arrived = Mutex<[String]>([])
settings.observer = { records in
  arrived.withLock { lines in
    for record in records { lines += record.textLines.map { "    collector: " + $0 } }
  }
}
func printArrived() {
  for line in arrived.withLock({ lines in
    defer { lines.removeAll() }
    return lines
  }) { print(line) }
}
let collector = try await Collector.start(settings)
print("collector listening on \(collector.baseURL.absoluteString)")

let journal = FileManager.default.temporaryDirectory.appendingPathComponent("shop-session-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: journal) }
// The app's launch: `ShopApp.start`, here with the local collector and a journal folder of its own.
let tracker = try ShopApp.start(collector: collector.baseURL) { $0.journal = .directory(journal) }
print(
  "anonymous ID \(tracker.identity.anonymousID); app \(tracker.currentContext.app.name ?? "?"), \(tracker.currentContext.os.name ?? "?") \(tracker.currentContext.os.version ?? "?")"
)

let screens = ScriptedSession().run(with: tracker) { step in
  // Upload what the step tracked now, as an app does when it goes to the background, so that the
  // collector's lines follow their step.
  tracker.uploadNow()
  _ = tracker.flush(timeout: 10)
  print("• \(step.description)")
  printArrived()
}
tracker.uploadNow()
_ = tracker.flush(timeout: 10)
printArrived()
// Then the app is opened from outside: a product link, the shipped-order notification, the Cart
// shortcut and a link that matches nothing (`EntryPointSession`).
let opened = EntryPointSession().run(with: tracker) { step in
  tracker.uploadNow()
  _ = tracker.flush(timeout: 10)
  print("• \(step.description)")
  printArrived()
}
print("opened from outside: \(opened.opened.joined(separator: ", ")); unmatched links: \(opened.pending.statistics.dropped[.unmatched] ?? 0)")
// Then the shopper turns personalization off in the app's settings and shops again: the collector is
// told to forward nothing more to mixpanel, the destination that category gates (named in `integrations`
// by its catalogue name, `Mixpanel`: the plan's `wire_name`).
func forMixpanel() -> Int { collector.received.filter { $0.destinations?.contains("Mixpanel") ?? false }.count }
let beforeRevocation = forMixpanel()
tracker.setConsent("personalization", granted: false)
print(
  "• turn personalization off in the settings (consent now: \(tracker.consent.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value ? "granted" : "denied")" }.joined(separator: ", ")))"
)
_ = ScriptedSession().run(with: tracker) { _ in
  tracker.uploadNow()
  _ = tracker.flush(timeout: 10)
}
printArrived()
print("the second visit: \(forMixpanel() - beforeRevocation) events for mixpanel (\(beforeRevocation) before personalization was turned off)")
let statistics = collector.statistics
print(
  "order placed: \(screens.orderPlaced); the collector accepted \(statistics.acceptedEvents) events, \(statistics.violations) violations, \(statistics.duplicates) duplicates"
)
await collector.stop()
