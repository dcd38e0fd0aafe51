import Foundation
import Testing

@testable @_spi(Generated) import TrackcRuntime

/// Taking over from the analytics SDK an app used before trackc (`Trackc.Settings.migration`): the
/// stores are written here as a named tag of Segment's analytics-swift or Amplitude-Swift writes them (the
/// same user defaults suites, keys and encodings; `Sources/TrackcRuntime/Identity/Migration.swift` names
/// the files read), and trackc's first start must carry the same anonymous and user IDs on its first
/// event and track Application Updated, not Installed; a key whose store holds no identity finds
/// nothing, says so, and the next migration is read.
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
  static func writeAmplitudeStore(
    suite name: String, deviceID: String?, userID: String?, version: String?, build: String?, lastEventTime: Int64? = 1_700_000_000_000
  ) throws {
    let suite = try #require(UserDefaults(suiteName: name))
    suite.set(deviceID, forKey: "device_id")
    suite.set(userID, forKey: "user_id")
    suite.set(version, forKey: "app_version")
    suite.set(build, forKey: "app_build")
    // `PersistentStorage.write`: a basic type, set as it is (an Int64 of milliseconds, `Session`'s).
    if let lastEventTime { suite.set(lastEventTime, forKey: "last_event_time") }
    suite.synchronize()
  }

  /// Amplitude-Swift 1.18.6 (`Sessions.swift`: `previous_session_id` and `last_event_time`, Int64
  /// milliseconds, in the storage suite): back within Amplitude's five minutes, the user goes on in
  /// Amplitude's session (the same ID, no session calls); after them, a new session.
  @Test(arguments: [false, true])
  func anAmplitudeSessionGoesOnWithinTheTimeout(expired: Bool) throws {
    let apiKey = Self.uniqueKey()
    let suite = "com.amplitude.storage.amplitude-swift-storage-\(apiKey)-shop"
    defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
    let now = Tracker.milliseconds(Date())
    let lastEvent = now - (expired ? 3_600_000 : 60_000)
    let session = lastEvent - 600_000
    try Self.writeAmplitudeStore(suite: suite, deviceID: "amp-device-s", userID: nil, version: "1.0", build: "10", lastEventTime: lastEvent)
    let storage = try #require(UserDefaults(suiteName: suite))
    storage.set(session, forKey: "previous_session_id")
    storage.synchronize()
    let directory = try TemporaryDirectory()
    let (tracker, _) = Self.launch(
      [.amplitude(apiKey: apiKey, instanceName: "shop")], journal: JournalConfiguration(storage: .directory(directory.url)))
    let id = try #require(tracker.sessionID)
    if expired {
      #expect(id >= now, "a new session")
    } else {
      #expect(id == session, "Amplitude's session goes on")
    }
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

  /// analytics-swift 1.10.0 (`Storage.swift`, `JSON.swift`, `iOSLifecycleEvents.swift`), lifecycle events on.
  @Test func fromAnalyticsSwiftTheSameUserIsUpdatedNotInstalled() throws {
    let writeKey = Self.uniqueKey()
    defer { Self.removeSegmentStore(writeKey: writeKey) }
    let traits = SegmentJSON.object([
      "plan": .string("pro"), "age": .number(42), "score": .number(Decimal(string: "4.5")!), "vip": .bool(true),
      "address": .object(["city": .string("Leeds")]), "tags": .array([.string("a")]), "nothing": .null,
      "account": .number(Decimal(string: "9007199254740993")!), "negative": .number(-7),
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
      // Every trait as it was: the nested object, the array and the null too, a whole number above 2^53
      // exactly.
      #expect(first.identity.traits == Self.migratedTraits)
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
    #expect(destination.events.first?.identity.traits == Self.migratedTraits, "the state file keeps them exactly")
  }

  static let migratedTraits: [String: PropertyValue] = [
    "plan": .string("pro"), "age": .int(42), "score": .double(4.5), "vip": .bool(true), "address": .object(["city": .string("Leeds")]),
    "tags": .array([.string("a")]), "nothing": .null, "account": .int(9_007_199_254_740_993), "negative": .int(-7),
  ]

  /// analytics-swift 1.7.3 and 1.10.0 with lifecycle events off (`trackApplicationLifecycleEvents: false`):
  /// 1.7.3's `iOSLifecycleEvents` returns before writing the version and build, 1.10.0 does not add the
  /// plugin; the identity is there all the same, so the app ran before: Updated, with no previous
  /// version or build to tell.
  @Test(arguments: ["1.7.3", "1.10.0"])
  func analyticsSwiftWithLifecycleEventsOffIsAnUpdate(tag: String) throws {
    let writeKey = Self.uniqueKey()
    defer { Self.removeSegmentStore(writeKey: writeKey) }
    try Self.writeSegmentStore(writeKey: writeKey, anonymousID: "seg-anon-3", userID: nil, traits: nil, version: nil, build: nil)
    let directory = try TemporaryDirectory()
    let (tracker, destination) = Self.launch([.segment(writeKey: writeKey)], journal: JournalConfiguration(storage: .directory(directory.url)))
    #expect(tracker.flush())
    #expect(destination.events.map(\.id) == ["Application Updated", "Application Opened", "CTRL_HOME_FAV"], "\(tag)")
    let first = try #require(destination.events.first)
    #expect(first.identity == TrackingIdentity(anonymousID: "seg-anon-3"))
    #expect(first.properties["previous_version"] == nil && first.properties["previous_build"] == nil)
    #expect(tracker.migrationReport?.takenOver == .segment(writeKey: writeKey))
  }

  /// analytics-swift 1.10.0 used with another write key (the store is under the production key; the app
  /// now names a development or mistyped one): the version and build in the standard user defaults do
  /// not make it a store. It finds nothing and says so, and the Amplitude-Swift 1.18.6 store after it in
  /// the list is read.
  @Test func aWrongWriteKeyFindsNothingAndSaysSo() throws {
    let writeKey = Self.uniqueKey()
    let wrongKey = Self.uniqueKey()
    defer { Self.removeSegmentStore(writeKey: writeKey) }
    try Self.writeSegmentStore(writeKey: writeKey, anonymousID: "seg-anon-4", userID: "user-4", traits: nil, version: "2.0", build: "200")
    let apiKey = Self.uniqueKey()
    let suite = "com.amplitude.storage.amplitude-swift-storage-\(apiKey)-$default_instance"
    defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
    try Self.writeAmplitudeStore(suite: suite, deviceID: "amp-device-4", userID: "user-4", version: "2.4", build: "240")
    let directory = try TemporaryDirectory()
    let (tracker, destination) = Self.launch(
      [.segment(writeKey: wrongKey), .amplitude(apiKey: apiKey)], journal: JournalConfiguration(storage: .directory(directory.url)))
    #expect(tracker.flush())
    #expect(destination.events.map(\.id) == ["Application Updated", "Application Opened", "CTRL_HOME_FAV"])
    #expect(destination.events.first?.identity == TrackingIdentity(anonymousID: "amp-device-4", userID: "user-4"))
    #expect(destination.events.first?.properties["previous_build"] == .string("240"), "Amplitude's build, not Segment's")
    let report = try #require(tracker.migrationReport)
    #expect(report.takenOver == .amplitude(apiKey: apiKey))
    #expect(
      report.lines == [
        "analytics-swift (write key '\(wrongKey)'): found nothing (no identity in com.segment.storage.\(wrongKey))",
        "Amplitude-Swift (API key '\(apiKey)', instance '$default_instance'): took over user user-4, anonymous ID amp-device-4",
      ])

    // Alone, the wrong key: a new identity and an install, and the report says why.
    let other = try TemporaryDirectory()
    let (alone, events) = Self.launch([.segment(writeKey: wrongKey)], journal: JournalConfiguration(storage: .directory(other.url)))
    #expect(alone.flush())
    #expect(events.events.map(\.id) == ["Application Installed", "Application Opened", "CTRL_HOME_FAV"])
    #expect(events.events.first?.identity.anonymousID != "seg-anon-4")
    #expect(alone.migrationReport?.takenOver == nil)
    #expect(
      alone.migrationReport?.description
        == "analytics-swift (write key '\(wrongKey)'): found nothing (no identity in com.segment.storage.\(wrongKey))")
  }

  /// Amplitude-Swift 1.18.6: the API key's and instance's suite; its device ID becomes the anonymous ID.
  /// It keeps no user properties on the device, so there are no traits.
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

  /// One storage era of Amplitude-Swift each, written as that tag writes it (`Configuration.swift`,
  /// `PersistentStorage.swift`, `Types.swift` at the tag): the suite, `device_id`, `user_id`,
  /// `last_event_time`, and `app_version` and `app_build` where the tag has them (from v1.0.0). Every one
  /// is an update: its device ID is the anonymous ID from then on.
  struct AmplitudeEra: Sendable, CustomStringConvertible {
    var tag: String
    /// The instance the app named ("" for the default).
    var instance: String
    /// The suite, from the API key and the instance as the app named it.
    var suite: @Sendable (_ apiKey: String, _ instance: String) -> String
    var hasBuild: Bool
    var description: String { tag }
  }

  static let amplitudeEras = [
    // 0.1.0 to 0.4.6: `PersistentStorage(apiKey:)`, the API key's suite, no instance.
    AmplitudeEra(tag: "v0.4.6", instance: "", suite: { apiKey, _ in "com.amplitude.storage.amplitude-swift-\(apiKey)" }, hasBuild: false),
    // 0.4.7 to 0.4.14: `storage-<instance>`, the default instance named `default_instance`.
    AmplitudeEra(
      tag: "v0.4.14", instance: "", suite: { _, _ in "com.amplitude.storage.amplitude-swift-storage-default_instance" }, hasBuild: false),
    // 0.5.0 to 1.3.0: `storage-<instance>`, the default `$default_instance`; 1.x writes the build at launch.
    AmplitudeEra(
      tag: "v1.3.0", instance: "", suite: { _, _ in "com.amplitude.storage.amplitude-swift-storage-$default_instance" }, hasBuild: true),
    AmplitudeEra(
      tag: "v1.3.0", instance: "shop", suite: { _, instance in "com.amplitude.storage.amplitude-swift-storage-\(instance)" }, hasBuild: true),
    // From 1.3.1: `getEventStoragePrefix`, `storage-<apiKey>-<instance>`.
    AmplitudeEra(
      tag: "v1.3.1", instance: "shop", suite: { apiKey, instance in "com.amplitude.storage.amplitude-swift-storage-\(apiKey)-\(instance)" },
      hasBuild: true),
  ]

  @Test(arguments: amplitudeEras)
  func everyAmplitudeSwiftStorageEraIsAnUpdate(era: AmplitudeEra) throws {
    let apiKey = Self.uniqueKey()
    // The default instance's suites are shared by every API key: this test alone writes them (serialized).
    let suite = era.suite(apiKey, era.instance)
    defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
    try Self.writeAmplitudeStore(
      suite: suite, deviceID: "amp-device-\(era.tag)", userID: "user-5", version: era.hasBuild ? "1.0" : nil, build: era.hasBuild ? "10" : nil)
    let directory = try TemporaryDirectory()
    let (tracker, destination) = Self.launch(
      [.amplitude(apiKey: apiKey, instanceName: era.instance)], journal: JournalConfiguration(storage: .directory(directory.url)))
    #expect(tracker.flush())
    #expect(destination.events.map(\.id) == ["Application Updated", "Application Opened", "CTRL_HOME_FAV"], "\(era.tag)")
    #expect(destination.events.first?.identity == TrackingIdentity(anonymousID: "amp-device-\(era.tag)", userID: "user-5"))
    #expect(destination.events.first?.properties["previous_build"] == (era.hasBuild ? .string("10") : nil))
  }

  /// Side by side during a rollout (Amplitude-Swift 1.18.6 kept for a release, lifecycle events off): at
  /// each launch it writes the current version and build into its suite (`DefaultEventUtils`). trackc
  /// started first reads the build of the last launch, and sends Application Updated; started after the
  /// old SDK, it reads the build the SDK has just written, the current one, and sends neither Installed
  /// nor Updated. So trackc starts first (docs/migration.md).
  @Test(arguments: [true, false])
  func trackcStartedBeforeTheOldSDKSendsTheUpdate(trackcFirst: Bool) throws {
    let apiKey = Self.uniqueKey()
    let suite = "com.amplitude.storage.amplitude-swift-storage-\(apiKey)-$default_instance"
    defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
    try Self.writeAmplitudeStore(suite: suite, deviceID: "amp-device-6", userID: nil, version: "2.5", build: "250")
    /// The old SDK's launch of version 3.0 (300): what it writes before it tracks anything.
    func oldSDKLaunches() throws { try Self.writeAmplitudeStore(suite: suite, deviceID: "amp-device-6", userID: nil, version: "3.0", build: "300") }
    if !trackcFirst { try oldSDKLaunches() }
    let directory = try TemporaryDirectory()
    let (tracker, destination) = Self.launch([.amplitude(apiKey: apiKey)], journal: JournalConfiguration(storage: .directory(directory.url)))
    if trackcFirst { try oldSDKLaunches() }
    #expect(tracker.flush())
    let expected = trackcFirst ? ["Application Updated", "Application Opened", "CTRL_HOME_FAV"] : ["Application Opened", "CTRL_HOME_FAV"]
    #expect(destination.events.map(\.id) == expected)
    #expect(destination.events.allSatisfy { $0.identity.anonymousID == "amp-device-6" }, "the same device either way")
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
