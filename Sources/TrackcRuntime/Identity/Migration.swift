import Foundation

/// Another analytics SDK the app used before trackc, whose state trackc takes over at its first start
/// (`Trackc.Settings.migration`): the anonymous ID, the user ID and the traits it kept, and the last
/// version and build of the app it saw. So a user keeps their identity (no one is counted twice), and a
/// device that had the app before gets Application Updated, not Application Installed.
///
/// Read once, when the journal's directory has no state of trackc's yet; from then on trackc keeps its
/// own. Nothing is written to the other SDK's store, and nothing is removed from it (an app that goes
/// back to the SDK finds it as it was).
public struct Migration: Sendable, Hashable, CustomStringConvertible {
  enum Source: Sendable, Hashable {
    case segment(writeKey: String)
    case amplitude(apiKey: String, instanceName: String)
  }

  let source: Source

  public var description: String {
    switch source {
    case .segment(let writeKey): return "analytics-swift (write key '\(writeKey)')"
    case .amplitude(let apiKey, let instanceName): return "Amplitude-Swift (API key '\(apiKey)', instance '\(instanceName)')"
    }
  }

  /// Segment's analytics-swift 1.x, as the app configured it (`Configuration(writeKey:)`): the anonymous
  /// ID, user ID and traits it kept for that write key, and the version and build its lifecycle events
  /// last saw.
  public static func segment(writeKey: String) -> Migration {
    Migration(source: .segment(writeKey: writeKey))
  }

  /// Amplitude-Swift 1.x, as the app configured it (`Configuration(apiKey:instanceName:)`; the default
  /// instance when the app named none): the device ID (trackc's anonymous ID from then on), the user ID,
  /// and the version and build it last saw. Amplitude-Swift keeps no user properties on the device, so
  /// there are no traits to take over.
  public static func amplitude(apiKey: String, instanceName: String = "") -> Migration {
    Migration(source: .amplitude(apiKey: apiKey, instanceName: instanceName.isEmpty ? AmplitudeStore.defaultInstance : instanceName))
  }

  /// What a migration found: an identity the SDK kept (so the app ran on this device before), and the
  /// app's version and build it saw last, when it kept them.
  struct Found: Sendable, Hashable {
    var identity: TrackingIdentity
    var version: String?
    var build: String?
    /// Amplitude's session and when it last saw an event (`previous_session_id`, `last_event_time`):
    /// trackc goes on with it if the app comes back within the session timeout.
    var session: StateFile.Session?
  }

  /// What one migration found, or where it looked and found no identity.
  enum Lookup: Sendable, Hashable {
    case found(Found)
    case nothing(looked: String)
  }

  /// The first of `migrations` whose SDK left an identity on the device, and a report of each looked at.
  static func read(_ migrations: [Migration]) -> (found: Found?, report: MigrationReport) {
    var lines: [String] = []
    for migration in migrations {
      let lookup: Lookup
      switch migration.source {
      case .segment(let writeKey): lookup = SegmentStore.read(writeKey: writeKey)
      case .amplitude(let apiKey, let instanceName): lookup = AmplitudeStore.read(apiKey: apiKey, instanceName: instanceName)
      }
      switch lookup {
      case .found(let found):
        lines.append("\(migration): took over \(found.identity.userID.map { "user \($0), " } ?? "")anonymous ID \(found.identity.anonymousID)")
        return (found, MigrationReport(takenOver: migration, lines: lines))
      case .nothing(let looked):
        lines.append("\(migration): found nothing (no identity in \(looked))")
      }
    }
    return (nil, MigrationReport(takenOver: nil, lines: lines))
  }

  /// An identity from what a store kept: its anonymous ID (a fresh one when it kept none), user ID and traits.
  static func identity(anonymousID: String?, userID: String?, traits: [String: PropertyValue] = [:]) -> TrackingIdentity {
    TrackingIdentity(anonymousID: anonymousID ?? TrackingIdentity.fresh().anonymousID, userID: userID, traits: traits)
  }
}

/// What the migrations found at trackc's first start (`Tracker.migrationReport`): one line per SDK looked
/// at, in order, up to the one whose identity was taken over. A migration that finds nothing (a
/// development or mistyped write key, an SDK the app never shipped) says so and where it looked, and the
/// next one is read.
public struct MigrationReport: Sendable, Hashable, CustomStringConvertible {
  /// The migration whose identity trackc took over; nil when none found one (a new identity, and the
  /// launch is an install).
  public let takenOver: Migration?
  public let lines: [String]

  public var description: String { lines.joined(separator: "\n") }

  /// Writes a report that found nothing to standard error (the Xcode console), a line each.
  static func log(_ report: MigrationReport) {
    let text = report.lines.map { "trackc: migration: " + $0 + "\n" }.joined()
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// Where Segment's analytics-swift 1.x keeps its state, as its source says (segmentio/analytics-swift,
/// tag 1.10.0; the same from 1.0.0 on):
/// - `Sources/Segment/Utilities/Storage/Storage.swift`: a user defaults suite per write key,
///   `com.segment.storage.<writeKey>`, with `segment.anonymousId` and `segment.userId` as strings (written
///   as they are) and `segment.traits` as `Data`: its `JSON` value encoded with `PropertyListEncoder`;
/// - `Sources/Segment/Utilities/JSON.swift`: `JSON` encodes each case as a single value (null, a `Bool`, a
///   `Decimal`, a `String`, an array of `JSON`, a dictionary of `JSON`) and decodes them in that order;
/// - `Sources/Segment/Plugins/Platforms/iOS/iOSLifecycleEvents.swift`: the version and build its lifecycle
///   events last saw, in the standard user defaults, `SEGVersionKey` and `SEGBuildKeyV2`. Written only
///   with lifecycle events on (1.0.0 to 1.7.x return before writing them when off; from 1.8.0 the lifecycle
///   plugin is not added at all): so an identity in the write key's suite, which every release writes at
///   its first start, is what says the app ran before, and the build, when there is one, what it was.
enum SegmentStore {
  static func suiteName(writeKey: String) -> String { "com.segment.storage.\(writeKey)" }
  static let anonymousIDKey = "segment.anonymousId"
  static let userIDKey = "segment.userId"
  static let traitsKey = "segment.traits"
  static let versionKey = "SEGVersionKey"
  static let buildKey = "SEGBuildKeyV2"

  /// Found only when the write key's suite holds an identity: the version and build live in the standard
  /// user defaults, which any write key (a development one, a mistyped one) would see.
  static func read(writeKey: String) -> Migration.Lookup {
    let name = suiteName(writeKey: writeKey)
    guard !writeKey.isEmpty, let suite = UserDefaults(suiteName: name) else { return .nothing(looked: "no suite: the write key is empty") }
    let anonymousID = nonEmpty(suite.string(forKey: anonymousIDKey))
    let userID = nonEmpty(suite.string(forKey: userIDKey))
    guard anonymousID != nil || userID != nil else { return .nothing(looked: name) }
    let traits = suite.data(forKey: traitsKey).map(Self.traits) ?? [:]
    return .found(
      Migration.Found(
        identity: Migration.identity(anonymousID: anonymousID, userID: userID, traits: traits),
        version: nonEmpty(UserDefaults.standard.string(forKey: versionKey)), build: nonEmpty(UserDefaults.standard.string(forKey: buildKey))))
  }

  /// The traits analytics-swift kept, all of them: nested objects (its reserved `address` and `company`),
  /// arrays and nulls as they are, whole numbers exactly (by their digits: through a Double, one above
  /// 2^53 would change).
  static func traits(_ data: Data) -> [String: PropertyValue] {
    guard case .object(let object)? = try? PropertyListDecoder().decode(StoredJSON.self, from: data) else { return [:] }
    return object.mapValues(\.value)
  }

  /// A value of analytics-swift's `JSON` as `PropertyListEncoder` wrote it, read the way its own
  /// `init(from:)` reads it: each kind tried in the same order.
  enum StoredJSON: Decodable {
    case null
    case bool(Bool)
    case number(Decimal)
    case string(String)
    case array([StoredJSON])
    case object([String: StoredJSON])

    /// As a trait's value.
    var value: PropertyValue {
      switch self {
      case .null: return .null
      case .bool(let bool): return .bool(bool)
      case .string(let string): return .string(string)
      case .number(let number):
        if let integer = Int(number.description) { return .int(integer) }
        let double = NSDecimalNumber(decimal: number).doubleValue
        return double.isFinite ? .double(double) : .null
      case .array(let values): return .array(values.map(\.value))
      case .object(let object): return .object(object.mapValues(\.value))
      }
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let bool = try? container.decode(Bool.self) {
        self = .bool(bool)
      } else if let number = try? container.decode(Decimal.self) {
        self = .number(number)
      } else if let string = try? container.decode(String.self) {
        self = .string(string)
      } else if let array = try? container.decode([StoredJSON].self) {
        self = .array(array)
      } else {
        self = .object(try container.decode([String: StoredJSON].self))
      }
    }
  }
}

/// Where Amplitude-Swift keeps its state, as its source says (amplitude/Amplitude-Swift, tag v1.18.6, and
/// the older tags named below):
/// - `Sources/Amplitude/Storages/PersistentStorage.swift`: a user defaults suite per storage,
///   `com.amplitude.storage.<prefix>`, where a prefix not starting with `amplitude-swift` gets it in front;
///   the event storage's prefix is `storage-<apiKey>-<instanceName>` (`getEventStoragePrefix`), so the suite
///   is `com.amplitude.storage.amplitude-swift-storage-<apiKey>-<instanceName>`;
/// - `Sources/Amplitude/Types.swift` (`StorageKey`): `device_id`, `user_id`, `app_version`, `app_build`,
///   strings; `Sources/Amplitude/Amplitude.swift` reads the identity from there, and
///   `Sources/Amplitude/Utilities/DefaultEventUtils.swift` the version and build;
/// - `Sources/Amplitude/Constants.swift`: the default instance is `$default_instance`;
/// - the storage prefix by release (`Configuration.swift` at each tag): `storage-<apiKey>-<instanceName>`
///   from v1.3.1 (`getEventStoragePrefix`); `storage-<instanceName>` from v0.4.7 to v1.3.0, the default
///   instance named `default_instance` until v0.4.14 and `$default_instance` from v0.5.0; and before,
///   v0.1.0 to v0.4.6, `PersistentStorage(apiKey:)`'s `amplitude-swift-<apiKey>`: the older ones are read
///   after the current one, as Amplitude-Swift's own migrations read them;
/// - `app_version` and `app_build` exist from v1.0.0 (written at each launch); 0.x kept neither, so a
///   device ID is what says the app ran before (Amplitude itself counts an install by `last_event_time`
///   missing, which every release writes with the device ID's first session).
enum AmplitudeStore {
  static let defaultInstance = "$default_instance"
  static let deviceIDKey = "device_id"
  static let userIDKey = "user_id"
  static let versionKey = "app_version"
  static let buildKey = "app_build"
  static let sessionIDKey = "previous_session_id"
  static let lastEventTimeKey = "last_event_time"

  /// The default instance's name in 0.4.7 to 0.4.14 (`default_instance`; `$default_instance` from 0.5.0).
  static let firstDefaultInstance = "default_instance"

  /// The suites a release of Amplitude-Swift may have written, newest first: the API key's and
  /// instance's (from 1.3.1), the instance's (0.4.7 to 1.3.0; for the default instance, under either of
  /// its names), the API key's (0.1.0 to 0.4.6).
  static func suiteNames(apiKey: String, instanceName: String) -> [String] {
    var names = [
      "com.amplitude.storage.amplitude-swift-storage-\(apiKey)-\(instanceName)",
      "com.amplitude.storage.amplitude-swift-storage-\(instanceName)",
    ]
    if instanceName == defaultInstance { names.append("com.amplitude.storage.amplitude-swift-storage-\(firstDefaultInstance)") }
    names.append("com.amplitude.storage.amplitude-swift-\(apiKey)")
    return names
  }

  static func read(apiKey: String, instanceName: String) -> Migration.Lookup {
    guard !apiKey.isEmpty else { return .nothing(looked: "no suite: the API key is empty") }
    let names = suiteNames(apiKey: apiKey, instanceName: instanceName)
    for name in names {
      guard let suite = UserDefaults(suiteName: name) else { continue }
      let deviceID = nonEmpty(suite.string(forKey: deviceIDKey))
      let userID = nonEmpty(suite.string(forKey: userIDKey))
      guard deviceID != nil || userID != nil else { continue }
      // `Sessions` writes both as Int64 milliseconds (`PersistentStorage.write` sets the number as it is).
      var session: StateFile.Session?
      if let id = (suite.object(forKey: sessionIDKey) as? NSNumber)?.int64Value, id > 0,
        let lastEvent = (suite.object(forKey: lastEventTimeKey) as? NSNumber)?.int64Value, lastEvent > 0
      {
        session = StateFile.Session(id: id, lastActive: lastEvent)
      }
      return .found(
        Migration.Found(
          identity: Migration.identity(anonymousID: deviceID, userID: userID), version: nonEmpty(suite.string(forKey: versionKey)),
          build: nonEmpty(suite.string(forKey: buildKey)), session: session))
    }
    return .nothing(looked: names.joined(separator: ", "))
  }
}

private func nonEmpty(_ text: String?) -> String? {
  guard let text, !text.isEmpty else { return nil }
  return text
}
