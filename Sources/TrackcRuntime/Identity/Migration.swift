import Foundation

/// Another analytics SDK the app used before trackc, whose state trackc takes over at its first start
/// (`Trackc.Settings.migration`): the anonymous ID, the user ID and the traits it kept, and the last
/// version and build of the app it saw. So a user keeps their identity (no one is counted twice), and a
/// device that had the app before gets Application Updated, not Application Installed.
///
/// Read once, when the journal's directory has no state of trackc's yet; from then on trackc keeps its
/// own. Nothing is written to the other SDK's store, and nothing is removed from it (an app that goes
/// back to the SDK finds it as it was).
public struct Migration: Sendable, Hashable {
  enum Source: Sendable, Hashable {
    case segment(writeKey: String)
    case amplitude(apiKey: String, instanceName: String)
  }

  let source: Source

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

  /// What a migration found.
  struct Found: Sendable, Hashable {
    var identity: TrackingIdentity
    /// The app's version and build the SDK saw last: it ran on this device before.
    var version: String?
    var build: String?
    var hadApp: Bool
  }

  /// The first of `migrations` whose SDK left something on the device; nil when none did.
  static func read(_ migrations: [Migration]) -> Found? {
    for migration in migrations {
      let found: Found?
      switch migration.source {
      case .segment(let writeKey): found = SegmentStore.read(writeKey: writeKey)
      case .amplitude(let apiKey, let instanceName): found = AmplitudeStore.read(apiKey: apiKey, instanceName: instanceName)
      }
      if let found { return found }
    }
    return nil
  }

  /// An identity from what a store kept: its anonymous ID (a fresh one when it kept none), user ID and traits.
  static func identity(anonymousID: String?, userID: String?, traits: [String: PropertyValue] = [:]) -> TrackingIdentity {
    TrackingIdentity(anonymousID: anonymousID ?? TrackingIdentity.fresh().anonymousID, userID: userID, traits: traits)
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
///   events last saw, in the standard user defaults, `SEGVersionKey` and `SEGBuildKeyV2` (no build
///   stored means its next launch is an install).
enum SegmentStore {
  static func suiteName(writeKey: String) -> String { "com.segment.storage.\(writeKey)" }
  static let anonymousIDKey = "segment.anonymousId"
  static let userIDKey = "segment.userId"
  static let traitsKey = "segment.traits"
  static let versionKey = "SEGVersionKey"
  static let buildKey = "SEGBuildKeyV2"

  static func read(writeKey: String) -> Migration.Found? {
    guard !writeKey.isEmpty, let suite = UserDefaults(suiteName: suiteName(writeKey: writeKey)) else { return nil }
    let anonymousID = nonEmpty(suite.string(forKey: anonymousIDKey))
    let userID = nonEmpty(suite.string(forKey: userIDKey))
    let traits = suite.data(forKey: traitsKey).map(Self.traits) ?? [:]
    let version = nonEmpty(UserDefaults.standard.string(forKey: versionKey))
    let build = nonEmpty(UserDefaults.standard.string(forKey: buildKey))
    guard anonymousID != nil || userID != nil || build != nil else { return nil }
    return Migration.Found(
      identity: Migration.identity(anonymousID: anonymousID, userID: userID, traits: traits), version: version, build: build,
      hadApp: build != nil)
  }

  /// The traits analytics-swift kept: the scalars (strings, numbers, booleans), which is what trackc's
  /// traits hold; nested objects, arrays and nulls are left out.
  static func traits(_ data: Data) -> [String: PropertyValue] {
    guard case .object(let object)? = try? PropertyListDecoder().decode(StoredJSON.self, from: data) else { return [:] }
    var traits: [String: PropertyValue] = [:]
    for (key, value) in object {
      switch value {
      case .bool(let bool): traits[key] = .bool(bool)
      case .string(let string): traits[key] = .string(string)
      case .number(let number):
        let double = NSDecimalNumber(decimal: number).doubleValue
        if double.isFinite, double == double.rounded(), abs(double) < 9_007_199_254_740_992 {
          traits[key] = .int(Int(double))
        } else if double.isFinite {
          traits[key] = .double(double)
        }
      case .null, .array, .object: continue
      }
    }
    return traits
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

/// Where Amplitude-Swift 1.x keeps its state, as its source says (amplitude/Amplitude-Swift, tag v1.18.6):
/// - `Sources/Amplitude/Storages/PersistentStorage.swift`: a user defaults suite per storage,
///   `com.amplitude.storage.<prefix>`, where a prefix not starting with `amplitude-swift` gets it in front;
///   the event storage's prefix is `storage-<apiKey>-<instanceName>` (`getEventStoragePrefix`), so the suite
///   is `com.amplitude.storage.amplitude-swift-storage-<apiKey>-<instanceName>`;
/// - `Sources/Amplitude/Types.swift` (`StorageKey`): `device_id`, `user_id`, `app_version`, `app_build`,
///   strings; `Sources/Amplitude/Amplitude.swift` reads the identity from there, and
///   `Sources/Amplitude/Utilities/DefaultEventUtils.swift` the version and build;
/// - `Sources/Amplitude/Constants.swift`: the default instance is `$default_instance`;
/// - releases before 1.5 (tag v1.3.0, `Configuration.swift`) used the prefix `storage-<instanceName>`, and
///   `migrateApiKeyStorages` in `Amplitude.swift` reads an older `amplitude-swift-<apiKey>`: both are
///   read after the current one, as Amplitude-Swift's own migrations read them.
enum AmplitudeStore {
  static let defaultInstance = "$default_instance"
  static let deviceIDKey = "device_id"
  static let userIDKey = "user_id"
  static let versionKey = "app_version"
  static let buildKey = "app_build"

  /// The suites a release of Amplitude-Swift 1.x may have written, newest first.
  static func suiteNames(apiKey: String, instanceName: String) -> [String] {
    [
      "com.amplitude.storage.amplitude-swift-storage-\(apiKey)-\(instanceName)",
      "com.amplitude.storage.amplitude-swift-storage-\(instanceName)",
      "com.amplitude.storage.amplitude-swift-\(apiKey)",
    ]
  }

  static func read(apiKey: String, instanceName: String) -> Migration.Found? {
    guard !apiKey.isEmpty else { return nil }
    for name in suiteNames(apiKey: apiKey, instanceName: instanceName) {
      guard let suite = UserDefaults(suiteName: name) else { continue }
      let deviceID = nonEmpty(suite.string(forKey: deviceIDKey))
      let userID = nonEmpty(suite.string(forKey: userIDKey))
      let version = nonEmpty(suite.string(forKey: versionKey))
      let build = nonEmpty(suite.string(forKey: buildKey))
      guard deviceID != nil || userID != nil || build != nil || version != nil else { continue }
      return Migration.Found(
        identity: Migration.identity(anonymousID: deviceID, userID: userID), version: version, build: build,
        hadApp: build != nil || version != nil)
    }
    return nil
  }
}

private func nonEmpty(_ text: String?) -> String? {
  guard let text, !text.isEmpty else { return nil }
  return text
}
