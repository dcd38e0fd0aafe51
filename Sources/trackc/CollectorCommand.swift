import ArgumentParser
import Dispatch
import SystemPackage
import TrackcCollector
import TrackcCommands
import TrackcCore

// signal(2), for SIGINT, SIGTERM and SIGPIPE: no package wraps it.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

struct CollectorCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "collector",
    abstract: "Run a local collector that checks every event an app sends against the tracking plan.",
    discussion: """
      Accepts POST /v1/batch in Segment's batch format (what the runtime's HTTP destination and Segment's own libraries send): every call type (track, screen, identify, page, group, alias), deduplicated by messageId. Track and screen calls are checked against the config (known event ID, routed to the destinations it names, static properties of the declared types); every call and each violation is printed as it arrives. With --output, the calls recorded are appended to a file, and read back at the next start so that a resent call is still a duplicate. GET /v1/config serves the --remote-config file.

      The first line printed is 'trackc collector listening on http://HOST:PORT' (with --port 0 the system picks the port). Stop it with Ctrl-C; it then prints what it received to standard error.

      Limits, as Segment's: 500 KB a batch (decompressed), 32 KB an event, answered 413. Anything malformed is answered 400 with a JSON body {"code", "message"}.

      Faults, for testing a client: --fail-status answers every request with a status (3xx with a Location back to the endpoint), or a share of them with --failure-rate; --retry-after adds Retry-After to 429 and 503 (as an HTTP date with --retry-after-date); --delay-ms slows every answer; --drop-rate closes connections without answering, --reset-rate resets them; --reset-after-headers records a batch, sends the answer's headers and resets the connection; --accept-then-fail records a batch and answers 500. Both of those make the client send duplicates. --require-content-length answers 411 to a chunked batch, as some proxies do. --seed makes the choices repeatable.

      Examples:
        trackc collector --config tracking.yaml --port 9000
        trackc collector --config tracking.yaml --port 0 --output events.ndjson --format json
        trackc collector --config tracking.yaml --failure-rate 0.3 --fail-status 503 --retry-after 2 --seed 7
        trackc collector --config tracking.yaml --remote-config remote.json
      """
  )

  enum LineFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @Option(help: ArgumentHelp("The tracking config events are checked against (without it, only the wire format is checked).", valueName: "file"))
  var config: String?

  @Option(help: ArgumentHelp("The port to listen on; 0 lets the system choose.", valueName: "port"))
  var port = 9000

  @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
  var host = "127.0.0.1"

  @Option(name: .shortAndLong, help: ArgumentHelp("Append each accepted event to this file as a JSON line.", valueName: "file"))
  var output: String?

  @Option(help: ArgumentHelp("Serve this file at GET /v1/config (read at every request).", valueName: "file"))
  var remoteConfig: String?

  @Option(help: "How events are printed: text, or json (one object a line).")
  var format: LineFormat = .text

  @Flag(help: "Print only violations, refusals and faults, not every event.")
  var quiet = false

  @Option(help: ArgumentHelp("Require this write key (HTTP Basic, as Segment); other requests get 401.", valueName: "key"))
  var writeKey: String?

  @Flag(help: "Answer 400 to a batch with a plan violation instead of accepting it.")
  var rejectViolations = false

  @Option(help: ArgumentHelp("How many message IDs deduplication remembers (the oldest are forgotten).", valueName: "count"))
  var dedupWindow = CollectorConfiguration.Limits().deduplicationWindow

  @Option(help: ArgumentHelp("Answer injected failures with this status (300-599); alone, every request fails.", valueName: "status"))
  var failStatus: Int?

  @Option(help: ArgumentHelp("The share of requests that fail (0-1), with --fail-status or 503.", valueName: "rate"))
  var failureRate: Double?

  @Option(help: ArgumentHelp("Send Retry-After with 429 and 503 answers.", valueName: "seconds"))
  var retryAfter: Int?

  @Flag(help: "Send Retry-After as an HTTP date rather than as seconds.")
  var retryAfterDate = false

  @Option(help: ArgumentHelp("Wait this long before every answer.", valueName: "milliseconds"))
  var delayMs = 0

  @Option(help: ArgumentHelp("The share of requests (0-1) whose connection is closed without an answer.", valueName: "rate"))
  var dropRate = 0.0

  @Option(help: ArgumentHelp("The share of requests (0-1) whose connection is reset without an answer.", valueName: "rate"))
  var resetRate = 0.0

  @Option(help: ArgumentHelp("The share of batches (0-1) recorded, answered with headers only, then reset.", valueName: "rate"))
  var resetAfterHeaders = 0.0

  @Option(help: ArgumentHelp("The share of batches (0-1) recorded and then answered 500.", valueName: "rate"))
  var acceptThenFail = 0.0

  @Flag(help: "Answer 411 to a batch sent without Content-Length (a chunked body), as some proxies do.")
  var requireContentLength = false

  @Option(help: ArgumentHelp("Seed of the fault choices.", valueName: "number"))
  var seed: UInt64 = 0

  @OptionGroup(title: "Code")
  var code: SourceOptions

  private var faults: CollectorConfiguration.Faults {
    var faults = CollectorConfiguration.Faults()
    faults.failStatus = failStatus
    faults.failureRate = failureRate
    faults.retryAfterSeconds = retryAfter
    faults.retryAfterAsDate = retryAfterDate
    faults.delayMilliseconds = delayMs
    faults.dropRate = dropRate
    faults.resetRate = resetRate
    faults.resetAfterHeadersRate = resetAfterHeaders
    faults.acceptThenFailRate = acceptThenFail
    faults.requireContentLength = requireContentLength
    faults.seed = seed
    return faults
  }

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
    if let problem = faults.problem { throw ValidationError(problem.prefix(1).uppercased() + problem.dropFirst() + ".") }
    guard dedupWindow >= 1 else { throw ValidationError("--dedup-window must be 1 or more.") }
  }

  func run() async throws {
    var configuration = CollectorConfiguration()
    configuration.host = host
    configuration.port = port
    configuration.outputPath = output
    configuration.writeKey = writeKey
    configuration.rejectViolations = rejectViolations
    configuration.remoteConfiguration = remoteConfig.map { .file($0) }
    configuration.limits.deduplicationWindow = dedupWindow
    // Everything is printed and written as it arrives; nothing reads `received` here.
    configuration.limits.retainedEvents = 0
    configuration.limits.retainedViolations = 0
    configuration.faults = faults
    if let config { configuration.plan = try plan(config) }
    let format = format
    let quiet = quiet
    configuration.observer = { records in
      var text = ""
      for record in records {
        if quiet, case .accepted(let event) = record, event.violations.isEmpty { continue }
        if quiet, case .duplicate = record { continue }
        if quiet, case .servedRemoteConfiguration = record { continue }
        let lines = format == .json ? record.jsonLines : record.textLines
        for line in lines { text += line + "\n" }
      }
      StandardOutput.write(text)
    }

    // A reader of standard output that goes away must not stop the collector.
    signal(SIGPIPE, SIG_IGN)
    // Ctrl-C is caught from before the first line: whoever reads that line may interrupt at once.
    let interrupts = Self.interrupts()
    let collector: Collector
    do {
      collector = try await Collector.start(configuration)
    } catch {
      StandardError.write("trackc: error: \(error)\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }
    StandardOutput.write("trackc collector listening on \(collector.baseURL.absoluteString)\n")
    StandardError.write(Self.settingsSummary(configuration, config: config, fromOutput: collector.statistics.messageIDsFromOutput))
    for await _ in interrupts.signals { break }
    for source in interrupts.sources { source.cancel() }
    await collector.stop()
    StandardError.write(Self.statisticsSummary(collector.statistics))
  }

  private func plan(_ path: String) throws -> CollectorPlan {
    var options = LintOptions()
    try code.apply(to: &options)
    let session = LintSession.run(paths: [path], options: options)
    for error in session.unreadable { StandardError.write("trackc: error: \(error)\n") }
    guard let result = session.results.first else { throw ExitCode(ExitStatus.noInput.rawValue) }
    do {
      var plan = try CollectorPlan(lintResult: result)
      plan.planVersion = result.config?.planVersion?.value
      plan.planHash = PlanHash.ofFile(atPath: path)
      return plan
    } catch {
      let findings = TextDiagnosticRenderer.render(result.diagnostics)
      if !findings.isEmpty { StandardError.write(findings) }
      StandardError.write(TextDiagnosticRenderer.summary(result.diagnostics, fileCount: 1) + "; the collector needs a config without errors\n")
      throw ExitCode(ExitStatus.findings.rawValue)
    }
  }

  private static func settingsSummary(_ configuration: CollectorConfiguration, config: String?, fromOutput: Int) -> String {
    var parts: [String] = []
    if let output = configuration.outputPath, fromOutput > 0 {
      parts.append("\(fromOutput) message IDs read back from \(output) (resent calls are duplicates)")
    }
    if let plan = configuration.plan, let config {
      let destinations = plan.destinations.map { "\($0.count) destinations" } ?? "any destination"
      // The plan's version and content hash, when it gives a version (the hash alone says little to a reader).
      let version = plan.planVersion.map { ", plan version \($0) (\(plan.planHash ?? "no hash"))" } ?? ""
      parts.append("checking against \(config) (\(plan.events.count) event IDs, \(destinations)\(version))")
    } else {
      parts.append("no --config: only the wire format is checked")
    }
    let faults = configuration.faults
    var injected: [String] = []
    if faults.effectiveFailureRate > 0 { injected.append("\(faults.effectiveFailStatus) for \(Int(faults.effectiveFailureRate * 100))% of requests") }
    if faults.dropRate > 0 { injected.append("dropping \(Int(faults.dropRate * 100))% of connections") }
    if faults.resetRate > 0 { injected.append("resetting \(Int(faults.resetRate * 100))% of connections") }
    if faults.resetAfterHeadersRate > 0 {
      injected.append("resetting \(Int(faults.resetAfterHeadersRate * 100))% of batches after the answer's headers")
    }
    if faults.acceptThenFailRate > 0 { injected.append("500 after recording \(Int(faults.acceptThenFailRate * 100))% of batches") }
    if faults.delayMilliseconds > 0 { injected.append("answers delayed \(faults.delayMilliseconds) ms") }
    if faults.requireContentLength { injected.append("411 for batches without Content-Length") }
    if let seconds = faults.retryAfterSeconds { injected.append("Retry-After \(seconds) s" + (faults.retryAfterAsDate ? " as a date" : "")) }
    if !injected.isEmpty { parts.append("faults: " + injected.joined(separator: ", ") + " (seed \(faults.seed))") }
    return "trackc: " + parts.joined(separator: "; ") + "\n"
  }

  static func statisticsSummary(_ statistics: CollectorStatistics) -> String {
    func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : noun.hasSuffix("h") ? "es" : "s")" }
    var text = "trackc: \(count(statistics.acceptedEvents, "call")) accepted in \(count(statistics.acceptedBatches, "batch"))"
    let types = CallType.allCases.compactMap { type in statistics.acceptedByType[type].map { "\($0) \(type.rawValue)" } }
    if types.count > 1 { text += " (" + types.joined(separator: ", ") + ")" }
    text += ", \(count(statistics.duplicates, "duplicate")), \(count(statistics.violations, "violation")) in "
    text += "\(count(statistics.eventsWithViolations, "event")), \(count(statistics.requests, "request"))"
    if statistics.refusedViolations > 0 {
      text += "; refused for their violations: \(count(statistics.refusedViolations, "violation")) in "
      text += "\(count(statistics.refusedEventsWithViolations, "event"))"
    }
    let rejected = statistics.rejectedByStatus.sorted { $0.key < $1.key }.map { "\($0.value) x \($0.key)" }
    if !rejected.isEmpty { text += "; refused: " + rejected.joined(separator: ", ") }
    if statistics.injectedFailures + statistics.droppedConnections + statistics.resetConnections + statistics.failedAfterRecording > 0 {
      text += "; faults: \(count(statistics.injectedFailures, "failure")), \(statistics.droppedConnections) dropped, "
      text += "\(statistics.resetConnections) reset, \(statistics.failedAfterRecording) failed after recording"
    }
    return text + "\n"
  }

  /// SIGINT and SIGTERM from now on, as a stream (a signal before anyone awaits it is kept), and the
  /// sources to cancel once one came. Installed before the server starts: a source listens only once
  /// the dispatch manager has registered it, a moment after `resume()`, and a signal in that moment is
  /// ignored, so the start-up gives it that moment before anyone can read the first line and interrupt.
  private static func interrupts() -> (signals: AsyncStream<Int32>, sources: [any DispatchSourceSignal]) {
    let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
    let sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { continuation.yield(number) }
      source.resume()
      return source
    }
    return (signals, sources)
  }
}

enum StandardOutput {
  static func write(_ text: String) {
    guard !text.isEmpty else { return }
    _ = try? FileDescriptor.standardOutput.writeAll(text.utf8)
  }
}
