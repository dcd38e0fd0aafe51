import Foundation
import TrackcRuntime

/// Where the app's events go, and how trackc starts.
enum Analytics {
  /// In a debug build, `trackc collector` on this Mac (`trackc collector --config Storefront/tracking.yaml`),
  /// which a simulator reaches at 127.0.0.1; on a device, start the collector with `--host 0.0.0.0` and
  /// set `TRACKC_COLLECTOR` in the scheme to `http://<the Mac's address>:9000`. A release build sends to
  /// the production collector.
  static var collector: URL {
    #if DEBUG
      if let address = ProcessInfo.processInfo.environment["TRACKC_COLLECTOR"], let url = URL(string: address) { return url }
      return URL(string: "http://127.0.0.1:9000")!
    #else
      return URL(string: "https://collector.storefront.example.com")!
    #endif
  }

  @MainActor static func start() {
    do {
      try Trackc.start(Tracking.registry, endpoint: collector, writeKey: "storefront-ios") { settings in
        #if DEBUG
          // A partial batch waits up to 30 s (or the app going to the background) before it goes: in a
          // debug build, send each event within a second, to watch them arrive.
          settings.batch = BatchLimits(maximumAge: 1)
        #endif
      }
    } catch {
      assertionFailure("trackc did not start: \(error)")
    }
    // A hook trackc could not install (a handler's class the app does not have, say) is printed on the
    // console in a debug build, and readable as Trackc.handlerHookProblems: none expected.
  }
}
