import Foundation

/// The application events a plan may declare (`application:` in `tracking.yaml`), tracked by the runtime
/// itself, as Segment's libraries track theirs.
public enum ApplicationEvent: String, Sendable, Hashable, CaseIterable {
  /// The first launch of the app on this device (no state from an earlier launch): `version`, `build`.
  case installed
  /// The first launch of another version or build than the last one: `version`, `build`,
  /// `previous_version`, `previous_build`.
  case updated
  /// Every launch, and every return from the background: `from_background`, `version`, `build`.
  case opened
  /// The app went to the background (what was waiting is uploaded then).
  case backgrounded
}

/// What the app's lifecycle means for tracking, the same logic on every platform: on Apple platforms
/// `AppleLifecycle` feeds it UIKit's notifications; elsewhere (and in tests) these calls do.
extension Tracker {
  /// The app launched: Application Installed on the first launch (no earlier state in the journal's
  /// directory), Application Updated when the version or build differs from the last launch's, then
  /// Application Opened; each only when the plan declares it. The version and build are kept for the
  /// next launch.
  func applicationDidLaunch() {
    let context = currentContext
    let version = context.app.version
    let build = context.app.build
    let previous = rememberApplication(version: version, build: build)
    var properties: [String: PropertyValue] = [:]
    if let version { properties["version"] = .string(version) }
    if let build { properties["build"] = .string(build) }
    switch previous {
    case .none:
      track(.installed, properties: properties)
    case .some(let (previousVersion, previousBuild)) where previousVersion != version || previousBuild != build:
      var updated = properties
      if let previousVersion { updated["previous_version"] = .string(previousVersion) }
      if let previousBuild { updated["previous_build"] = .string(previousBuild) }
      track(.updated, properties: updated)
    default:
      break
    }
    properties["from_background"] = .bool(false)
    track(.opened, properties: properties)
  }

  /// The app came back from the background: a new session if it stayed away longer than the session
  /// timeout, then Application Opened (`from_background: true`), when declared (and `trackingOpened`).
  func applicationWillEnterForeground(trackingOpened: Bool = true) {
    startSessionIfDue()
    guard trackingOpened else { return }
    let context = currentContext
    var properties: [String: PropertyValue] = ["from_background": .bool(true)]
    if let version = context.app.version { properties["version"] = .string(version) }
    if let build = context.app.build { properties["build"] = .string(build) }
    track(.opened, properties: properties)
  }

  /// The app went to the background: the session's timeout counts from now; Application Backgrounded
  /// (when declared), then everything waiting
  /// goes at once. `finished` is called on another thread once it was all delivered (true) or `within`
  /// seconds passed (false): the Apple adapter ends its background task there.
  func applicationDidEnterBackground(within seconds: TimeInterval, finished: @escaping @Sendable (Bool) -> Void) {
    noteSessionActivity()
    track(.backgrounded, properties: [:])
    uploadNow()
    let journal = self.journalForLifecycle
    let deadline = Date(timeIntervalSinceNow: seconds)
    DispatchQueue.global(qos: .utility).async { finished(journal.waitUntilDelivered(until: deadline)) }
  }

  /// Tracks an application event the plan declares, with the properties the runtime gives it.
  private func track(_ event: ApplicationEvent, properties: [String: PropertyValue]) {
    guard let rule = registry.applicationRule(event) else { return }
    track(rule, screen: nil, properties: properties)
  }
}
