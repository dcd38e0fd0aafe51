#if canImport(UIKit) && !os(watchOS)
  import UIKit

  /// Feeds the lifecycle logic (`ApplicationLifecycle.swift`) UIKit's notifications, and keeps the app
  /// running in the background until what was waiting is uploaded (a background task, ended once the
  /// upload is done or the system's time is nearly up).
  enum AppleLifecycle {
    /// The observers, for the tracker to remove when it goes.
    static func observe(_ tracker: Tracker, applicationEvents: Bool) -> [any NSObjectProtocol] {
      let center = NotificationCenter.default
      // The foreground is observed either way: sessions start there.
      return [
        center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { [weak tracker] _ in
          MainActor.assumeIsolated { background(tracker) }
        },
        center.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main) { [weak tracker] _ in
          tracker?.applicationWillEnterForeground(trackingOpened: applicationEvents)
        },
      ]
    }

    /// `interception: objc-runtime`'s hooks (`UIKitInterception`), installed by `Trackc.start`: at once
    /// on the main thread (before the first screen appears), else as soon as the main thread is free, and
    /// said so in a debug build (`Interception.installOnMainThread`).
    static func installUIKitHooks(_ registry: any TrackingRegistry) {
      Interception.installOnMainThread { UIKitInterception.install(registry) }
    }

    /// The background task's identifier, ended once.
    @MainActor private final class BackgroundTask {
      var identifier = UIBackgroundTaskIdentifier.invalid

      func end() {
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
      }
    }

    @MainActor private static func background(_ tracker: Tracker?) {
      guard let tracker else { return }
      let task = BackgroundTask()
      task.identifier = UIApplication.shared.beginBackgroundTask(withName: "trackc upload") { task.end() }
      // The system gives about 30 s; the upload gets 25 of them.
      tracker.applicationDidEnterBackground(within: 25) { _ in
        DispatchQueue.main.async { MainActor.assumeIsolated { task.end() } }
      }
    }
  }
#else
  import Foundation

  /// Elsewhere the app's lifecycle comes from its own calls (and tests).
  enum AppleLifecycle {
    static func observe(_ tracker: Tracker, applicationEvents: Bool) -> [any NSObjectProtocol] { [] }
    static func installUIKitHooks(_ registry: any TrackingRegistry) {}
  }
#endif
