import Foundation
import Testing
import TrackcTestSupport

@testable @_spi(Generated) import TrackcRuntime

/// The lifecycle's logic, driven here as UIKit's notifications drive it on Apple platforms: the
/// application events a plan declares (installed on the first launch, updated when the version or build
/// changes, opened at each launch and return, backgrounded), and the upload when the app goes to the
/// background.
@Suite struct LifecycleTests {
  static func registry(declaring events: Set<ApplicationEvent> = Set(ApplicationEvent.allCases)) -> TestRegistry {
    var registry = TestRegistry()
    registry.applicationEvents = events
    return registry
  }

  /// The app goes to the background: whether everything was delivered within `seconds` (what the Apple
  /// adapter's background task waits for).
  static func background(_ tracker: Tracker, within seconds: TimeInterval) async -> Bool {
    await withCheckedContinuation { continuation in
      tracker.applicationDidEnterBackground(within: seconds) { continuation.resume(returning: $0) }
    }
  }

  static func context(version: String, build: String) -> TrackingContext {
    var context = TrackingContext.current
    context.app.version = version
    context.app.build = build
    return context
  }

  /// A launch of the app with its journal in `directory`, as `Trackc.start` makes it.
  static func launch(
    _ directory: URL, version: String = "1.0", build: String = "10", declared: Set<ApplicationEvent> = Set(ApplicationEvent.allCases),
    into destination: InMemoryDestination
  ) -> Tracker {
    let tracker = Tracker(
      registry: Self.registry(declaring: declared), destinations: [destination], journal: .directory(directory),
      context: context(version: version, build: build))
    tracker.observeLifecycle(applicationEvents: true)
    return tracker
  }

  static func lines(_ events: [TrackingEvent]) -> [String] {
    events.map { event in
      ([event.id] + event.properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    }
  }

  @Test func installedThenOpenedThenUpdatedAcrossLaunches() async throws {
    let directory = try TemporaryDirectory()
    let first = InMemoryDestination(id: "firebase")
    var tracker: Tracker? = Self.launch(directory.url, into: first)
    #expect(await tracker!.flush(timeout: TimeLimits.seconds(10)))
    #expect(
      Self.lines(first.events) == [
        "Application Installed build=10 version=1.0",
        "Application Opened build=10 from_background=false version=1.0",
      ])
    tracker = nil

    // The same version again: opened only.
    let second = InMemoryDestination(id: "firebase")
    tracker = Self.launch(directory.url, into: second)
    #expect(await tracker!.flush(timeout: TimeLimits.seconds(10)))
    #expect(Self.lines(second.events) == ["Application Opened build=10 from_background=false version=1.0"])
    tracker = nil

    // Another build: updated, with the previous version and build.
    let third = InMemoryDestination(id: "firebase")
    tracker = Self.launch(directory.url, version: "1.1", build: "11", into: third)
    #expect(await tracker!.flush(timeout: TimeLimits.seconds(10)))
    #expect(
      Self.lines(third.events) == [
        "Application Updated build=11 previous_build=10 previous_version=1.0 version=1.1",
        "Application Opened build=11 from_background=false version=1.1",
      ])
  }

  @Test func backgroundTracksBackgroundedAndUploadsAtOnce() async throws {
    let directory = try TemporaryDirectory()
    let destination = InMemoryDestination(id: "firebase")
    let tracker = Self.launch(directory.url, into: destination)
    tracker.track(TestRegistry.EventID.ctrlHomeFav)

    // The app goes to the background: the adapter's background task ends when `finished` says so.
    #expect(await Self.background(tracker, within: 10) == true)
    #expect(destination.events.map(\.id) == ["Application Installed", "Application Opened", "CTRL_HOME_FAV", "Application Backgrounded"])

    tracker.applicationWillEnterForeground()
    #expect(await tracker.flush(timeout: TimeLimits.seconds(10)))
    #expect(Self.lines(destination.events).last == "Application Opened build=10 from_background=true version=1.0")
  }

  /// A plan that declares none of them gets none; the upload at the background happens all the same.
  @Test func undeclaredApplicationEventsAreNotTracked() async throws {
    let directory = try TemporaryDirectory()
    let destination = InMemoryDestination(id: "firebase")
    let tracker = Self.launch(directory.url, declared: [], into: destination)
    tracker.track(TestRegistry.EventID.ctrlHomeFav)
    #expect(await Self.background(tracker, within: 10) == true)
    #expect(destination.events.map(\.id) == ["CTRL_HOME_FAV"])
  }

  /// A destination that cannot deliver: the background task is told after the time it was given.
  @Test func backgroundUploadGivesUpInTime() async throws {
    final class Failing: TrackingDestination {
      let id = "firebase"
      struct Down: Error {}
      func receive(_ event: TrackingEvent) throws { throw Down() }
    }
    let directory = try TemporaryDirectory()
    let tracker = Tracker(registry: Self.registry(), destinations: [Failing()], journal: .directory(directory.url))
    tracker.observeLifecycle(applicationEvents: true)
    #expect(await Self.background(tracker, within: 0.2) == false)
  }
}
