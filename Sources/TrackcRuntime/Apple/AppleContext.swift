#if canImport(UIKit)
  import UIKit
#endif

/// The device and screen, from UIKit. Elsewhere it fills in nothing.
enum AppleContext {
  static func fill(_ context: inout TrackingContext) {
    #if canImport(UIKit) && !os(watchOS)
      var system = utsname()
      if uname(&system) == 0 {
        // The model identifier (`iPhone15,2`), not UIDevice's "iPhone".
        context.device.model = withUnsafeBytes(of: system.machine) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
      }
      context.device.manufacturer = "Apple"
      // UIDevice and UIScreen belong to the main thread; started elsewhere, the tracker goes without.
      guard Thread.isMainThread else { return }
      let (os, type, screen) = MainActor.assumeIsolated { () -> (TrackingContext.OS, String, TrackingContext.Screen) in
        let device = UIDevice.current
        let screen = UIScreen.main
        return (
          TrackingContext.OS(name: device.systemName, version: device.systemVersion), device.userInterfaceIdiom == .pad ? "ipados" : "ios",
          TrackingContext.Screen(width: Int(screen.bounds.width), height: Int(screen.bounds.height), density: Double(screen.scale))
        )
      }
      context.os = os
      context.device.type = type
      context.screen = screen
    #endif
  }
}
