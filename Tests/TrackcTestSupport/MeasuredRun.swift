import Foundation

// Foundation re-exports the C library on every platform (Glibc on Linux, Darwin on macOS): posix_spawn,
// wait4 and kill are POSIX and spelled alike on both. The one difference is below (`ru_maxrss`'s unit).
// Compiled and run on Linux; the Darwin branch is not compiled here (see docs/platforms.md).

/// A child process run with a deadline, reporting its peak memory (maximum resident set size).
public struct MeasuredRun: Sendable {
  public var status: Int32
  public var standardOutput: String
  public var standardError: String
  public var maxResidentKilobytes: Int
  /// Whether the test process's own peak hides the child's: Linux starts a child's `ru_maxrss` at the
  /// size of the memory it was spawned from (posix_spawn shares the parent's until exec), so a child
  /// no larger than this test process reads as the test process's peak.
  public var peakMaskedByTestProcess = false

  /// The child's peak memory stayed under `kilobytes`, or no larger than the test process's own peak
  /// (then only a child larger than the test process can be seen, and it would be).
  public func peakStaysUnder(_ kilobytes: Int) -> Bool { maxResidentKilobytes < kilobytes || peakMaskedByTestProcess }
  public var timedOut: Bool
  public var seconds: Double

  /// Spawns `executable`, kills it after `timeout` seconds, and reads its rusage with `wait4` (no
  /// process API reports a child's peak memory: Foundation's `Process` and swift-subprocess reap the
  /// child themselves).
  public static func run(_ executable: String, _ arguments: [String], timeout: Double) throws -> MeasuredRun {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let outPath = directory.appendingPathComponent("stdout").path
    let errPath = directory.appendingPathComponent("stderr").path

    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for variable in environment { free(variable) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environment)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }

    let start = Date()
    var status: Int32 = 0
    var usage = rusage()
    // A watchdog kills the child at the deadline; the wait below blocks until the child is gone either way.
    // The child is waited for without being reaped (WNOWAIT), so its process ID stays its own until the
    // watchdog is disarmed; only then is it reaped, with its resource usage.
    let watchdog = Watchdog(pid: pid)
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { watchdog.fire() }
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
    let timedOut = watchdog.disarm()
    while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
    let seconds = Date().timeIntervalSince(start)
    let exited = (status & 0x7F) == 0
    var own = rusage()
    getrusage(0, &own)  // RUSAGE_SELF: 0 on Linux and Darwin (glibc spells it as an enum)
    var run = MeasuredRun(
      status: exited ? (status >> 8) & 0xFF : -(status & 0x7F),
      standardOutput: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
      standardError: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
      maxResidentKilobytes: kilobytes(maxResidentSize: Int(usage.ru_maxrss)),
      timedOut: timedOut,
      seconds: seconds)
    run.peakMaskedByTestProcess = run.maxResidentKilobytes <= kilobytes(maxResidentSize: Int(own.ru_maxrss))
    return run
  }

  /// Kills the child when the deadline passes first; says whether it did.
  private final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private let pid: pid_t
    private var done = false
    private var killed = false

    init(pid: pid_t) { self.pid = pid }

    func fire() {
      lock.withLock {
        guard !done else { return }
        killed = true
        kill(pid, SIGKILL)
      }
    }

    /// Stops the watchdog before the child is reaped; whether it killed the child.
    func disarm() -> Bool {
      lock.withLock {
        done = true
        return killed
      }
    }
  }

  /// `ru_maxrss` is in kilobytes on Linux and in bytes on macOS.
  private static func kilobytes(maxResidentSize: Int) -> Int {
    #if canImport(Darwin)
      return maxResidentSize / 1024
    #else
      return maxResidentSize
    #endif
  }
}
