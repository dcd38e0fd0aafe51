import Foundation
import Testing
import TrackcTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `trackc collector`, the binary: started on an ephemeral port, sent batches over HTTP, stopped with
/// SIGINT.
@Suite struct CollectorCommandTests {
  /// A `trackc collector` process whose output is read as it comes. Waits are on what it printed or
  /// on its exit, never on time.
  final class RunningCollector: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var output = Data()
    private var errors = Data()
    private var openPipes = 2

    init(_ arguments: [String], in directory: URL = Fixtures.repositoryRoot) throws {
      process.executableURL = URL(fileURLWithPath: TrackcBinary.path)
      process.arguments = ["collector"] + arguments
      process.currentDirectoryURL = directory
      let standardOutput = Pipe()
      let standardError = Pipe()
      process.standardOutput = standardOutput
      process.standardError = standardError
      // Weakly: the pipe's handler outlives the process, and a strong capture kept every collector (its
      // process, pipes and output) alive to the end (LeakSanitizer, under Scripts/sanitize.sh).
      standardOutput.fileHandleForReading.readabilityHandler = { [weak self] handle in
        let data = handle.availableData
        self?.received(data, error: false, handle: handle)
      }
      standardError.fileHandleForReading.readabilityHandler = { [weak self] handle in
        let data = handle.availableData
        self?.received(data, error: true, handle: handle)
      }
      process.terminationHandler = { [weak self] _ in
        guard let self else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
      }
      try process.run()
      // The child has its own copies: with ours closed, its exit closes the pipes (the end of file).
      try standardOutput.fileHandleForWriting.close()
      try standardError.fileHandleForWriting.close()
    }

    private func received(_ data: Data, error: Bool, handle: FileHandle) {
      condition.lock()
      if data.isEmpty {
        // End of file: the process closed the pipe (it exited).
        handle.readabilityHandler = nil
        openPipes -= 1
      } else if error {
        errors += data
      } else {
        output += data
      }
      condition.broadcast()
      condition.unlock()
    }

    var standardOutput: String {
      condition.lock()
      defer { condition.unlock() }
      return String(decoding: output, as: UTF8.self)
    }

    var standardError: String {
      condition.lock()
      defer { condition.unlock() }
      return String(decoding: errors, as: UTF8.self)
    }

    /// Waits until `done` holds for what was printed so far, or the process ended; false then.
    private func wait(timeout: Double, _ done: (String) -> Bool) -> Bool {
      let deadline = Date().addingTimeInterval(timeout)
      condition.lock()
      defer { condition.unlock() }
      while !done(String(decoding: output, as: UTF8.self)) {
        if !process.isRunning && openPipes == 0 { return false }
        if !condition.wait(until: deadline) { return done(String(decoding: output, as: UTF8.self)) }
      }
      return true
    }

    /// The port from the first line, `trackc collector listening on http://127.0.0.1:PORT` (or the host
    /// it was given).
    func port(timeout: Double = 60, host: String = "127.0.0.1") throws -> Int {
      guard wait(timeout: timeout, { $0.contains("\n") }), let line = standardOutput.split(separator: "\n").first else {
        throw CollectorCommandFailure(message: "no port (exited: \(!process.isRunning)): \(standardError)")
      }
      guard line.hasPrefix("trackc collector listening on http://\(host):"), let port = Int(line.split(separator: ":").last ?? "") else {
        throw CollectorCommandFailure(message: "unexpected first line: \(line)")
      }
      return port
    }

    /// Peak resident memory so far, from /proc (kilobytes).
    var peakResidentKilobytes: Int {
      let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Sends `signal` and waits for the exit and the last of its output (the end of both pipes, within
    /// a minute: a pipe another test's child inherited ends only when that child does); the exit status.
    /// The signal is sent again each second while the process runs, as a user presses Ctrl-C again: one
    /// that arrives while the collector is still starting may be lost. After a minute it is killed, and
    /// the status says so.
    @discardableResult
    func stop(with signal: Int32 = SIGINT) -> Int32 {
      let deadline = Date().addingTimeInterval(60)
      while process.isRunning && Date() < deadline {
        kill(process.processIdentifier, signal)
        condition.lock()
        // The termination handler wakes this; a second at most.
        if process.isRunning { _ = condition.wait(until: min(deadline, Date().addingTimeInterval(1))) }
        condition.unlock()
      }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      condition.lock()
      while openPipes > 0 && condition.wait(until: deadline) {}
      condition.unlock()
      return process.terminationStatus
    }

    func interrupt() -> Int32 { stop(with: SIGINT) }
  }

  struct CollectorCommandFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  static func batch(_ events: [(id: String, messageID: String, destination: String)]) -> Data {
    let items = events.map { event in
      #"{"type":"track","event":"\#(event.id)","messageId":"\#(event.messageID)","timestamp":"2026-11-23T10:00:00.123Z","anonymousId":"a","properties":{},"integrations":{"All":false,"\#(event.destination)":true},"context":{"library":{"name":"trackc","version":"0.2.0"},"trackc":{"source":"manual"}}}"#
    }
    return Data(#"{"batch":[\#(items.joined(separator: ","))]}"#.utf8)
  }

  static func post(_ body: Data, port: Int, headers: [String: String] = [:]) async throws -> (Int, String) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/batch")!)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  @Test func collectsChecksPrintsAndWritesEvents() async throws {
    let scratch = try ScratchDirectory("collector-cli")
    defer { scratch.remove() }
    let output = scratch.url.appendingPathComponent("events.ndjson").path
    let remote = try scratch.write("remote.json", #"{"version": 1, "destinations": {"firebase": {"enabled": true}}}"#)
    let collector = try RunningCollector(["--config", "Examples/Shop/tracking.yaml", "--port", "0", "--output", output, "--remote-config", remote])
    let port = try collector.port()

    let body = Self.batch([("CTRL_HOME_FAVORITE", "m-1", "firebase"), ("CTRL_HOME_BANNER", "m-2", "mixpanel")])
    let (status, answer) = try await Self.post(body, port: port)
    #expect(status == 200, "\(answer)")
    let (again, _) = try await Self.post(body, port: port)
    #expect(again == 200)
    let (malformed, error) = try await Self.post(Data("{".utf8), port: port)
    #expect(malformed == 400)
    #expect(error.contains(#""code":"not-json""#))
    let (config, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/v1/config")!)
    #expect(String(decoding: config, as: UTF8.self).contains("firebase"))

    #expect(collector.interrupt() == 0)
    let lines = collector.standardOutput.split(separator: "\n").map(String.init)
    // Sent for the plan's 'firebase', forwarded as Segment knows it (its wire_name).
    #expect(lines.contains { $0.hasPrefix("event      CTRL_HOME_FAVORITE -> Firebase") })
    #expect(lines.contains { $0.hasPrefix("violation  CTRL_HOME_BANNER is not routed to 'mixpanel'") })
    #expect(lines.filter { $0.hasPrefix("duplicate  ") }.count == 2)
    #expect(lines.contains { $0.hasPrefix("rejected   400 POST /v1/batch: the body is not JSON") })
    #expect(lines.contains { $0.hasPrefix("config     200 GET /v1/config") })
    #expect(collector.standardError.contains("2 calls accepted in 2 batches, 2 duplicates"), "\(collector.standardError)")
    let written = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    #expect(written.count == 2)
    #expect(written.allSatisfy { $0.hasPrefix(#"{"kind":"event","type":"track","messageId":"m-"#) })
  }

  /// A collector killed with SIGKILL between two sends of one batch, restarted on the same output:
  /// the second send is all duplicates, none recorded twice.
  @Test func deduplicationSurvivesAKill() async throws {
    let scratch = try ScratchDirectory("collector-kill")
    defer { scratch.remove() }
    let output = scratch.url.appendingPathComponent("events.ndjson").path
    let body = Self.batch((0..<20).map { ("CTRL_HOME_FAVORITE", "k-\($0)", "firebase") })
    let first = try RunningCollector(["--config", "Examples/Shop/tracking.yaml", "--port", "0", "--output", output, "--quiet"])
    let (status, answer) = try await Self.post(body, port: try first.port())
    #expect(status == 200 && answer.contains(#""accepted":20"#), "\(answer)")
    #expect(first.stop(with: SIGKILL) == SIGKILL)
    let second = try RunningCollector(["--config", "Examples/Shop/tracking.yaml", "--port", "0", "--output", output, "--quiet"])
    let (again, repeated) = try await Self.post(body, port: try second.port())
    #expect(again == 200)
    #expect(repeated.contains(#""accepted":0,"duplicates":20"#), "\(repeated)")
    #expect(second.interrupt() == 0)
    #expect(second.standardError.contains("20 message IDs read back from \(output)"), "\(second.standardError)")
    #expect(second.standardError.contains("0 calls accepted in 1 batch, 20 duplicates"), "\(second.standardError)")
    let written = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    #expect(written.count == 20, "each call recorded once")
  }

  /// With --reject-violations, the summary counts the violations of the refused batches apart from
  /// those recorded.
  @Test func refusedViolationsAreCountedApart() async throws {
    let collector = try RunningCollector(["--config", "Examples/Shop/tracking.yaml", "--port", "0", "--reject-violations", "--quiet"])
    let port = try collector.port()
    let (status, _) = try await Self.post(Self.batch([("NOT_IN_PLAN", "v-1", "firebase"), ("CTRL_HOME_BANNER", "v-2", "mixpanel")]), port: port)
    #expect(status == 400)
    #expect(collector.interrupt() == 0)
    #expect(collector.standardError.contains("0 violations in 0 events"), "\(collector.standardError)")
    #expect(collector.standardError.contains("refused for their violations: 4 violations in 2 events"), "\(collector.standardError)")
  }

  @Test func printsJSONLinesAndInjectsFaults() async throws {
    let collector = try RunningCollector([
      "--config", "Examples/Shop/tracking.yaml", "--port", "0", "--format", "json", "--fail-status", "503", "--retry-after", "2",
    ])
    let port = try collector.port()
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/batch")!)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")  // URLSession would say form data
    request.httpBody = Self.batch([("CTRL_HOME_FAVORITE", "f", "firebase")])
    let (_, response) = try await URLSession.shared.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.statusCode == 503)
    #expect(http.value(forHTTPHeaderField: "Retry-After") == "2")
    #expect(collector.interrupt() == 0)
    let lines = collector.standardOutput.split(separator: "\n").dropFirst()
    #expect(lines.map(String.init) == [#"{"kind":"fault","fault":"failure","status":503,"request":"POST /v1/batch"}"#])
    #expect(collector.standardError.contains("503 for 100% of requests"))
  }

  /// Hostile bodies do not grow the process: a gzip bomb (1 GB of zeros) and 64 MB streamed in chunks.
  @Test(.requires(.curl)) func memoryStaysBoundedUnderHostileBodies() async throws {
    let scratch = try ScratchDirectory("collector-memory")
    defer { scratch.remove() }
    let collector = try RunningCollector(["--port", "0", "--quiet"])
    let port = try collector.port()
    _ = try await Self.post(Self.batch([("E", "warm-up", "firebase")]), port: port)
    let before = collector.peakResidentKilobytes

    let bomb = scratch.url.appendingPathComponent("bomb.gz").path
    let made = try ProcessRunner.run(
      "/usr/bin/env", ["python3", "-c", "import gzip; open('\(bomb)', 'wb').write(gzip.compress(bytes(1 << 30), compresslevel=1))"])
    try #require(made.status == 0, "\(made.standardError)")
    let bombAnswer = try ProcessRunner.run(
      "/usr/bin/env",
      [
        "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json", "-H", "Content-Encoding: gzip",
        "--data-binary", "@\(bomb)", "http://127.0.0.1:\(port)/v1/batch",
      ])
    #expect(bombAnswer.standardOutput == "413")

    let big = try scratch.write("big.json", bytes: [UInt8](repeating: UInt8(ascii: " "), count: 64 << 20))
    let chunkedAnswer = try ProcessRunner.run(
      "/usr/bin/env",
      [
        "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json", "-H", "Transfer-Encoding: chunked",
        "--data-binary", "@\(big)", "http://127.0.0.1:\(port)/v1/batch",
      ])
    #expect(chunkedAnswer.standardOutput == "413")

    let after = collector.peakResidentKilobytes
    #expect(collector.interrupt() == 0)
    #expect(before > 0)
    #expect(after - before < 16 * 1024, "peak RSS grew from \(before) KB to \(after) KB")
    #expect(collector.standardError.contains("refused: 2 x 413"), "\(collector.standardError)")
  }

  @Test func aConfigWithErrorsStopsItFromStarting() throws {
    let scratch = try ScratchDirectory("collector-broken")
    defer { scratch.remove() }
    let config = try scratch.write("tracking.yaml", "version: 1\nscreens:\n  Home:\n    page_events:\n      enter: not-an-id\n")
    let result = try TrackcBinary.run("collector", "--config", config, "--port", "0")
    #expect(result.status == 1)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.contains("error:"))
    #expect(result.standardError.contains("the collector needs a config without errors"))
  }

  @Test func invalidFlagsAreUsageErrors() throws {
    for arguments in [
      ["--fail-status", "200"], ["--failure-rate", "2"], ["--port", "70000"], ["--drop-rate", "-1"], ["--dedup-window", "0"],
      ["--reset-rate", "1.5"], ["--reset-after-headers", "-0.1"],
    ] {
      let result = try TrackcBinary.run(["collector", "--port", "0"] + arguments)
      #expect(result.status == 64, "\(arguments): \(result.standardError)")
    }
  }
}

extension TrackcBinary {
  static func run(_ arguments: [String]) throws -> ProcessOutput {
    try ProcessRunner.run(path, arguments, currentDirectory: Fixtures.repositoryRoot)
  }
}
