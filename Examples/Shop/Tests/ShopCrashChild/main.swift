import Foundation
import ShopApp
import TrackcRuntime

// The app of the Shop's crash test (`ShopCrashTests`), launched as the app launches: `ShopApp.start`,
// with its journal in JOURNAL and its collector at COLLECTOR.
//
//     ShopCrashChild visit JOURNAL COLLECTOR    the scripted visit up to the order placed, signed in (no
//                                               sign-out); reports `ready <anonymous ID> <events tracked>`
//                                               and waits to be killed
//     ShopCrashChild resume JOURNAL COLLECTOR   reports `identity <anonymous ID> <user ID or ->`, delivers
//                                               what waits (its own nothing), reports `delivered` and exits
let arguments = CommandLine.arguments
guard arguments.count == 4, let collector = URL(string: arguments[3]) else {
  FileHandle.standardError.write(Data("usage: ShopCrashChild visit|resume JOURNAL COLLECTOR\n".utf8))
  exit(2)
}
let tracker = try ShopApp.start(collector: collector) { $0.journal = .directory(URL(fileURLWithPath: arguments[2])) }

func report(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

switch arguments[1] {
case "visit":
  var screens = ScriptedSession.Screens()
  Interception.withTracker(tracker) {
    for step in ScriptedSession().steps.dropLast() { step.action(&screens) }
  }
  let tracked = tracker.statistics["collector"]?.accepted ?? 0
  report("ready \(tracker.identity.anonymousID) \(tracked)")
  // Waits, without a timer, for the test's SIGKILL.
  while true { pause() }
case "resume":
  report("identity \(tracker.identity.anonymousID) \(tracker.identity.userID ?? "-")")
  report(tracker.flush(timeout: 60) ? "delivered" : "not delivered")
default:
  exit(2)
}
