import Foundation
import Testing

@testable @_spi(Generated) import TrackcRuntime

/// Taking over from the analytics SDK an app used before trackc (`Trackc.Settings.migration`): the
/// stores are written here as Segment's analytics-swift 1.x and Amplitude-Swift 1.x write them (the same
/// user defaults suites, keys and encodings; `Sources/TrackcRuntime/Identity/Migration.swift` names the
/// files and versions read), and trackc's first start must carry the same anonymous and user IDs on its
/// first event and track Application Updated, not Installed.
///
/// Serialized: the SDKs keep the last version and build in the standard user defaults, which the tests
/// of this suite share (each removes what it wrote).
@Suite(.serialized) struct MigrationTests {
  /// Analytics-swift's `JSON` as its `encode(to:)` writes it: each case as a single value (null, a
  /// `Bool`, a `Decimal`, a `String`, an array, a dictionary), which `PropertyListEncoder` turns into the
  /// `Data` the SDK stores under `segment.traits` (`Storage.write`: not a basic type, so encoded).
  enum SegmentJSON: Encodable {
    case null
    case bool(Bool)
    case number(Decimal)
    case string(String)
    case array([SegmentJSON])
    case object([String: SegmentJSON])

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .null: try container.encodeNil()
      case .bool(let value): try container.encode(value)
      case .number(let value): try container.encode(value)
      case .string(let value): try container.encode(value)
      case .array(let value): try container.encode(value)
      case .object(let value): try container.encode(value)
      }
    }
  }

  /// What analytics-swift leaves after `identify(userId:traits:)` and a launch of version 2.0 (200):
  /// the write key's suite, and the lifecycle's keys in the standard user defaults (it writes them with
  /// `setValue(_:forKey:)`, which for user defaults is `set(_:forKey:)`; Linux's Foundation has no
  /// key-value coding).
  static func writeSegmentStore(writeKey: String, anonymousID: String?, userID: String?, traits: SegmentJSON?, version: String?, build: String?)
    throws
  {
    let suite = try #require(UserDefaults(suiteName: "com.segment.storage.\(writeKey)"))
    suite.set(anonymousID, forKey: "segment.anonymousId")
    suite.set(userID, forKey: "segment.userId")
    if let traits { suite.set(try PropertyListEncoder().encode(traits), forKey: "segment.traits") }
    suite.synchronize()
    UserDefaults.standard.set(version, forKey: "SEGVersionKey")
    UserDefaults.standard.set(build, forKey: "SEGBuildKeyV2")
  }

  static func removeSegmentStore(writeKey: String) {
    UserDefaults.standard.removePersistentDomain(forName: "com.segment.storage.\(writeKey)")
    UserDefaults.standard.removeObject(forKey: "SEGVersionKey")
    UserDefaults.standard.removeObject(forKey: "SEGBuildKeyV2")
  }

  /// What Amplitude-Swift 1.x leaves: its event storage's suite (`PersistentStorage`, the prefix
  /// `storage-<apiKey>-<instance>` since 1.5, `storage-<instance>` before), strings under `StorageKey`'s
  /// raw values.
  static func writeAmplitudeStore(suite name: String, deviceID: String?, userID: String?, version: String?, build: String?) throws {
    let suite = try #require(UserDefaults(suiteName: name))
    suite.set(deviceID, forKey: "device_id")
    suite.set(userID, forKey: "user_id")
    suite.set(version, forKey: "app_version")
    suite.set(build, forKey: "app_build")
    suite.synchronize()
  }

  /// The app as it starts after the update: version 3.0 (300), the plan's application events declared.
  static func launch(_ migration: [Migration], journal: JournalConfiguration) -> (Tracker, InMemoryDestination) {
    var registry = TestRegistry()
    registry.applicationEvents = [.installed, .updated, .opened]
    var context = TrackingContext()
    context.app = .init(name: "Shop", version: "3.0", build: "300", namespace: "com.example.shop")
    let destination = InMemoryDestination(id: "collector")
    let tracker = Tracker(
      registry: registry, destinations: [RoleCollector(destination)], journal: journal, context: context, migration: migration)
    tracker.applicationDidLaunch()
    tracker.track(TestRegistry.EventID.ctrlHomeFav)
    return (tracker, destination)
  }

  static func uniqueKey() -> String { "key-" + UUID().uuidString.prefix(8).lowercased() }

  @Test func fromAnalyticsSwiftTheSameUserIsUpdatedNotInstalled() throws {
    let writeKey = Self.uniqueKey()
    defer { Self.removeSegmentStore(writeKey: writeKey) }
    let traits = SegmentJSON.object([
      "plan": .string("pro"), "age": .number(42), "score": .number(Decimal(string: "4.5")!), "vip": .bool(true),
      "address": .object(["city": .string("Leeds")]), "tags": .array([.string("a")]), "nothing": .null,
    ])
    try Self.writeSegmentStore(
      writeKey: writeKey, anonymousID: "seg-anon-1", userID: "user-42", traits: traits, version: "2.0", build: "200")
    let directory = try TemporaryDirectory()
    let journal = JournalConfiguration(storage: .directory(directory.url))
    do {
      let (tracker, destination) = Self.launch([.amplitude(apiKey: Self.uniqueKey()), .segment(writeKey: writeKey)], journal: journal)
      #expect(tracker.flush())
      let events = destination.events
      #expect(events.map(\.id) == ["Application Updated", "Application Opened", "CTRL_HOME_FAV"])
      let first = try #require(events.first)
      #expect(first.identity.anonymousID == "seg-anon-1" && first.identity.userID == "user-42")
      // The scalar traits (what trackc's traits hold); the nested object, the array and the null are not.
      #expect(first.identity.traits == ["plan": .string("pro"), "age": .int(42), "score": .double(4.5), "vip": .bool(true)])
      #expect(first.properties["previous_version"] == .string("2.0") && first.properties["previous_build"] == .string("200"))
      #expect(first.properties["version"] == .string("3.0") && first.properties["build"] == .string("300"))
      #expect(events.allSatisfy { $0.identity == first.identity })
    }
    // From then on the identity is trackc's own: what the old store says later is not read again.
    try Self.writeSegmentStore(writeKey: writeKey, anonymousID: "seg-anon-2", userID: "user-7", traits: nil, version: "9.0", build: "900")
    let (tracker, destination) = Self.launch([.segment(writeKey: writeKey)], journal: journal)
    #expect(tracker.flush())
    #expect(destination.events.map(\.id) == ["Application Opened", "CTRL_HOME_FAV"], "same version: neither installed nor updated")
    #expect(destination.events.first?.identity.anonymousID == "seg-anon-1" && destination.events.first?.identity.userID == "user-42")
  }

  /// Analytics-swift that never saw a launch (no build stored: its next launch would have been an
  /// install) hands over its identity, and this launch is the install.
  @Test func anAnalyticsSwiftStoreWithoutABuildIsAnInstall() throws {
    let writeKey = Self.uniqueKey()
    defer { Self.removeSegmentStore(writeKey: writeKey) }
    try Self.writeSegmentStore(writeKey: writeKey, anonymousID: "seg-anon-3", userID: nil, traits: nil, version: nil, build: nil)
    let directory = try TemporaryDirectory()
    let (tracker, destination) = Self.launch([.segment(writeKey: writeKey)], journal: JournalConfiguration(storage: .directory(directory.url)))
    #expect(tracker.flush())
    #expect(destination.events.map(\.id) == ["Application Installed", "Application Opened", "CTRL_HOME_FAV"])
    #expect(destination.events.first?.identity == TrackingIdentity(anonymousID: "seg-anon-3"))
  }

  /// Amplitude-Swift since 1.5: the API key's and instance's suite; its device ID becomes the anonymous
  /// ID. It keeps no user properties on the device, so there are no traits.
  @Test func fromAmplitudeSwiftTheSameDeviceIsUpdatedNotInstalled() throws {
    let apiKey = Self.uniqueKey()
    let suite = "com.amplitude.storage.amplitude-swift-storage-\(apiKey)-$default_instance"
    defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
    try Self.writeAmplitudeStore(suite: suite, deviceID: "amp-device-1", userID: "user-9", version: "2.5", build: "250")
    let directory = try TemporaryDirectory()
    let (tracker, destination) = Self.launch(
      [.segment(writeKey: Self.uniqueKey()), .amplitude(apiKey: apiKey)], journal: JournalConfiguration(storage: .directory(directory.url)))
    #expect(tracker.flush())
    let events = destination.events
    #expect(events.map(\.id) == ["Application Updated", "Application Opened", "CTRL_HOME_FAV"])
    #expect(events.first?.identity == TrackingIdentity(anonymousID: "amp-device-1", userID: "user-9"))
    #expect(events.first?.properties["previous_version"] == .string("2.5") && events.first?.properties["previous_build"] == .string("250"))
  }

  /// Amplitude-Swift before 1.5 kept its state under the instance name alone (the default instance, or
  /// the one the app named): read when the current suite has nothing.
  @Test func anOlderAmplitudeSwiftStoreIsReadToo() throws {
    let instance = Self.uniqueKey()
    let suite = "com.amplitude.storage.amplitude-swift-storage-\(instance)"
    defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
    try Self.writeAmplitudeStore(suite: suite, deviceID: "amp-device-2", userID: nil, version: "1.0", build: "10")
    let directory = try TemporaryDirectory()
    let (tracker, destination) = Self.launch(
      [.amplitude(apiKey: Self.uniqueKey(), instanceName: instance)], journal: JournalConfiguration(storage: .directory(directory.url)))
    #expect(tracker.flush())
    #expect(destination.events.map(\.id) == ["Application Updated", "Application Opened", "CTRL_HOME_FAV"])
    #expect(destination.events.first?.identity == TrackingIdentity(anonymousID: "amp-device-2"))
  }

  /// Nothing on the device (or no migration asked for): a new anonymous ID, and the install.
  @Test func withoutAStoreItIsAnInstallWithANewIdentity() throws {
    let directory = try TemporaryDirectory()
    let (tracker, destination) = Self.launch(
      [.segment(writeKey: Self.uniqueKey()), .amplitude(apiKey: Self.uniqueKey())], journal: JournalConfiguration(storage: .directory(directory.url)))
    #expect(tracker.flush())
    #expect(destination.events.map(\.id) == ["Application Installed", "Application Opened", "CTRL_HOME_FAV"])
    let identity = try #require(destination.events.first?.identity)
    #expect(identity.userID == nil && UUID(uuidString: identity.anonymousID) != nil)
  }
}
