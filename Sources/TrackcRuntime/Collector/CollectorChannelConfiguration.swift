import Foundation

/// How to reach a collector, made by `CollectorChannelConfiguration.Builder`: a configuration that exists is
/// usable (an endpoint over HTTP(S), a batch of at least one event), so misuse is an error when it is
/// built, not at the first send.
public struct CollectorChannelConfiguration: Sendable {
  /// The batch endpoint (`…/v1/batch`).
  public let endpoint: URL
  /// Sent as `Authorization: Basic base64("<writeKey>:")` when set.
  public let writeKey: String?
  public let batchLimits: BatchLimits
  /// The largest body the collector takes, decompressed (Segment: 500 KB); a larger batch is split
  /// before it is sent.
  public let maximumBodyBytes: Int
  public let gzip: Bool
  /// The backoff after failed uploads (network errors, 5xx, 429 and 503 without `Retry-After`).
  public let retry: RetryPolicy
  /// App keepers, asked before `ChannelKeepers.defaults`.
  public let keepers: [any ChannelKeeper]
  /// The per-install ID every event carries (Segment requires `userId` or `anonymousId`).
  public let anonymousID: String
  public let requestTimeout: TimeInterval

  public static func builder() -> Builder { Builder() }

  /// Collects settings; `build()` checks them.
  public struct Builder: Sendable {
    private var endpoint: URL?
    private var writeKey: String?
    private var maximumEvents = 500
    private var maximumBytes = 128 * 1024
    private var maximumAge: TimeInterval = 10
    private var maximumBodyBytes = 500_000
    private var gzip = true
    private var retry = RetryPolicy(initial: 1, maximum: 300)
    private var keepers: [any ChannelKeeper] = []
    private var anonymousID: String?
    private var requestTimeout: TimeInterval = 30

    public init() {}

    /// The collector's base URL (`http://127.0.0.1:9000`, `/v1/batch` is added) or its batch endpoint.
    public func endpoint(_ url: URL) -> Builder { with { $0.endpoint = url } }
    public func writeKey(_ key: String) -> Builder { with { $0.writeKey = key } }
    /// Upload at `events` events, at `bytes` of journal records, or `seconds` after the first event waits.
    public func batch(events: Int, bytes: Int = 128 * 1024, seconds: TimeInterval = 10) -> Builder {
      with {
        $0.maximumEvents = events
        $0.maximumBytes = bytes
        $0.maximumAge = seconds
      }
    }
    public func maximumBodyBytes(_ bytes: Int) -> Builder { with { $0.maximumBodyBytes = bytes } }
    public func gzip(_ enabled: Bool) -> Builder { with { $0.gzip = enabled } }
    public func retry(_ policy: RetryPolicy) -> Builder { with { $0.retry = policy } }
    /// Adds a keeper before the defaults (earlier calls first).
    public func keeper(_ keeper: any ChannelKeeper) -> Builder { with { $0.keepers.append(keeper) } }
    public func anonymousID(_ id: String) -> Builder { with { $0.anonymousID = id } }
    public func requestTimeout(_ seconds: TimeInterval) -> Builder { with { $0.requestTimeout = seconds } }

    public func build() throws(CollectorChannelConfigurationError) -> CollectorChannelConfiguration {
      guard let endpoint else { throw .missingEndpoint }
      guard let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https", endpoint.host != nil else {
        throw .notHTTP(endpoint.absoluteString)
      }
      guard maximumEvents > 0 else { throw .zeroBatchSize }
      guard maximumBytes > 0, maximumBodyBytes >= 1024 else { throw .byteLimitTooSmall }
      guard maximumAge >= 0, requestTimeout > 0 else { throw .negativeInterval }
      let path = endpoint.path
      let batchEndpoint = path.isEmpty || path == "/" ? endpoint.appendingPathComponent("v1").appendingPathComponent("batch") : endpoint
      return CollectorChannelConfiguration(
        endpoint: batchEndpoint, writeKey: writeKey,
        batchLimits: BatchLimits(maximumEvents: maximumEvents, maximumBytes: maximumBytes, maximumAge: maximumAge),
        maximumBodyBytes: maximumBodyBytes, gzip: gzip, retry: retry, keepers: keepers,
        anonymousID: anonymousID ?? AnonymousID.installation, requestTimeout: requestTimeout)
    }

    private func with(_ change: (inout Builder) -> Void) -> Builder {
      var copy = self
      change(&copy)
      return copy
    }
  }
}

/// Why a collector configuration could not be built.
public enum CollectorChannelConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  case missingEndpoint
  case notHTTP(String)
  case zeroBatchSize
  case byteLimitTooSmall
  case negativeInterval

  public var description: String {
    switch self {
    case .missingEndpoint: return "a collector needs an endpoint"
    case .notHTTP(let url): return "the collector endpoint must be an http or https URL with a host: \(url)"
    case .zeroBatchSize: return "a batch holds at least one event"
    case .byteLimitTooSmall: return "byte limits must be positive (the body limit at least 1024)"
    case .negativeInterval: return "intervals cannot be negative, and the request timeout must be positive"
    }
  }
}

/// The per-install anonymous ID: made once and kept in the user defaults.
public enum AnonymousID {
  static let key = "trackc.anonymousId"

  public static let installation: String = {
    let defaults = UserDefaults.standard
    if let stored = defaults.string(forKey: key), !stored.isEmpty { return stored }
    let made = UUID().uuidString.lowercased()
    defaults.set(made, forKey: key)
    return made
  }()
}
