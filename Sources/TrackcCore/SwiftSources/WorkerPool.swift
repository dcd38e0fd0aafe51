#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be scanned; it becomes a `swift-source` warning on the file.
struct ScanFailure: Error, Sendable {
  var reason: String
}

/// Parses files in worker processes (see `ParseIsolation`), one per core, each taking the next file
/// from a shared queue. Each worker has one file at a time, so when a worker dies or overruns the time
/// limit, the file it had is known: it gets a warning, the worker is replaced, the others go on.
enum WorkerPool {
  static func parse(
    _ requests: [ScanWorker.Request], executable: String, workers: Int, timeLimit: Duration
  ) -> [Result<(scan: FileScan, hash: String), ScanFailure>] {
    guard !requests.isEmpty else { return [] }
    let queue = WorkQueue(count: requests.count)
    let workerCount = max(1, min(workers, requests.count))
    let encoder = JSONEncoder()
    let answered = Parallel.map(workerCount) { _ in
      var results: [(Int, Result<(scan: FileScan, hash: String), ScanFailure>)] = []
      var worker: WorkerProcess?
      while let index = queue.next() {
        if worker == nil { worker = WorkerProcess(executable: executable) }
        guard let running = worker, var line = try? encoder.encode(requests[index]) else {
          // No process could be started (a process limit, say): parse here rather than not at all.
          results.append((index, parseInProcess(requests[index])))
          continue
        }
        line.append(0x0A)
        switch running.ask(line, timeLimit: timeLimit) {
        case .answer(let response):
          if let scan = response.scan, let hash = response.hash {
            results.append((index, .success((scan, hash))))
          } else {
            results.append((index, .failure(ScanFailure(reason: response.failure ?? "the parsing process gave no result"))))
          }
        case .died(let cause):
          results.append((index, .failure(ScanFailure(reason: "swift-syntax's parser crashed on this file (\(cause)); it was not read"))))
          worker = nil
        case .timedOut:
          results.append(
            (index, .failure(ScanFailure(reason: "parsing this file took longer than \(timeLimit.components.seconds) s; it was not read"))))
          worker = nil
        }
      }
      worker?.finish()
      return results
    }
    var ordered = [Result<(scan: FileScan, hash: String), ScanFailure>?](repeating: nil, count: requests.count)
    for (index, result) in answered.joined() { ordered[index] = result }
    return ordered.map { $0 ?? .failure(ScanFailure(reason: "the file was not parsed")) }
  }

  static func parseInProcess(_ request: ScanWorker.Request) -> Result<(scan: FileScan, hash: String), ScanFailure> {
    let response = ScanWorker.handle(request)
    guard let scan = response.scan, let hash = response.hash else { return .failure(ScanFailure(reason: response.failure ?? "")) }
    return .success((scan, hash))
  }

  /// Hands out indices `0..<count`, each once, to whichever worker asks first.
  private final class WorkQueue: @unchecked Sendable {
    private let lock = ConditionLock()
    private var nextIndex = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func next() -> Int? {
      lock.withLock {
        guard nextIndex < count else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
      }
    }
  }
}

/// One worker process, talked to over a socket pair (its standard input and output).
final class WorkerProcess {
  enum Outcome {
    case answer(ScanWorker.Response)
    case died(String)
    case timedOut
  }

  private let pid: pid_t
  private let socket: Int32
  private var reader: [UInt8] = []
  private var finished = false

  /// This program's path (`/proc/self/exe`), to start workers from; nil where there is no such link.
  static let currentExecutable: String? = {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard length > 0 else { return nil }
      return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
      return nil
    #endif
  }()

  /// Starts `executable _scan-worker`; nil if it cannot be started. Its standard error is discarded, and
  /// so is the Swift runtime's crash report (`SWIFT_BACKTRACE`), which would only slow a crash down.
  init?(executable: String) {
    #if canImport(Glibc)
      var pair: [Int32] = [-1, -1]
      guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { return nil }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
      posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup(ScanWorker.commandName), nil]
      defer { arguments.forEach { free($0) } }
      var environment: [UnsafeMutablePointer<CChar>?] = []
      var pointer = environ
      while let entry = pointer.pointee {
        if strncmp(entry, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(entry)) }
        pointer += 1
      }
      environment.append(strdup("SWIFT_BACKTRACE=enable=no"))
      environment.append(nil)
      defer { environment.forEach { free($0) } }
      var pid: pid_t = 0
      let spawned = posix_spawn(&pid, executable, &actions, nil, arguments, environment)
      close(pair[1])
      guard spawned == 0 else {
        close(pair[0])
        return nil
      }
      self.pid = pid
      socket = pair[0]
    #else
      return nil
    #endif
  }

  deinit {
    finish()
  }

  /// Sends one request line and waits for its answer frame, at most `timeLimit`.
  func ask(_ line: Data, timeLimit: Duration) -> Outcome {
    guard line.withUnsafeBytes({ FileDescriptorIO.writeAll(socket, $0, socket: true) }) else { return .died(reap()) }
    let deadline = ContinuousClock.now + timeLimit
    while true {
      if reader.count >= 4 {
        let length = reader.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
        guard length <= Self.maxFrameBytes else {
          kill(pid, SIGKILL)
          _ = reap()
          return .died("it answered with an oversized frame")
        }
        if reader.count >= 4 + length {
          let response = reader.withUnsafeBytes { ScanWorker.Response.decode(UnsafeRawBufferPointer(rebasing: $0[4..<4 + length])) }
          reader.removeFirst(4 + length)
          guard let response else { return .died("it answered with something unreadable") }
          return .answer(response)
        }
      }
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else {
        kill(pid, SIGKILL)
        _ = reap()
        return .timedOut
      }
      var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
      let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
      let ready = poll(&poller, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      if ready <= 0 { continue }
      if FileDescriptorIO.readChunk(socket, into: &reader) <= 0 { return .died(reap()) }
    }
  }

  /// An answer describes one file of at most 8 MiB; a frame larger than this is not an answer.
  static let maxFrameBytes = 256 << 20

  /// Ends the worker: closing its input makes it exit; then it is waited for.
  func finish() {
    guard !finished else { return }
    _ = reap()
  }

  /// Closes the socket, waits for the process, and says how it ended.
  private func reap() -> String {
    guard !finished else { return "it had already ended" }
    finished = true
    close(socket)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7F
    if signal != 0 { return "signal \(signal)" }
    return "exit status \((status >> 8) & 0xFF)"
  }
}
