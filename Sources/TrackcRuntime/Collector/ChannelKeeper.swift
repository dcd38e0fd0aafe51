import Foundation

/// What the keepers see when a channel has an upload waiting.
public struct KeeperContext: Sendable {
  public var state: ChannelState
  /// As the app last reported it (`CollectorChannel.networkAvailabilityChanged(_:)`).
  public var isOnline: Bool
  /// As the app last reported it (`CollectorChannel.applicationStateChanged(inBackground:)`).
  public var isInBackground: Bool
  /// Failed uploads in a row (network errors, 5xx, 429, 503).
  public var consecutiveFailures: Int
  /// Until when the collector asked to wait (`Retry-After` on 429 or 503).
  public var retryAfter: Date?
  /// Until when the backoff after the last failure lasts (drawn once per failure, with full jitter).
  public var backoffUntil: Date?
  public var now: Date
  /// Uploads waiting in the channel (at most one per destination sharing it).
  public var waitingUploads: Int
}

/// What a keeper decides for the waiting upload.
public enum KeeperDecision: Sendable, Hashable {
  /// Do not upload now (offline, say); ask again when something changes.
  case hold
  /// Upload now.
  case send
  /// Upload now, and ask the destinations sharing the channel to upload partial batches too (the app
  /// went to the background, say).
  case flush
  /// Do not upload before this date.
  case backOff(until: Date)
}

/// One link of the keeper chain (chain of responsibility): decides, or passes (nil) to the next link.
/// The channel asks the chain whenever an upload waits; the first link that decides wins. An app adds
/// its own links before the defaults (`CollectorChannelConfiguration.Builder.keeper(_:)`), for instance to
/// hold uploads on an expensive network.
public protocol ChannelKeeper: Sendable {
  func decide(_ context: KeeperContext) -> KeeperDecision?
}

/// The default chain, in order.
public enum ChannelKeepers {
  public static let defaults: [any ChannelKeeper] = [
    HoldWhenReleased(), HoldWhileOffline(), HonourRetryAfter(), BackOffAfterFailure(), FlushInBackground(), SendNow(),
  ]

  /// A released channel uploads nothing.
  public struct HoldWhenReleased: ChannelKeeper {
    public init() {}
    public func decide(_ context: KeeperContext) -> KeeperDecision? { context.state == .released ? .hold : nil }
  }

  /// Offline: hold (the events wait in the journal), and send in order once back online.
  public struct HoldWhileOffline: ChannelKeeper {
    public init() {}
    public func decide(_ context: KeeperContext) -> KeeperDecision? { context.isOnline ? nil : .hold }
  }

  /// The collector asked to slow down (429, 503 with `Retry-After`).
  public struct HonourRetryAfter: ChannelKeeper {
    public init() {}
    public func decide(_ context: KeeperContext) -> KeeperDecision? {
      guard let until = context.retryAfter, until > context.now else { return nil }
      return .backOff(until: until)
    }
  }

  /// After a failure, wait out the backoff (exponential with full jitter, `RetryPolicy`).
  public struct BackOffAfterFailure: ChannelKeeper {
    public init() {}
    public func decide(_ context: KeeperContext) -> KeeperDecision? {
      guard let until = context.backoffUntil, until > context.now else { return nil }
      return .backOff(until: until)
    }
  }

  /// In the background, upload everything now: the app may be suspended at any moment.
  public struct FlushInBackground: ChannelKeeper {
    public init() {}
    public func decide(_ context: KeeperContext) -> KeeperDecision? { context.isInBackground ? .flush : nil }
  }

  public struct SendNow: ChannelKeeper {
    public init() {}
    public func decide(_ context: KeeperContext) -> KeeperDecision? { .send }
  }

  /// Walks the chain; `.send` if no link decides.
  static func decide(_ chain: [any ChannelKeeper], _ context: KeeperContext) -> KeeperDecision {
    for keeper in chain {
      if let decision = keeper.decide(context) { return decision }
    }
    return .send
  }
}
