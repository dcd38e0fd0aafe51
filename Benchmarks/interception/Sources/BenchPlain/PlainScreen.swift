/// A screen as an app compiles it without trackc.
public final class PlainScreen {
  public private(set) var taps = 0

  public init() {}

  @inline(never)
  public func onTap(_ value: Int) {
    taps &+= value
  }

  /// A handler that does nothing: the call alone (unoptimised, or the call would be removed).
  @_optimize(none)
  public func onNothing(_ value: Int) {}
}
