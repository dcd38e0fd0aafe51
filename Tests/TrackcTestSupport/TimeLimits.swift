import Foundation

/// The one place where the tests' time limits are scaled for an instrumented build.
///
/// Under a sanitizer (`Scripts/sanitize.sh` sets `TRACKC_TEST_TIME_SCALE`: 5) every test runs
/// several times slower, swift-syntax most of all, and the whole suite runs at once on the machine's
/// cores: a limit that bounds a hang in an ordinary build then fails for reasons of instrumentation, not
/// of trackc. The limits stay, scaled; a real hang still ends the run.
public enum TimeLimits {
  /// 1 normally; `TRACKC_TEST_TIME_SCALE` (a whole number) under a sanitizer.
  public static let scale = max(1, ProcessInfo.processInfo.environment["TRACKC_TEST_TIME_SCALE"].flatMap { Int($0) } ?? 1)

  /// `minutes`, scaled: for `.timeLimit(.minutes(TimeLimits.minutes(1)))`.
  public static func minutes(_ minutes: Int) -> Int { minutes * scale }

  /// `seconds`, scaled: for a child process's timeout.
  public static func seconds(_ seconds: Double) -> Double { seconds * Double(scale) }
}
