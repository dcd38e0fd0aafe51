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
/// from a shared queue, largest first so that no core is left with a big file at the end. A worker has
/// two files at a time, so that it never waits for the next; it parses them in order, so when it dies
/// or overruns the time limit, the file it was on is the older one: that file gets a warning, the other
/// goes to the replacement worker, and the rest go on.
enum WorkerPool {
  typealias Parsed = Result<(scan: FileScan, hash: String), ScanFailure>

  /// - Parameter sizes: the files' sizes, for the order of work.
  static func parse(
    _ requests: [ScanWorker.Request], sizes: [Int], executable: String, workers: Int, timeLimit: Duration
  ) -> [Parsed] {
    guard !requests.isEmpty else { return [] }
    let queue = WorkQueue(order: requests.indices.sorted { sizes[$0] > sizes[$1] })
    let workerCount = max(1, min(workers, requests.count))
    let answered = Parallel.map(workerCount) { _ in
      var results: [(Int, Parsed)] = []
      var retry: [Int] = []
      var worker: WorkerProcess?
      var inFlight: [(index: Int, sent: ContinuousClock.Instant)] = []
      var lastAnswer = ContinuousClock.now
      while true {
        while inFlight.count < 2, let index = retry.popLast() ?? queue.next() {
          if worker == nil {
            worker = WorkerProcess(executable: executable)
            lastAnswer = .now
          }
          if let running = worker, running.send(requests[index].encoded()) {
            inFlight.append((index, .now))
          } else if worker != nil, !inFlight.isEmpty {
            // The worker is gone while on a file: receiving below finds out which and why.
            retry.append(index)
            break
          } else {
            // No worker could be started, or it ended before taking any work (a process limit, say):
            // parse here rather than not at all.
            worker?.finish()
            worker = nil
            results.append((index, parseInProcess(requests[index])))
          }
        }
        guard let current = inFlight.first, let running = worker else { break }
        // The worker starts on a file when it has answered the one before.
        let deadline = max(current.sent, lastAnswer) + timeLimit
        let outcome = running.receive(deadline: deadline)
        inFlight.removeFirst()
        lastAnswer = .now
        switch outcome {
        case .answer(let response):
          if let scan = response.scan, let hash = response.hash {
            results.append((current.index, .success((scan, hash))))
          } else {
            results.append((current.index, .failure(ScanFailure(reason: response.failure ?? "the parsing process gave no result"))))
          }
          continue
        case .died(let cause):
          results.append(
            (current.index, .failure(ScanFailure(reason: "swift-syntax's parser crashed on this file (\(cause)); it was not read"))))
        case .timedOut:
          results.append(
            (current.index, .failure(ScanFailure(reason: "parsing this file took longer than \(timeLimit.components.seconds) s; it was not read"))))
        }
        // The worker is gone; what it had not started goes to the next one.
        retry += inFlight.map(\.index).reversed()
        inFlight.removeAll()
        worker = nil
      }
      worker?.finish()
      return results
    }
    var ordered = [Parsed?](repeating: nil, count: requests.count)
    for (index, result) in answered.joined() { ordered[index] = result }
    return ordered.map { $0 ?? .failure(ScanFailure(reason: "the file was not parsed")) }
  }

  static func parseInProcess(_ request: ScanWorker.Request) -> Parsed {
    let response = ScanWorker.handle(request)
    guard let scan = response.scan, let hash = response.hash else { return .failure(ScanFailure(reason: response.failure ?? "")) }
    return .success((scan, hash))
  }

  /// Hands out work in a given order, each item once, to whichever worker asks first.
  private final class WorkQueue: @unchecked Sendable {
    private let lock = ConditionLock()
    private var position = 0
    private let order: [Int]

    init(order: [Int]) { self.order = order }

    func next() -> Int? {
      lock.withLock {
        guard position < order.count else { return nil }
        defer { position += 1 }
        return order[position]
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
  private var frames: FrameReader
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
      frames = FrameReader(descriptor: pair[0])
    #else
      return nil
    #endif
  }

  deinit {
    finish()
  }

  /// Sends a request frame; false if the worker is gone.
  func send(_ payload: [UInt8]) -> Bool {
    Frame.write(payload, to: socket, socket: true)
  }

  /// Waits for the next answer until the deadline; a worker that overruns it is killed.
  func receive(deadline: ContinuousClock.Instant) -> Outcome {
    switch frames.next(deadline: deadline) {
    case .frame(let payload):
      guard let response = payload.withUnsafeBytes({ ScanWorker.Response.decode($0) }) else {
        kill(pid, SIGKILL)
        _ = reap()
        return .died("it answered with something unreadable")
      }
      return .answer(response)
    case .timedOut:
      kill(pid, SIGKILL)
      _ = reap()
      return .timedOut
    case .ended, .failed:
      return .died(reap())
    }
  }

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
