/// The same screen, compiled with -enable-implicit-dynamic: identical handlers. trackc maps and
/// replaces `onTap(_:)` (and the same with bound properties); `onTapNotReplaced(_:)` is the same method
/// left alone; `onUnmapped(_:)` is a handler the config does not map (so nothing replaces it) on a
/// screen that has replaced ones.
public final class BenchScreen {
  public private(set) var taps = 0
  /// Screen state a bound property reads.
  public var selectedTab = "home"

  public init() {}

  public func onTap(_ value: Int) {
    taps &+= value
  }

  /// Mapped with one bound property (`value`).
  public func onTapOneBound(_ value: Int) {
    taps &+= value
  }

  /// Mapped with two bound properties (`value` and `self.selectedTab`).
  public func onTapBound(_ value: Int) {
    taps &+= value
  }

  public func onTapNotReplaced(_ value: Int) {
    taps &+= value
  }

  public func onUnmapped(_ value: Int) {
    taps &+= value
  }

  /// A handler that does nothing, not mapped: the dynamic call alone (unoptimised, as the direct one).
  @_optimize(none)
  public func onNothing(_ value: Int) {}
}
