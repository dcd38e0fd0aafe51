import Dispatch
import Subprocess

/// Why a file could not be scanned; it becomes a `swift-source` warning on the file.
struct ScanFailure: Error, Sendable {
  var reason: String

  /// How every problem that leaves a whole file unread ends (a crash, a timeout, a file too large or not
  /// UTF-8): `ScanResult.unreadFiles` is read from it, the scan cache keeping such problems as scans.
  static let notRead = "; it was not read"
}

/// Parses files in worker processes (see `ParseIsolation`), one per core, each taking the next file
/// from a shared queue, largest first so that no core is left with a big file at the end. A worker has
/// two files at a time, so that it never waits for the next; it parses them in order, so when it dies
/// or overruns the time limit, the file it was on is the older one: that file gets a warning, the other
/// goes to the replacement worker, and the rest go on.
///
/// swift-subprocess starts, feeds and reaps the workers (posix_spawn, pipes, and the process monitor of
/// each platform: pidfd and epoll on Linux, kqueue on macOS); this file decides what each one parses.
enum WorkerPool {
  typealias Parsed = Result<(scan: FileScan, hash: String), ScanFailure>

  /// - Parameter sizes: the files' sizes, for the order of work.
  static func parse(
    _ requests: [ScanWorker.Request], sizes: [Int], executable: String, workers: Int, timeLimit: Duration
  ) -> [Parsed] {
    guard !requests.isEmpty else { return [] }
    let queue = WorkQueue(order: requests.indices.sorted { sizes[$0] > sizes[$1] })
    let laneCount = max(1, min(workers, requests.count))
    Platform.ignoreBrokenPipes()
    let answered = waitFor {
      await withTaskGroup(of: [(Int, Parsed)].self) { group in
        for _ in 0..<laneCount {
          group.addTask {
            var lane = Lane(requests: requests, queue: queue, executable: executable, timeLimit: timeLimit)
            return await lane.run()
          }
        }
        var all: [(Int, Parsed)] = []
        for await results in group { all += results }
        return all
      }
    }
    var ordered = [Parsed?](repeating: nil, count: requests.count)
    for (index, result) in answered { ordered[index] = result }
    return ordered.map { $0 ?? .failure(ScanFailure(reason: "the file was not parsed")) }
  }

  static func parseInProcess(_ request: ScanWorker.Request) -> Parsed {
    let response = ScanWorker.handle(request)
    guard let scan = response.scan, let hash = response.hash else { return .failure(ScanFailure(reason: response.failure ?? "")) }
    return .success((scan, hash))
  }

  /// Runs `work` on Swift's concurrency threads and blocks this thread until it is done: the scan is
  /// synchronous (the linter calls it), swift-subprocess is async. The caller's thread waits for the
  /// duration: for a command, one of Swift's concurrency threads, where ArgumentParser runs it.
  private static func waitFor<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Value {
    let box = ResultBox<Value>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      box.value = await work()
      done.signal()
    }
    done.wait()
    return box.value!
  }

  /// Written by the task before it signals, read after the wait: the semaphore orders the two.
  private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
  }

  /// Hands out work in a given order, each item once, to whichever lane asks first.
  private actor WorkQueue {
    private var position = 0
    private let order: [Int]

    init(order: [Int]) { self.order = order }

    func next() -> Int? {
      guard position < order.count else { return nil }
      defer { position += 1 }
      return order[position]
    }
  }

  /// How a worker's run ended.
  private enum WorkerEnd {
    /// Out of work: its input was closed and it exited.
    case finished
    /// It ended (or answered garbage and was killed) while on `index`.
    case died(index: Int, unreadableAnswer: Bool)
    /// It overran the time limit on `index` and was killed.
    case timedOut(index: Int)
    /// It was killed for overrunning just as it answered: nothing to blame.
    case gone
  }

  /// One worker at a time, and its replacements when it dies.
  private struct Lane {
    let requests: [ScanWorker.Request]
    let queue: WorkQueue
    let executable: String
    let timeLimit: Duration
    var results: [(Int, Parsed)] = []
    /// Files for the next worker before any from the queue: those a dead worker had not started.
    var retry: [Int] = []

    init(requests: [ScanWorker.Request], queue: WorkQueue, executable: String, timeLimit: Duration) {
      self.requests = requests
      self.queue = queue
      self.executable = executable
      self.timeLimit = timeLimit
    }

    mutating func run() async -> [(Int, Parsed)] {
      while let index = await nextFile() {
        retry.append(index)
        await runWorker()
      }
      return results
    }

    private mutating func nextFile() async -> Int? {
      if let index = retry.popLast() { return index }
      return await queue.next()
    }

    /// Starts a worker and feeds it files, two at a time, until there are none left or it dies.
    private mutating func runWorker() async {
      var answers: [(Int, Parsed)] = []
      var inFlight: [(index: Int, sent: ContinuousClock.Instant)] = []
      var unsent: [Int] = []
      var retry = self.retry
      let (queue, requests, timeLimit) = (self.queue, self.requests, self.timeLimit)
      // No worker could be started (a process limit, say) unless the run says otherwise.
      var end = WorkerEnd.gone
      var status: TerminationStatus?
      do {
        let run = try await Subprocess.run(
          Platform.executable(atPath: executable), arguments: Arguments([ScanWorker.commandName]),
          // The Swift runtime's crash report would only slow a crashing worker down.
          environment: .inherit.updating(["SWIFT_BACKTRACE": "enable=no"]),
          input: .inputWriter, output: .sequence, error: .discarded
        ) { execution -> WorkerEnd in
          let writer = execution.standardInputWriter
          var frames = AsyncFrameReader(execution.standardOutput.makeAsyncIterator())
          var lastAnswer = ContinuousClock.now
          while true {
            while inFlight.count < 2 {
              var next = retry.popLast()
              if next == nil { next = await queue.next() }
              guard let index = next else { break }
              do {
                _ = try await writer.write(Frame.encode(requests[index].encoded()))
                inFlight.append((index, .now))
              } catch {
                // The worker is gone: receiving below finds out why, if it was on a file.
                unsent.append(index)
                break
              }
            }
            guard let current = inFlight.first else {
              try? await writer.finish()
              return unsent.isEmpty ? .finished : .gone
            }
            // The worker starts on a file when it has answered the one before.
            let deadline = max(current.sent, lastAnswer) + timeLimit
            let watchdog = Task { () -> Bool in
              do {
                try await Task.sleep(until: deadline, clock: .continuous)
              } catch {
                return false
              }
              try? execution.send(signal: .kill)
              return true
            }
            let outcome = await frames.next()
            watchdog.cancel()
            let killed = await watchdog.value
            inFlight.removeFirst()
            lastAnswer = .now
            guard case .frame(let payload) = outcome else {
              return killed ? .timedOut(index: current.index) : .died(index: current.index, unreadableAnswer: false)
            }
            guard let response = payload.withUnsafeBytes({ ScanWorker.Response.decode($0) }) else {
              try? execution.send(signal: .kill)
              return .died(index: current.index, unreadableAnswer: true)
            }
            if let scan = response.scan, let hash = response.hash {
              answers.append((current.index, .success((scan, hash))))
            } else {
              answers.append((current.index, .failure(ScanFailure(reason: response.failure ?? "the parsing process gave no result"))))
            }
            if killed { return .gone }
          }
        }
        end = run.closureResult
        status = run.terminationStatus
      } catch {}
      results += answers
      switch end {
      case .finished, .gone: break
      case .died(let index, let unreadableAnswer):
        let cause: String
        switch status {
        case _ where unreadableAnswer: cause = "it answered with something unreadable"
        case .signaled(let signal): cause = "signal \(signal)"
        case .exited(let code): cause = "exit status \(code)"
        case nil: cause = "it could not be waited for"
        }
        results.append((index, .failure(ScanFailure(reason: "swift-syntax's parser crashed on this file (\(cause))" + ScanFailure.notRead))))
      case .timedOut(let index):
        results.append(
          (index, .failure(ScanFailure(reason: "parsing this file took longer than \(timeLimit.components.seconds) s" + ScanFailure.notRead))))
      }
      // What the worker had not started goes to the next one, in the order it was sent.
      self.retry = retry + unsent.reversed() + inFlight.map(\.index).reversed()
      if answers.isEmpty, case .gone = end, let index = self.retry.popLast() {
        // No worker, or one that ended before answering anything: parse one file here, so that every
        // worker started makes progress, rather than not at all.
        results.append((index, WorkerPool.parseInProcess(requests[index])))
      }
    }
  }
}

/// Frames from a worker's standard output as swift-subprocess delivers it.
private struct AsyncFrameReader {
  var source: SubprocessOutputSequence.Iterator
  var buffer = FrameBuffer()

  init(_ source: SubprocessOutputSequence.Iterator) {
    self.source = source
  }

  mutating func next() async -> FrameOutcome {
    while true {
      do {
        if let payload = try buffer.next() { return .frame(payload) }
        guard let chunk = try await source.next() else { return buffer.isEmpty ? .ended : .failed }
        chunk.withUnsafeBytes { buffer.append($0) }
      } catch {
        return .failed
      }
    }
  }
}
