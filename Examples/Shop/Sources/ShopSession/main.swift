import CollectorProcess
import Foundation
import ShopApp
import Synchronization
import TrackcRuntime

// Runs the scripted visit as the app ships: the generated interceptors emit the events, the journal keeps
// them, and the collector destination uploads them to a collector, here `trackc collector` run as its own
// process on 127.0.0.1 with the example's own tracking plan, as a developer runs it beside the app. Each
// event the collector accepts is printed under the step that sent it, with any violation of the plan. The
// feature code has no tracking calls, and the example links only what an app links (TrackcRuntime).
let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("tracking.yaml")
let collector = try CollectorProcess(plan: config)
print("collector listening on \(collector.baseURL.absoluteString)")

let journal = FileManager.default.temporaryDirectory.appendingPathComponent("shop-session-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: journal) }
// The app's launch: `ShopApp.start`, here with the local collector and a journal folder of its own.
let tracker = try ShopApp.start(collector: collector.baseURL) { $0.journal = .directory(journal) }
print(
  "anonymous ID \(tracker.identity.anonymousID); app \(tracker.currentContext.app.name ?? "?"), \(tracker.currentContext.os.name ?? "?") \(tracker.currentContext.os.version ?? "?")"
)

// What the collector accepted since the last step, printed under it: the step's events are uploaded now,
// as an app uploads when it goes to the background, and the collector's lines waited for.
let printed = Mutex((calls: 0, violations: 0))
func deliverAndPrint(_ title: String?) {
  tracker.uploadNow()
  _ = tracker.flush(timeout: 10)
  collector.waitForCalls(tracker.statistics["collector"]?.delivered ?? 0)
  if let title { print("• \(title)") }
  let (received, violations) = (collector.received, collector.violations)
  printed.withLock { printed in
    for call in received.dropFirst(printed.calls) { print("    collector: " + call.line) }
    for violation in violations.dropFirst(printed.violations) { print("    collector: violation " + violation.description) }
    printed = (received.count, violations.count)
  }
}

let screens = ScriptedSession().run(with: tracker) { step in deliverAndPrint(step.description) }
deliverAndPrint(nil)
// Then the app is opened from outside: a product link, the shipped-order notification, the Cart
// shortcut and a link that matches nothing (`EntryPointSession`).
let opened = EntryPointSession().run(with: tracker) { step in deliverAndPrint(step.description) }
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
deliverAndPrint(nil)
print("the second visit: \(forMixpanel() - beforeRevocation) events for mixpanel (\(beforeRevocation) before personalization was turned off)")
collector.stop()
print(
  "order placed: \(screens.orderPlaced); the collector accepted \(collector.received.count) events, \(collector.violations.count) violations, \(collector.duplicates) duplicates"
)
