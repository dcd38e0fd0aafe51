import Foundation

/// The state of a channel to a collector, as the channel seed describes it.
///
///     created      → connected | disconnected
///     connected    → disconnected
///     disconnected → reconnecting | released
///     reconnecting → connected | disconnected
///     released     → (nothing)
///
/// `connected`: the collector answers (any 2xx or 4xx). `disconnected`: it does not, or asks to slow
/// down (a network error, 5xx, 429, 503); uploads wait as the keepers decide. `reconnecting`: an upload
/// is being tried again after that. `released`: the channel refuses sends with an error for good.
public enum ChannelState: String, Sendable, Hashable, CaseIterable {
  case created, connected, disconnected, reconnecting, released

  /// The states this one may move to.
  public var successors: Set<ChannelState> {
    switch self {
    case .created: return [.connected, .disconnected]
    case .connected: return [.disconnected]
    case .disconnected: return [.reconnecting, .released]
    case .reconnecting: return [.connected, .disconnected]
    case .released: return []
    }
  }
}

/// What a channel refuses.
public enum ChannelError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A transition the state machine does not allow.
  case illegalTransition(from: ChannelState, to: ChannelState)
  /// A send after `release()`.
  case released

  public var description: String {
    switch self {
    case .illegalTransition(let from, let to): return "a channel cannot go from \(from) to \(to)"
    case .released: return "the channel is released"
    }
  }
}

/// The explicit state machine: every transition is checked against `ChannelState.successors`, and
/// observers hear each one. Not thread-safe by itself (the channel calls it under its lock).
struct ChannelStateMachine {
  private(set) var state: ChannelState = .created

  mutating func move(to next: ChannelState) throws(ChannelError) {
    guard state.successors.contains(next) else { throw .illegalTransition(from: state, to: next) }
    state = next
  }
}
