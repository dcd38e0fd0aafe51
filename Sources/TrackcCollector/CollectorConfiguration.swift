/// How a collector listens, what it checks, what it keeps and which faults it injects. Tests build one
/// in code; `trackc collector` builds one from its flags.
public struct CollectorConfiguration: Sendable {
  /// The address to listen on; the collector is a development tool, so loopback by default.
  public var host = "127.0.0.1"
  /// 0: any free port (read it from `Collector.port`).
  public var port = 0
  /// What events are checked against; nil checks only the wire format.
  public var plan: CollectorPlan?
  /// When set, batches must come with `Authorization: Basic base64("<writeKey>:")` (else 401).
  public var writeKey: String?
  /// Answer 400 to a batch with a plan violation (nothing of it is recorded), so that a client splits it
  /// down to the offending event; by default violations are recorded and reported, and the batch accepted.
  public var rejectViolations = false
  /// What `GET /v1/config` serves; nil answers 404.
  public var remoteConfiguration: RemoteConfiguration?
  /// Accepted calls are appended here as NDJSON, one line each (see `CollectorRecord.jsonLines`). At
  /// start, the message IDs of the calls already in it are read back, so that a call an earlier run
  /// recorded is a duplicate after a restart too.
  public var outputPath: String?
  public var limits = Limits()
  public var faults = Faults()
  /// Event loop threads.
  public var threads = 2
  /// Called with what each request produced, in the order the collector recorded it (one call per
  /// request, never concurrently with another call).
  public var observer: (@Sendable ([CollectorRecord]) -> Void)?

  public init() {}

  /// How much the collector accepts and remembers. Every bound is on memory: none grows with the input.
  public struct Limits: Sendable, Hashable {
    /// A batch body, decompressed: Segment's limit (500 KB). Larger: 413.
    public var maxBatchBytes = 500 * 1024
    /// One event's JSON: Segment's limit (32 KB). Larger: 413 for its batch.
    public var maxEventBytes = 32 * 1024
    /// How much of a refused body (too large, or refused from its headers) is read and thrown away, so
    /// that the client, still sending, reads the answer instead of a reset connection, and keeps the
    /// connection. Beyond it (a declared length over it, or a body, decompressed, that goes on) the
    /// answer is sent at once and the connection closed. Reading on costs time, not memory.
    public var maxDiscardedBytes = 8 << 20
    /// How many message IDs deduplication remembers, the oldest forgotten first: a call whose ID was
    /// forgotten is accepted again as new (and counted in `forgottenMessageIDs`).
    /// About 50 bytes each (a 128-bit fingerprint, in a set and in a ring).
    public var deduplicationWindow = 1_000_000
    /// How many accepted events `Collector.received` keeps, the oldest dropped first (counted in
    /// `droppedFromMemory`); `--output` and the observer see every one. About 1 KB each (`trackc
    /// collector` keeps none: it prints and writes them).
    public var retainedEvents = 100_000
    /// How many violations `Collector.violations` keeps, likewise.
    public var retainedViolations = 10_000
    /// Connections open at once; more are closed as soon as they are accepted.
    public var maxConnections = 256
    /// A connection that sends nothing for this long (between requests, or in the middle of one) is closed.
    public var idleTimeoutSeconds = 30
    /// The remote configuration file is served up to this size (else 500).
    public var maxRemoteConfigurationBytes = 1 << 20

    public init() {}
  }

  /// Faults to inject, for tests and demos of a client's failure handling. They apply to `POST /v1/batch`
  /// and `GET /v1/config`; decisions come from one generator seeded with `seed`, drawn in request order,
  /// so a run with the same requests in the same order gets the same faults.
  public struct Faults: Sendable, Hashable {
    /// The status of injected failures (300...599; a 3xx answer sends `Location` back to the same
    /// endpoint). Alone, every request fails with it.
    public var failStatus: Int?
    /// The share of requests (0...1) answered `failStatus` (503 when not set) without being recorded.
    /// Nil: 1 when `failStatus` is set, else 0.
    public var failureRate: Double?
    /// Seconds sent as `Retry-After` with 429 and 503 answers (injected or not).
    public var retryAfterSeconds: Int?
    /// Send `Retry-After` as an HTTP date (that many seconds from now) rather than as seconds.
    public var retryAfterAsDate = false
    /// Every answer (and every dropped connection) waits this long first.
    public var delayMilliseconds = 0
    /// The share of requests whose connection is closed after the request is read, without an answer
    /// and without recording anything.
    public var dropRate = 0.0
    /// The share of requests whose connection is reset (a TCP RST) after the request is read, before
    /// any answer, without recording anything.
    public var resetRate = 0.0
    /// The share of batches that are recorded and answered with a status line and headers, after which
    /// the connection is reset before the body: the client sends them again (duplicates).
    public var resetAfterHeadersRate = 0.0
    /// The share of accepted batches that are recorded and then answered 500, so that the client sends
    /// them again (the collector then counts duplicates).
    public var acceptThenFailRate = 0.0
    /// Answer 411 (Length Required) to every batch sent without `Content-Length` (a chunked body), as
    /// some collectors and proxies do.
    public var requireContentLength = false
    public var seed: UInt64 = 0

    public init() {}

    /// The failure share in effect.
    public var effectiveFailureRate: Double { failureRate ?? (failStatus != nil ? 1 : 0) }
    public var effectiveFailStatus: Int { failStatus ?? 503 }

    /// Why the settings cannot be used, in words for a command line; nil when they can.
    public var problem: String? {
      if let failStatus, !(300...599).contains(failStatus) { return "the fail status must be between 300 and 599, not \(failStatus)" }
      for (name, rate) in [
        ("failure rate", failureRate ?? 0), ("drop rate", dropRate), ("reset rate", resetRate), ("reset-after-headers rate", resetAfterHeadersRate),
        ("accept-then-fail rate", acceptThenFailRate),
      ]
      where !(0...1).contains(rate) {
        return "the \(name) must be between 0 and 1, not \(rate)"
      }
      if let retryAfterSeconds, retryAfterSeconds < 0 { return "Retry-After must be 0 seconds or more" }
      if delayMilliseconds < 0 || delayMilliseconds > 3_600_000 { return "the delay must be between 0 and 3,600,000 ms" }
      return nil
    }
  }

  /// What `GET /v1/config` serves, as it is (a client's handling of a bad document is worth testing too).
  public enum RemoteConfiguration: Sendable, Hashable {
    /// Read at every request (edit the file while the collector runs).
    case file(String)
    case document([UInt8])
  }
}
