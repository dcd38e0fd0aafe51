/// Times the phases of a run for `LintOptions.phaseObserver`; free when nobody observes.
struct PhaseClock {
  let observer: (@Sendable (String, Duration) -> Void)?
  private var last: ContinuousClock.Instant?

  init(observer: (@Sendable (String, Duration) -> Void)?) {
    self.observer = observer
    last = observer == nil ? nil : ContinuousClock.now
  }

  mutating func lap(_ phase: String) {
    guard let observer, let last else { return }
    let now = ContinuousClock.now
    observer(phase, now - last)
    self.last = now
  }
}
