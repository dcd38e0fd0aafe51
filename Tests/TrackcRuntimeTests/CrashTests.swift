import Foundation
import Testing
@_spi(Generated) import TrackcRuntime
import TrackcTestSupport

/// The crash test: a child process (`trackc-crash-child`) tracks numbered events as fast as it can and
/// reports each acknowledged number over a pipe; it is killed with SIGKILL at random moments and
/// restarted, again and again; at the end the receiving side holds every acknowledged event exactly once
/// after deduplication. Raw duplicates are counted and reported.
///
/// Runs alternate between a child tracking as fast as it can, killed at a random moment the parent draws
/// from the seed (by a timer of the child's own; kills land in the middle of appends, which the test sees
/// as a torn record at the end of the newest segment, and of deliveries), and a child tracking at a pace,
/// killed by itself right after its destination took an event and before the cursor moved (the kill
/// between the collector's 2xx and the cursor's advance). `TRACKC_CRASH_KILLS` sets the number of runs
/// (24 by default; a soak: `TRACKC_CRASH_KILLS=1000 swift test --filter CrashTests`).
@Suite struct CrashTests {
  static let childPath = BuiltExecutable.path(named: "trackc-crash-child")

  /// Reads a child's standard output until it closes.
  final class Acknowledgements: @unchecked Sendable {
    /// Guards `bytes` and `ended`; broadcast at each chunk read and at the end of the output.
    private let arrived = NSCondition()
    private var bytes: [UInt8] = []
    private var ended = false
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
      let thread = Thread { [self] in
        while true {
          let chunk = handle.availableData
          arrived.lock()
          if chunk.isEmpty { ended = true } else { bytes.append(contentsOf: chunk) }
          arrived.broadcast()
          arrived.unlock()
          if chunk.isEmpty { break }
        }
        done.signal()
      }
      thread.start()
    }

    /// Waits for the first acknowledgement (or the end of the output) at most `timeout` seconds.
    func waitForFirst(timeout: TimeInterval) {
      waitFor(1, timeout: timeout)
    }

    /// Waits until `count` acknowledgements are in (or the output ended) at most `timeout` seconds.
    func waitFor(_ count: Int, timeout: TimeInterval) {
      let deadline = Date(timeIntervalSinceNow: timeout)
      arrived.lock()
      defer { arrived.unlock() }
      while bytes.count / 8 < count && !ended && arrived.wait(until: deadline) {}
    }

    var count: Int {
      arrived.lock()
      defer { arrived.unlock() }
      return bytes.count / 8
    }

    var text: String {
      done.wait()
      return String(decoding: bytes, as: UTF8.self)
    }

    /// Every whole number reported (a number cut by the kill was never reported).
    func numbers() -> [Int] {
      done.wait()
      return stride(from: 0, to: bytes.count - 7, by: 8).map { offset in
        Int(UInt64(littleEndian: bytes[offset..<(offset + 8)].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
      }
    }
  }

  struct Run {
    let process: Process
    let acknowledgements: Acknowledgements
    let errors: Acknowledgements
    /// Signalled when the child has exited.
    let exited: DispatchSemaphore

    /// Kills the child with SIGKILL (unless it has ended), waits for it, checks that SIGKILL is what it
    /// died of, and returns the numbers it acknowledged.
    func killed(run: Int, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) -> [Int] {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      #expect(
        process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
        "run \(run): the child must die of SIGKILL only, not crash or exit (status \(process.terminationStatus)); seed \(seed)",
        sourceLocation: sourceLocation)
      return acknowledgements.numbers()
    }
  }

  /// Starts the crash child with `arguments`; with `killAfter` (`first 1200`: 1,200 µs after its first
  /// acknowledged event; `revoked 0`), the child kills itself with SIGKILL at that moment.
  static func start(_ arguments: [String], killAfter: String? = nil) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: childPath)
    process.arguments = arguments
    if let killAfter { process.environment = ProcessInfo.processInfo.environment.merging(["TRACKC_CRASH_KILL": killAfter]) { $1 } }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    try output.fileHandleForWriting.close()
    try errors.fileHandleForWriting.close()
    return Run(
      process: process, acknowledgements: Acknowledgements(output.fileHandleForReading), errors: Acknowledgements(errors.fileHandleForReading),
      exited: exited)
  }

  /// What the runs of `killRepeatedly` did.
  struct Kills {
    var acknowledged = Set<Int>()
    var atSeededMoments = 0
    var byChildItself = 0
    /// Kills at a seeded moment that left a torn record at the end of the newest segment.
    var duringAppend = 0
  }

  /// Starts the child `runs` times, alternating a child tracking as fast as it can, killed at a seeded
  /// random moment, and a child tracking at a pace, left to kill itself after a delivery (at
  /// `selfKillRate`); each must die of SIGKILL and nothing else.
  static func killRepeatedly(runs: Int, journal: String, receiver: String, selfKillRate: String, seed: UInt64) throws -> Kills {
    var generator = SeededGenerator(seed: seed)
    var kills = Kills()
    for run in 0..<runs {
      let selfKilling = run % 2 == 1
      // The moment of a parent's kill, from the seed: 0 - 40 ms after the child's first acknowledged
      // event, which the child carries out itself (its own timer), so that it falls anywhere in its
      // cycle of appending, recovering and delivering. A self-killing child tracks at a pace that lets
      // delivery catch up (so the backlog stays bounded however many runs), and gets a few seconds to
      // kill itself while delivering.
      let killAfter = selfKilling ? nil : "first \(Int.random(in: 0...40_000, using: &generator))"
      let child = try start(
        [selfKilling ? "paced" : "track", journal, receiver, String(run * 100_000_000), selfKilling ? selfKillRate : "0"], killAfter: killAfter)
      let started = Date()
      child.acknowledgements.waitForFirst(timeout: 30)
      if selfKilling {
        _ = child.exited.wait(timeout: .now() + max(0, 5 - Date().timeIntervalSince(started)))
      } else {
        let died = child.exited.wait(timeout: .now() + TimeLimits.seconds(60)) == .success
        #expect(died, "run \(run): the child must kill itself at its moment (\(killAfter ?? "")); seed \(seed)")
      }
      kills.acknowledged.formUnion(child.killed(run: run, seed: seed))
      if child.errors.text.contains("self-kill") { kills.byChildItself += 1 } else { kills.atSeededMoments += 1 }
      if (try? JournalFile.newest(in: URL(fileURLWithPath: journal)).endsInATornRecord) == true { kills.duringAppend += 1 }
    }
    return kills
  }

  static var runs: Int { Int(ProcessInfo.processInfo.environment["TRACKC_CRASH_KILLS"] ?? "") ?? 24 }
  static var seed: UInt64 { UInt64(ProcessInfo.processInfo.environment["TRACKC_CRASH_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64(UInt32.max)) }

  @Test func killedAtRandomMomentsLosesNothing() throws {
    let runs = Self.runs
    let seed = Self.seed
    let directory = try TemporaryDirectory()
    let journal = directory.url.appendingPathComponent("journal").path
    let received = directory.url.appendingPathComponent("received.txt").path
    let kills = try Self.killRepeatedly(runs: runs, journal: journal, receiver: received, selfKillRate: "0.002", seed: seed)
    let acknowledged = kills.acknowledged

    let drain = try Self.start(["drain", journal, received])
    drain.process.waitUntilExit()
    #expect(drain.process.terminationStatus == 0, "the drain delivers everything, drops nothing, and the books balance; seed \(seed)")
    let drainReport = drain.acknowledgements.text.trimmingCharacters(in: .whitespacesAndNewlines)

    let lines = try String(contentsOfFile: received, encoding: .utf8).split(separator: "\n")
    var messageIDs: [Int: Set<Substring>] = [:]
    // A kill in the middle of the receiving side's write(2) can leave part of a line: that event was
    // not received (it is delivered again), so the fragment does not count.
    var tornLines = 0
    for line in lines {
      let fields = line.split(separator: " ")
      guard fields.count == 2, let number = Int(fields[0]), fields[1].utf8.count == 36 else {
        tornLines += 1
        continue
      }
      messageIDs[number, default: []].insert(fields[1])
    }
    let lost = acknowledged.subtracting(messageIDs.keys)
    let duplicates = lines.count - tornLines - messageIDs.count
    print(
      "crash test: \(runs) kills (\(kills.atSeededMoments) at a seeded moment, \(kills.duringAppend) of them mid-append; \(kills.byChildItself) between delivery and cursor), "
        + "\(acknowledged.count) acknowledged, \(messageIDs.count) received, \(lost.count) lost, \(duplicates) raw duplicates, "
        + "\(tornLines) lines torn by a kill at the receiving side; "
        + "last start: \(drainReport); seed \(seed)")
    #expect(acknowledged.count > runs, "the children really tracked")
    let lostCount = lost.count
    #expect(lostCount == 0, "lost acknowledged events, e.g. \(lost.sorted().prefix(5)); seed \(seed)")
    #expect(messageIDs.values.allSatisfy { $0.count == 1 }, "a message ID is fixed at acceptance, never regenerated")
    #expect(duplicates <= runs * 64, "at most one in-flight batch per kill")
    #expect(tornLines <= runs)
    if runs >= 20 {
      #expect(kills.byChildItself >= runs / 4, "kills between delivery and the cursor's advance happened")
    }
  }
}

extension JournalFile {
  /// The segment written last.
  static func newest(in directory: URL) throws -> URL {
    let segments = directory.appendingPathComponent("segments")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: segments.path).filter { $0.hasSuffix(".seg") }.sorted().last)
    return segments.appendingPathComponent(name)
  }
}

extension URL {
  /// For a segment file: whether something other than zeros follows its last whole record (an append
  /// cut short by the kill: payload written, length not yet).
  var endsInATornRecord: Bool {
    guard let bytes = try? [UInt8](Data(contentsOf: self)), bytes.count > 8 else { return false }
    let headerLength = Int(bytes[6]) | Int(bytes[7]) << 8
    var offset = (headerLength + 7) & ~7
    while offset + 8 <= bytes.count {
      let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
      if length == 0 || offset + 8 + length > bytes.count { break }
      offset += 8 + length
    }
    return bytes[offset...].contains { $0 != 0 }
  }
}
