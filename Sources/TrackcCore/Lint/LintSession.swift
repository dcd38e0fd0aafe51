/// Exit statuses, following sysexits(3) where it has a word for the case.
public enum ExitStatus: Int32, Sendable {
  case success = 0
  /// The config has errors (or warnings, under `--strict`).
  case findings = 1
  /// EX_USAGE: the command line is wrong.
  case usage = 64
  /// EX_DATAERR: an input could be read but is not what the command needs (`trackc diff` of a config
  /// that does not parse).
  case dataError = 65
  /// EX_NOINPUT: an input could not be read.
  case noInput = 66
  /// EX_CANTCREAT: an output could not be written.
  case cannotWrite = 73
}

/// What `trackc lint` does for a list of paths, apart from printing: read, lint, decide the exit status.
public struct LintSession: Sendable {
  public var results: [LintResult] = []
  public var unreadable: [InputError] = []

  public init() {}

  public static func run(paths: [String], options: LintOptions = LintOptions()) -> LintSession {
    var session = LintSession()
    for path in paths {
      do {
        let start = ContinuousClock.now
        let source = try ConfigSource.read(path: path, maxBytes: options.maxConfigBytes)
        options.phaseObserver?("read \(path)", ContinuousClock.now - start)
        session.results.append(Linter.lint(source, options: options))
      } catch {
        session.unreadable.append(error)
      }
    }
    return session
  }

  /// Every finding of every file, in presentation order; only errors when `errorsOnly`.
  public func diagnostics(errorsOnly: Bool = false) -> [Diagnostic] {
    let all = results.flatMap(\.diagnostics).sorted(by: Diagnostic.presentationOrder)
    return errorsOnly ? all.filter { $0.severity == .error } : all
  }

  /// 66 when any input could not be read (the check is incomplete, whatever the other files say);
  /// otherwise 1 when there are errors, or warnings under `strict`; otherwise 0.
  public func exitStatus(strict: Bool) -> ExitStatus {
    if !unreadable.isEmpty { return .noInput }
    let all = results.flatMap(\.diagnostics)
    if all.hasErrors || (strict && all.warningCount > 0) { return .findings }
    return .success
  }
}
