import Foundation
import Testing
import TrackcTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `trackc collector`, the binary: started on an ephemeral port, sent batches over HTTP, stopped with
/// SIGINT.
@Suite struct CollectorCommandTests {
  /// A `trackc collector` process whose output is read as it comes.
  final class RunningCollector: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var output = Data()
    private var errors = Data()

    init(_ arguments: [String]) throws {
      process.executableURL = URL(fileURLWithPath: TrackcBinary.path)
      process.arguments = ["collector"] + arguments
      process.currentDirectoryURL = Fixtures.repositoryRoot
      let standardOutput = Pipe()
      let standardError = Pipe()
      process.standardOutput = standardOutput
      process.standardError = standardError
      // Weakly: the pipe's handler outlives the process, and a strong capture kept every collector (its
      // process, pipes and output) alive to the end (LeakSanitizer, under Scripts/sanitize.sh).
      standardOutput.fileHandleForReading.readabilityHandler = { [weak self] handle in
        let data = handle.availableData
        guard let self else { return }
        lock.lock()
        output += data
        lock.unlock()
      }
      standardError.fileHandleForReading.readabilityHandler = { [weak self] handle in
        let data = handle.availableData
        guard let self else { return }
        lock.lock()
        errors += data
        lock.unlock()
      }
      try process.run()
    }

    var standardOutput: String {
      lock.lock()
      defer { lock.unlock() }
      return String(decoding: output, as: UTF8.self)
    }

    var standardError: String {
      lock.lock()
      defer { lock.unlock() }
      return String(decoding: errors, as: UTF8.self)
    }

    /// The port from the first line, `trackc collector listening on http://127.0.0.1:PORT`.
    func port(timeout: Double = 60) throws -> Int {
      let deadline = Date().addingTimeInterval(timeout)
      while Date() < deadline {
        if let line = standardOutput.split(separator: "\n").first, standardOutput.contains("\n") {
          guard line.hasPrefix("trackc collector listening on http://127.0.0.1:"), let port = Int(line.split(separator: ":").last ?? "") else {
            throw CollectorCommandFailure(message: "unexpected first line: \(line)")
          }
          return port
        }
        if !process.isRunning { throw CollectorCommandFailure(message: "exited \(process.terminationStatus): \(standardError)") }
        Thread.sleep(forTimeInterval: 0.02)
      }
      throw CollectorCommandFailure(message: "no port after \(timeout) s: \(standardError)")
    }

    /// Peak resident memory so far, from /proc (kilobytes).
    var peakResidentKilobytes: Int {
      let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
      let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
      return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Sends SIGINT and waits for the exit; the exit status.
    func interrupt() -> Int32 {
      kill(process.processIdentifier, SIGINT)
      process.waitUntilExit()
      Thread.sleep(forTimeInterval: 0.1)  // the last output
      return process.terminationStatus
    }
  }

  struct CollectorCommandFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  static func batch(_ events: [(id: String, messageID: String, destination: String)]) -> Data {
    let items = events.map { event in
      #"{"type":"track","event":"\#(event.id)","messageId":"\#(event.messageID)","timestamp":"2026-11-23T10:00:00.123Z","anonymousId":"a","properties":{},"context":{"library":{"name":"trackc","version":"0.1.0"},"trackc":{"destination":"\#(event.destination)","source":"manual"}}}"#
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
    #expect(lines.contains { $0.hasPrefix("event      CTRL_HOME_FAVORITE -> firebase") })
    #expect(lines.contains { $0.hasPrefix("violation  CTRL_HOME_BANNER is not routed to 'mixpanel'") })
    #expect(lines.filter { $0.hasPrefix("duplicate  ") }.count == 2)
    #expect(lines.contains { $0.hasPrefix("rejected   400 POST /v1/batch: the body is not JSON") })
    #expect(lines.contains { $0.hasPrefix("config     200 GET /v1/config") })
    #expect(collector.standardError.contains("2 events accepted in 2 batches, 2 duplicates"), "\(collector.standardError)")
    let written = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
    #expect(written.count == 2)
    #expect(written.allSatisfy { $0.hasPrefix(#"{"kind":"event","event":{"#) })
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
    for arguments in [["--fail-status", "200"], ["--failure-rate", "2"], ["--port", "70000"], ["--drop-rate", "-1"], ["--dedup-window", "0"]] {
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
