import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Uploads to a collector that speaks Segment's HTTP API (`POST /v1/batch`, docs/wire-format.md):
/// Segment, RudderStack, Jitsu, `trackc collector`. A collector destination (`DestinationRole.collector`):
/// it gets each event once, with the plan's destinations it is for (`integrations`), and the identify
/// and alias calls.
///
/// The body is written from the journal's events when the batch is uploaded (valid JSON by
/// construction), gzipped, and sent with its length (`Content-Length`) and the write key; each event carries the message ID, identity
/// and context fixed when it was tracked, so a retried upload deduplicates at the collector and an
/// event goes out under the identity it was tracked with. What each answer means is `StatusPolicy`'s
/// table; retries wait the tracker's backoff (`RetryPolicy`) or the collector's `Retry-After`.
///
/// Each collector destination has its own session and uploads on its own delivery thread, one request
/// at a time: one that stalls holds back no other destination.
public final class HTTPCollectorDestination: BatchTrackingDestination, @unchecked Sendable {
  public let id: String
  /// The batch endpoint (`…/v1/batch`).
  public let endpoint: URL
  public let batchLimits: BatchLimits
  public var role: DestinationRole { .collector }
  public var receivesConsentUpdates: Bool { true }
  private let authorization: String?
  private let gzip: Bool
  private let uploader: Uploader

  /// - Parameters:
  ///   - endpoint: the collector's base URL (`https://api.segment.io`: `/v1/batch` is added) or its batch endpoint.
  ///   - writeKey: sent as `Authorization: Basic base64("<writeKey>:")`, as Segment expects.
  ///   - id: the name statistics and remote configuration know it by.
  ///   - batch: when a batch goes, and its largest body (500 KB, Segment's limit, by default).
  ///   - gzip: compress bodies (`Content-Encoding: gzip`).
  ///   - requestTimeout: how long a request may go without a byte from the collector.
  /// - Throws: when the endpoint is not an http or https URL with a host.
  public init(
    endpoint: URL, writeKey: String? = nil, id: String = "collector", batch: BatchLimits = .default, gzip: Bool = true,
    requestTimeout: TimeInterval = Defaults.requestTimeout
  ) throws(InvalidEndpoint) {
    guard let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https", endpoint.host != nil else {
      throw InvalidEndpoint(url: endpoint.absoluteString)
    }
    let path = endpoint.path
    self.endpoint = path.isEmpty || path == "/" ? endpoint.appendingPathComponent("v1").appendingPathComponent("batch") : endpoint
    self.id = id
    batchLimits = batch
    self.gzip = gzip
    authorization = writeKey.map { "Basic " + Data(($0 + ":").utf8).base64EncodedString() }
    uploader = Uploader(requestTimeout: max(0.001, requestTimeout))
  }

  /// Why an endpoint cannot be used.
  public struct InvalidEndpoint: Error, Sendable, Hashable, CustomStringConvertible {
    public let url: String
    public var description: String { "the collector endpoint must be an http or https URL with a host: \(url)" }
  }

  /// Requests sent so far (for tests: `Tracker.statistics` is what an app reads).
  var requestsSent: Int { uploader.requestsSent }

  public func deliver(_ batch: [TrackingEvent], completion: @escaping @Sendable (BatchOutcome) -> Void) {
    let json = BatchJSON.body(batch, sentAt: Date())
    guard json.count <= batchLimits.maximumBytes else {
      completion(.split(whenSingle: .tooLarge))
      return
    }
    var body = json
    var headers = ["Content-Type": "application/json"]
    if gzip, let compressed = Gzip.compress(json) {
      body = compressed
      headers["Content-Encoding"] = "gzip"
    }
    if let authorization { headers["Authorization"] = authorization }
    uploader.post(Data(body), to: endpoint, headers: headers) { result in
      switch result {
      case .answered(let status, let retryAfter): completion(StatusPolicy.outcome(status: status, retryAfter: retryAfter))
      case .timedOut: completion(.retry(after: nil, reason: .timeout))
      case .failed: completion(.retry(after: nil, reason: .network))
      }
    }
  }
}

/// One URLSession and what it needs to be safe for uploads: every body goes with its length
/// (`Content-Length`, never a chunked body, which a collector or proxy that needs a length refuses with
/// 411), and no redirect is ever followed (a 3xx comes back as the answer).
///
/// The body is uploaded from memory (`uploadTask(with:from:)`), with `Content-Length` set to its size:
/// what URLSession sends for a body of known size on Apple's platforms and on Linux alike (a body
/// stream goes chunked on both). A request sent on a reused connection that the server had closed is
/// sent again on a fresh one, as HTTP clients do; Apple's URLSession does it itself. On Linux,
/// URLSession (libcurl) asks the delegate for the body again to do it (`needNewBodyStream`), and
/// cannot send a body given as data a second time (it would send the headers and wait for the whole
/// request timeout): so that task is cancelled, and the request goes again here, once, in a new
/// session (the old one may keep the half-sent connection). A second failure is the lane's to retry
/// (`RetryReason.network`): a connection closed without an answer costs at most one retry, never the
/// request timeout.
final class Uploader: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
  enum Result: Sendable {
    case answered(status: Int, retryAfter: Double?)
    case timedOut
    case failed(String)
  }

  private let configuration: URLSessionConfiguration
  private let lock = NSLock()
  // Guarded by `lock`.
  private var session: URLSession!
  private var sent = 0
  /// The tasks (by `taskDescription`) URLSession wanted to send again, cancelled for it (Linux).
  private var resend: Set<String> = []
  /// Where those tasks are cancelled: a queue of its own (a serial queue gets a thread when it has
  /// work), since the global queues' threads may all be taken by waits (`flush`'s, say).
  private let cancels = DispatchQueue(label: "trackc upload: re-sends")

  init(requestTimeout: TimeInterval) {
    configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = requestTimeout
    configuration.httpMaximumConnectionsPerHost = 1
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    super.init()
    session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// A new session for what follows: the cancelled task's connection may be left in the old one's pool
  /// with a request half sent on it, and the next request sent there would fail.
  private func renewSession() {
    let old = lock.withLock {
      let old = session!
      session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
      return old
    }
    old.finishTasksAndInvalidate()
  }

  var requestsSent: Int { lock.withLock { sent } }

  func post(_ body: Data, to url: URL, headers: [String: String], again: Bool = false, completion: @escaping @Sendable (Result) -> Void) {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.setValue(String(body.count), forHTTPHeaderField: "Content-Length")
    let (key, session) = lock.withLock {
      sent += 1
      return (String(sent), self.session!)
    }
    let task = session.uploadTask(with: request, from: body) { [self] _, response, error in
      if (error as? URLError)?.code == .cancelled, lock.withLock({ resend.remove(key) != nil }), !again {
        renewSession()
        return post(body, to: url, headers: headers, again: true, completion: completion)
      }
      if let http = response as? HTTPURLResponse {
        completion(.answered(status: http.statusCode, retryAfter: Self.retryAfter(http)))
      } else if let error = error as? URLError, error.code == .timedOut {
        completion(.timedOut)
      } else {
        completion(.failed(error.map { "\($0)" } ?? "no response"))
      }
    }
    task.taskDescription = key
    task.resume()
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  /// Asked (on Linux) for the body again, to send the request again on a fresh connection: a body given
  /// as data cannot be, so the task is cancelled (after this returns: URLSession waits for the answer on
  /// the thread that asked) and `post` sends the request again itself.
  func urlSession(_ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void) {
    if let key = task.taskDescription { lock.withLock { _ = resend.insert(key) } }
    completionHandler(nil)
    cancels.async { task.cancel() }
  }

  /// `Retry-After`: seconds, or an HTTP date.
  static func retryAfter(_ response: HTTPURLResponse) -> Double? {
    guard let value = response.value(forHTTPHeaderField: "Retry-After") else { return nil }
    return retryAfter(value, now: Date())
  }

  static func retryAfter(_ value: String, now: Date) -> Double? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Double(trimmed), seconds.isFinite { return max(0, seconds) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: trimmed) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }
}
