import NIOConcurrencyHelpers

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An HTTP answer, before it is written.
struct HTTPAnswer: Sendable {
  var status: Int
  var body: String
  var headers: [(String, String)] = []
  /// Close the connection after answering (the rest of the request was not read).
  var closesConnection = false
  /// An answer to HEAD: the headers (Content-Length included) without the body.
  var omitsBody = false

  static func json(_ status: Int, _ body: String, closesConnection: Bool = false) -> HTTPAnswer {
    HTTPAnswer(status: status, body: body, closesConnection: closesConnection)
  }

  static func rejection(_ rejection: Rejection, closesConnection: Bool = false) -> HTTPAnswer {
    json(
      rejection.status, #"{"code":"# + JSONText.quoted(rejection.code) + #","message":"# + JSONText.quoted(rejection.message) + "}",
      closesConnection: closesConnection)
  }
}

/// What to do with a request before looking at it, as the fault settings decide.
enum FaultDecision: Sendable, Hashable {
  case proceed(afterRecording: AfterRecording)
  case fail(status: Int)
  case drop
  /// A TCP reset instead of an answer.
  case reset

  /// What becomes of a batch once it is recorded.
  enum AfterRecording: Sendable, Hashable {
    case answer
    /// Answered 500 (`acceptThenFailRate`).
    case fail
    /// The answer's head, then a reset (`resetAfterHeadersRate`).
    case resetAfterHeaders
  }
}

/// A seeded pseudo-random generator (SplitMix64): the same seed gives the same faults.
struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// True with probability `rate`.
  mutating func chance(_ rate: Double) -> Bool {
    Double(next() >> 11) * 0x1.0p-53 < rate
  }
}

/// Everything the collector does apart from HTTP: deciding faults, reading batches, deduplicating,
/// checking against the plan, recording, serving the remote configuration. Shared by the connections;
/// the recorded state is behind one lock, taken once per request.
final class CollectorCore: Sendable {
  let configuration: CollectorConfiguration
  private let decoder: BatchDecoder
  private let output: OutputFile?
  private let state: NIOLockedValueBox<State>
  /// The fault settings in effect (`Collector.setFaults` changes them) and the generator of decisions.
  private let faults: NIOLockedValueBox<(settings: CollectorConfiguration.Faults, generator: SeededGenerator)>
  private let remoteDocument: NIOLockedValueBox<CollectorConfiguration.RemoteConfiguration?>
  private let pendingAnswers = NIOLockedValueBox(0)
  /// Announced after each change of the statistics, the connections or the answers pending.
  let changes = Changes()

  struct State: Sendable {
    var deduplication: DeduplicationWindow
    var received: RecentElements<ReceivedEvent>
    var violations: RecentElements<Violation>
    var statistics: CollectorStatistics
  }

  init(configuration: CollectorConfiguration) throws(CollectorError) {
    if let problem = configuration.faults.problem { throw .invalidConfiguration(problem) }
    self.configuration = configuration
    decoder = BatchDecoder(maxEventBytes: configuration.limits.maxEventBytes)
    var deduplication = DeduplicationWindow(capacity: configuration.limits.deduplicationWindow)
    var statistics = CollectorStatistics()
    if let path = configuration.outputPath {
      // What an earlier run recorded is not recorded again: the message IDs of its output, oldest first.
      statistics.messageIDsFromOutput = try OutputFile.recordedMessageIDs(path: path) { deduplication.insert(messageID: $0) }
      output = try OutputFile(path: path)
    } else {
      output = nil
    }
    state = NIOLockedValueBox(
      State(
        deduplication: deduplication, received: RecentElements(capacity: configuration.limits.retainedEvents),
        violations: RecentElements(capacity: configuration.limits.retainedViolations), statistics: statistics))
    faults = NIOLockedValueBox((configuration.faults, SeededGenerator(seed: configuration.faults.seed)))
    remoteDocument = NIOLockedValueBox(configuration.remoteConfiguration)
  }

  // MARK: What was received

  var received: [ReceivedEvent] { state.withLockedValue { $0.received.elements } }

  var answersPending: Int { pendingAnswers.withLockedValue { $0 } }

  func answerPending(_ pending: Bool) {
    pendingAnswers.withLockedValue { $0 += pending ? 1 : -1 }
    changes.announce()
  }
  var violations: [Violation] { state.withLockedValue { $0.violations.elements } }
  var statistics: CollectorStatistics { state.withLockedValue { $0.statistics } }

  func reset() {
    state.withLockedValue { state in
      state.deduplication.removeAll()
      state.received.removeAll()
      state.violations.removeAll()
      state.statistics = CollectorStatistics()
    }
    changes.announce()
  }

  func setRemoteConfiguration(_ source: CollectorConfiguration.RemoteConfiguration?) {
    remoteDocument.withLockedValue { $0 = source }
  }

  // MARK: Faults

  /// Replaces the fault settings; the generator restarts from their seed.
  func setFaults(_ settings: CollectorConfiguration.Faults) throws(CollectorError) {
    if let problem = settings.problem { throw .invalidConfiguration(problem) }
    faults.withLockedValue { $0 = (settings, SeededGenerator(seed: settings.seed)) }
  }

  var faultSettings: CollectorConfiguration.Faults { faults.withLockedValue { $0.settings } }

  /// Draws the fault decisions of one request (always the same number of draws for a kind of request),
  /// and the delay before acting on them.
  func decideFaults(isBatch: Bool) -> (FaultDecision, delayMilliseconds: Int) {
    let (settings, drop, reset, fail, failAfter, resetAfter) = faults.withLockedValue { faults in
      let settings = faults.settings
      return (
        settings,
        settings.dropRate > 0 && faults.generator.chance(settings.dropRate),
        settings.resetRate > 0 && faults.generator.chance(settings.resetRate),
        settings.effectiveFailureRate > 0 && faults.generator.chance(settings.effectiveFailureRate),
        isBatch && settings.acceptThenFailRate > 0 && faults.generator.chance(settings.acceptThenFailRate),
        isBatch && settings.resetAfterHeadersRate > 0 && faults.generator.chance(settings.resetAfterHeadersRate)
      )
    }
    if drop { return (.drop, settings.delayMilliseconds) }
    if reset { return (.reset, settings.delayMilliseconds) }
    if fail { return (.fail(status: settings.effectiveFailStatus), settings.delayMilliseconds) }
    return (.proceed(afterRecording: failAfter ? .fail : resetAfter ? .resetAfterHeaders : .answer), settings.delayMilliseconds)
  }

  func injectedFailure(status: Int, request: String, path: String) -> HTTPAnswer {
    record([.injected(.failure(status: status), request: request)]) { $0.injectedFailures += 1 }
    var answer = HTTPAnswer.rejection(
      Rejection(status: status, code: "injected-failure", message: "failure injected by the collector (--fail-status, --failure-rate)"))
    if (300...399).contains(status) { answer.headers.append(("Location", path)) }
    return withRetryAfter(answer)
  }

  func droppedConnection(request: String) {
    record([.injected(.droppedConnection, request: request)]) { $0.droppedConnections += 1 }
  }

  func resetConnection(request: String, afterRecording: Bool) {
    record([.injected(afterRecording ? .resetAfterHeaders : .reset, request: request)]) { $0.resetConnections += 1 }
  }

  /// A refusal decided from the request line and headers, or while reading the body.
  func rejected(_ rejection: Rejection, request: String, closesConnection: Bool = false) -> HTTPAnswer {
    record([.rejected(rejection, request: request, violations: [])]) { $0.rejectedByStatus[rejection.status, default: 0] += 1 }
    return withRetryAfter(.rejection(rejection, closesConnection: closesConnection))
  }

  func refusedConnection() {
    state.withLockedValue { $0.statistics.refusedConnections += 1 }
    changes.announce()
  }

  private func withRetryAfter(_ answer: HTTPAnswer) -> HTTPAnswer {
    let settings = faultSettings
    guard let seconds = settings.retryAfterSeconds, answer.status == 429 || answer.status == 503 else { return answer }
    var answer = answer
    answer.headers.append(("Retry-After", settings.retryAfterAsDate ? Self.httpDate(Date().addingTimeInterval(Double(seconds))) : String(seconds)))
    return answer
  }

  /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110's IMF-fixdate), rounded up to the next second.
  static func httpDate(_ date: Date) -> String {
    let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT")!
    let seconds = Int(date.timeIntervalSince1970.rounded(.up))
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
    func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
    let weekday = days[((seconds / 86_400) % 7 + 7) % 7]
    return
      "\(weekday), \(two(parts.day)) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
  }

  // MARK: Batches

  /// Reads, checks and records one batch body; the answer to send.
  func acceptBatch(_ body: [UInt8], request: String, afterRecording: FaultDecision.AfterRecording = .answer) -> HTTPAnswer {
    let failAfterRecording = afterRecording == .fail
    let events: [ReceivedEvent]
    do {
      events = try decoder.decode(body, checkingAgainst: configuration.plan, fillIns: Self.fillIns())
    } catch {
      return rejected(error, request: request)
    }
    let violationCount = events.reduce(0) { $0 + $1.violations.count }
    if configuration.rejectViolations && violationCount > 0 {
      let violations = events.flatMap(\.violations)
      let rejection = Rejection.badRequest(
        "plan-violation", "\(violationCount) plan violation\(violationCount == 1 ? "" : "s"), the first: \(violations[0].description)")
      let offending = events.count { !$0.violations.isEmpty }
      record([.rejected(rejection, request: request, violations: violations)]) { statistics in
        statistics.rejectedByStatus[400, default: 0] += 1
        statistics.refusedViolations += violationCount
        statistics.refusedEventsWithViolations += offending
      } retaining: { state in
        for violation in violations { state.violations.append(violation) }
      }
      return .rejection(rejection)
    }

    var accepted = 0
    var duplicates = 0
    var newViolations = 0
    state.withLockedValue { state in
      var records: [CollectorRecord] = []
      records.reserveCapacity(events.count + 1)
      var lines = ""
      for event in events {
        guard state.deduplication.insert(messageID: event.messageID) else {
          duplicates += 1
          records.append(.duplicate(event))
          continue
        }
        accepted += 1
        state.statistics.acceptedByType[event.type, default: 0] += 1
        if !event.violations.isEmpty {
          newViolations += event.violations.count
          state.statistics.eventsWithViolations += 1
          state.statistics.violations += event.violations.count
          for violation in event.violations { state.violations.append(violation) }
        }
        state.received.append(event)
        let record = CollectorRecord.accepted(event)
        if output != nil { lines += record.jsonLines[0] + "\n" }
        records.append(record)
      }
      state.statistics.requests += 1
      state.statistics.acceptedEvents += accepted
      state.statistics.duplicates += duplicates
      state.statistics.forgottenMessageIDs = state.deduplication.forgotten
      state.statistics.droppedFromMemory = state.received.dropped + state.violations.dropped
      if failAfterRecording {
        state.statistics.failedAfterRecording += 1
        records.append(.injected(.failedAfterRecording, request: request))
      } else {
        state.statistics.acceptedBatches += 1
      }
      if let output, !lines.isEmpty, !output.append(lines) { state.statistics.outputFailures += 1 }
      configuration.observer?(records)
    }
    changes.announce()
    if failAfterRecording {
      return .rejection(
        Rejection(status: 500, code: "injected-failure", message: "the batch was recorded, then failed on purpose (--accept-then-fail)"))
    }
    return .json(200, #"{"success":true,"accepted":\#(accepted),"duplicates":\#(duplicates),"violations":\#(newViolations)}"#)
  }

  /// The time now, for calls without a timestamp, and random message IDs for calls without one.
  static func fillIns() -> BatchDecoder.FillIns {
    BatchDecoder.FillIns(receivedAt: Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())) {
      UUID().uuidString.lowercased()
    }
  }

  // MARK: Remote configuration

  func remoteConfiguration(ifNoneMatch: [String], request: String) -> HTTPAnswer {
    guard let source = remoteDocument.withLockedValue({ $0 }) else {
      return rejected(
        Rejection(status: 404, code: "no-remote-configuration", message: "the collector serves no remote configuration (--remote-config)"),
        request: request)
    }
    let document: [UInt8]
    switch source {
    case .document(let bytes):
      document = bytes
    case .file(let path):
      switch FileContents.read(path: path, maxBytes: configuration.limits.maxRemoteConfigurationBytes) {
      case .success(let bytes): document = bytes
      case .failure(let reason):
        return rejected(
          Rejection(status: 500, code: "remote-configuration-unreadable", message: "cannot read '\(path)': \(reason)"), request: request)
      }
    }
    let tag = "\"" + String(FileContents.fingerprint(document), radix: 16) + "\""
    let status = ifNoneMatch.contains(tag) || ifNoneMatch.contains("*") ? 304 : 200
    record([.servedRemoteConfiguration(status: status)]) { _ in }
    var answer = HTTPAnswer.json(status, status == 304 ? "" : String(decoding: document, as: UTF8.self))
    answer.headers = [("ETag", tag), ("Cache-Control", "no-cache")]
    return answer
  }

  // MARK: Recording

  /// Records what one request (read to its end, or refused before) produced.
  private func record(
    _ records: [CollectorRecord], _ count: (inout CollectorStatistics) -> Void, retaining: (inout State) -> Void = { _ in }
  ) {
    state.withLockedValue { state in
      state.statistics.requests += 1
      count(&state.statistics)
      retaining(&state)
      state.statistics.droppedFromMemory = state.received.dropped + state.violations.dropped
      configuration.observer?(records)
    }
    changes.announce()
  }
}
