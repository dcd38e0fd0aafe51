import Foundation
@_spi(Generated) import GenerateFixtureTracking
import Testing
import TrackcTestSupport

@testable @_spi(Generated) import TrackcRuntime

/// The application events of the fixture plans, through their compiled registries: the runtime tracks
/// the ones a plan maps, with their routing and static properties, and none that it leaves out.
@Suite struct GeneratedApplicationEventTests {
  @Test func theRegistryMapsTheEventsThePlanDeclares() {
    let registry = FixtureTracking.registry
    #expect(registry.applicationRule(.installed)?.eventID == "APP_INSTALLED")
    #expect(registry.applicationRule(.updated) == nil)
    let opened = registry.applicationRule(.opened)
    #expect(opened?.eventID == "APP_OPENED" && opened?.routing == .only(["warehouse"]) && opened?.properties == ["platform": .string("ios")])
    #expect(registry.applicationRule(.backgrounded)?.routing == .only(["firebase", "mixpanel"]))
    #expect(FixtureTracking.EventID.appOpened.rawValue == "APP_OPENED")
    // Every event mapped: a switch without a default.
    #expect(
      ApplicationEvent.allCases.map { ObjCTracking.registry.applicationRule($0)?.eventID } == [
        "APP_INSTALLED", "APP_UPDATED", "APP_OPENED", "APP_BACKGROUNDED",
      ])
  }

  /// A launch, a return from the background and a trip to it, as the lifecycle drives them: each
  /// declared event reaches its destinations with what the runtime sends and the plan's properties.
  @Test func theLifecycleTracksThemThroughTheGeneratedRegistry() async throws {
    let directory = try ScratchDirectory("application-events")
    defer { try? FileManager.default.removeItem(at: directory.url) }
    let (firebase, warehouse) = (InMemoryDestination(id: "firebase"), InMemoryDestination(id: "warehouse"))
    var context = TrackingContext.current
    context.app.version = "2.0"
    context.app.build = "20"
    let tracker = Tracker(
      registry: FixtureTracking.registry, destinations: [firebase, InMemoryDestination(id: "mixpanel"), warehouse],
      journal: .directory(directory.url), context: context)
    tracker.observeLifecycle(applicationEvents: true)
    tracker.applicationWillEnterForeground()
    let delivered = await withCheckedContinuation { continuation in
      tracker.applicationDidEnterBackground(within: 10) { continuation.resume(returning: $0) }
    }
    #expect(delivered)
    #expect(firebase.events.map(\.id) == ["APP_INSTALLED", "APP_BACKGROUNDED"])
    #expect(firebase.events.first?.properties == ["version": .string("2.0"), "build": .string("20")])
    #expect(warehouse.events.map(\.id) == ["APP_OPENED", "APP_OPENED"])
    #expect(
      warehouse.events.map { $0.properties["from_background"] } == [.bool(false), .bool(true)]
        && warehouse.events.allSatisfy { $0.properties["platform"] == .string("ios") && $0.properties["version"] == .string("2.0") })
  }
}
