/// Where swift-syntax parses the files that a scan cannot take from its cache.
///
/// swift-syntax's parser is not hardened against hostile input: some constructs repeated thousands of
/// times (`try try try ...`, `(Int) -> (Int) -> ...`, nested `#if` around attributes, `[[[[...`) overflow
/// its stack, a crash no caller can catch, and some (`some some some ...`) take quadratic time. Parsing
/// in worker processes contains both: a worker that dies or overruns its time limit costs its file a
/// warning, and the scan goes on with a fresh worker.
public enum ParseIsolation: Sendable, Equatable {
  /// Parse in this process, on all cores. For sources that are trusted not to be hostile (tests).
  case inProcess
  /// Parse in worker processes started as `executable _scan-worker` (the `trackc` binary itself), one
  /// per core, each file within `ScanOptions.fileTimeLimit`.
  case workerProcesses(executable: String)

  /// Worker processes running this program, if the platform says where it is; else in-process.
  public static var isolatedIfPossible: ParseIsolation {
    Platform.executablePath.map { .workerProcesses(executable: $0) } ?? .inProcess
  }
}
