/// What a collector's answer means for a batch: the runtime's one status policy, as a table. The table
/// in docs/wire-format.md is this one (`markdown`; a test keeps them equal), and the fault-matrix tests
/// drive every row against a real server on 127.0.0.1.
///
/// Nothing is dropped for having been retried many times: a retried batch waits the collector's
/// `Retry-After` (seconds or an HTTP date, at most an hour) when the answer has one, else the tracker's
/// backoff (`RetryPolicy`), and goes again, its events in the same order with the same message IDs.
enum StatusPolicy {
  enum Action: Sendable, Hashable {
    /// The batch is delivered.
    case delivered
    /// The same batch goes again later.
    case retry(RetryReason)
    /// Something in the batch is refused: its halves go separately, and a single event is dropped with
    /// the reason.
    case split(DropReason)
    /// The whole batch is refused for good: dropped (`clientError <status>`), reported to `onDrop`.
    case drop
  }

  struct Row: Sendable {
    /// How the docs name what it matches.
    var answer: String
    var statuses: ClosedRange<Int>?
    var action: Action
    var why: String
  }

  /// The first row that matches an answer decides; the last two are for requests without one.
  static let table: [Row] = [
    Row(answer: "2xx", statuses: 200...299, action: .delivered, why: "delivered"),
    Row(
      answer: "3xx", statuses: 300...399, action: .retry(.redirect),
      why: "never followed (a redirected POST would arrive as a GET or without its body): retried, since a remote configuration may move the endpoint"
    ),
    Row(answer: "400", statuses: 400...400, action: .split(.rejected), why: "an event the collector refuses: the halves go separately to find it"),
    Row(answer: "408", statuses: 408...408, action: .retry(.requestTimeout), why: "the collector timed out reading the request"),
    Row(answer: "410", statuses: 410...410, action: .retry(.gone), why: "retried, as Segment's libraries do"),
    Row(
      answer: "411", statuses: 411...411, action: .retry(.lengthRequired),
      why: "a length is required: every upload carries `Content-Length`, so something on the way (a proxy) asked again; retried, never dropped"),
    Row(answer: "413", statuses: 413...413, action: .split(.tooLarge), why: "the batch, or one event, is too large"),
    Row(answer: "429", statuses: 429...429, action: .retry(.rateLimited), why: "slow down: `Retry-After` is honoured"),
    Row(
      answer: "460", statuses: 460...460, action: .retry(.clientClosedRequest),
      why: "a load balancer saw the client go: retried, as Segment's libraries do"),
    Row(
      answer: "other 4xx", statuses: 401...499, action: .drop,
      why: "refused for good (a wrong write key, say): so that a poison batch never blocks the queue"),
    Row(answer: "5xx", statuses: 500...599, action: .retry(.serverError), why: "the collector failed: `Retry-After` is honoured"),
    Row(answer: "any other status", statuses: 0...Int.max, action: .retry(.unexpectedStatus), why: "not an answer this policy knows"),
    Row(
      answer: "no answer: connection refused, reset, or closed", statuses: nil, action: .retry(.network),
      why: "a connection the collector closed without answering costs one retry, never the request timeout"),
    Row(answer: "no answer: timeout", statuses: nil, action: .retry(.timeout), why: "no byte for the request timeout (30 s by default)"),
  ]

  static func action(status: Int) -> Action {
    table.first { $0.statuses?.contains(status) ?? false }!.action
  }

  /// The outcome the lane acts on for an answer.
  static func outcome(status: Int, retryAfter: Double?) -> BatchOutcome {
    switch action(status: status) {
    case .delivered: return .delivered
    case .retry(let reason): return .retry(after: retryAfter.map { min(max(0, $0), maximumRetryAfter) }, reason: reason)
    case .split(let reason): return .split(whenSingle: reason)
    case .drop: return .drop(.clientError(status))
    }
  }

  /// Longest `Retry-After` honoured (a collector asking for more gets this).
  static let maximumRetryAfter: Double = 3600

  /// The table as docs/wire-format.md shows it.
  static var markdown: String {
    var lines = ["| answer | what happens to the batch | why |", "| --- | --- | --- |"]
    for row in table {
      let action: String
      switch row.action {
      case .delivered: action = "delivered"
      case .retry(let reason): action = "retried (`\(reason)`)"
      case .split(let reason): action = "split; a single event is dropped (`\(reason)`)"
      case .drop: action = "dropped (`clientError <status>`)"
      }
      lines.append("| \(row.answer) | \(action) | \(row.why) |")
    }
    return lines.joined(separator: "\n")
  }
}

extension RetryReason {
  /// A 3xx answer.
  public static let redirect = RetryReason(rawValue: "redirect")
  /// 408.
  public static let requestTimeout = RetryReason(rawValue: "requestTimeout")
  /// 410.
  public static let gone = RetryReason(rawValue: "gone")
  /// 411: a collector or proxy on the way wants a `Content-Length` (every upload carries one).
  public static let lengthRequired = RetryReason(rawValue: "lengthRequired")
  /// 429.
  public static let rateLimited = RetryReason(rawValue: "rateLimited")
  /// 460.
  public static let clientClosedRequest = RetryReason(rawValue: "clientClosedRequest")
  /// A 5xx answer.
  public static let serverError = RetryReason(rawValue: "serverError")
  /// A status no row of the policy names.
  public static let unexpectedStatus = RetryReason(rawValue: "unexpectedStatus")
  /// No answer: the connection was refused, reset or closed.
  public static let network = RetryReason(rawValue: "network")
  /// No answer within the request timeout.
  public static let timeout = RetryReason(rawValue: "timeout")
}

extension DropReason {
  /// A batch answered with a 4xx that the status policy drops (`StatusPolicy`).
  public static func clientError(_ status: Int) -> DropReason { DropReason(rawValue: "clientError \(status)") }
}
