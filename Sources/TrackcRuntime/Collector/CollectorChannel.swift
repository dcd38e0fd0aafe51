import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The channel to one collector endpoint (the seed's connection): one URLSession and one upload loop,
/// shared by every destination that uploads there (`CollectorChannelPool`), an explicit state machine
/// the app can observe, and a keeper chain that decides when uploads go.
///
/// Uploads wait in a FIFO (at most one per destination: each delivery lane waits for its batch, and the
/// events themselves wait in the journal), so while the channel is offline or backing off nothing grows
/// but the journal, and on reconnection the waiting uploads go in the order they came.
public final class CollectorChannel: @unchecked Sendable {
  /// What an upload came to.
  enum UploadResult: Sendable {
    case response(status: Int, retryAfter: TimeInterval?)
    case failed(String)
  }

  struct Upload: Sendable {
    var body: Data
    var gzipped: Bool
    var completion: @Sendable (UploadResult) -> Void
  }

  public let endpoint: URL
  public let configuration: CollectorChannelConfiguration
  private let session: URLSession
  private let keepers: [any ChannelKeeper]
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var machine = ChannelStateMachine()
  private var waiting: [Upload] = []
  private var online = true
  private var inBackground = false
  private var consecutiveFailures = 0
  private var retryAfter: Date?
  private var backoffUntil: Date?
  private var observers: [@Sendable (ChannelState) -> Void] = []
  private var flushHandlers: [@Sendable () -> Void] = []
  private var sent = 0

  /// Longest `Retry-After` honoured (a collector asking for more gets this).
  public static let maximumRetryAfter: TimeInterval = 3600

  init(configuration: CollectorChannelConfiguration) {
    endpoint = configuration.endpoint
    self.configuration = configuration
    keepers = configuration.keepers + ChannelKeepers.defaults
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeout
    sessionConfiguration.httpMaximumConnectionsPerHost = 1
    session = URLSession(configuration: sessionConfiguration)
    let thread = Thread { [self] in uploadLoop() }
    thread.name = "trackc upload: \(configuration.endpoint.absoluteString)"
    thread.start()
  }

  // MARK: What the app sees and tells

  public var state: ChannelState {
    condition.lock()
    defer { condition.unlock() }
    return machine.state
  }

  /// Requests sent so far (all destinations sharing the channel).
  public var uploadsSent: Int {
    condition.lock()
    defer { condition.unlock() }
    return sent
  }

  /// Calls `observer` with every state the channel enters, on the channel's thread.
  public func observe(_ observer: @escaping @Sendable (ChannelState) -> Void) {
    condition.lock()
    observers.append(observer)
    condition.unlock()
  }

  /// The app's view of the network (from `NWPathMonitor`, say). Offline, uploads hold; back online,
  /// the waiting ones go, in order.
  public func networkAvailabilityChanged(_ isOnline: Bool) {
    condition.lock()
    online = isOnline
    if isOnline {
      // A new network: what failed on the old one may work now.
      backoffUntil = nil
    }
    condition.broadcast()
    condition.unlock()
  }

  /// In the background, everything waiting is uploaded at once, partial batches included.
  public func applicationStateChanged(inBackground background: Bool) {
    condition.lock()
    inBackground = background
    let handlers = background ? flushHandlers : []
    condition.broadcast()
    condition.unlock()
    for handler in handlers { handler() }
  }

  /// Refuses every later send with `ChannelError.released` and stops the upload loop. Events that
  /// were waiting stay in the journal (delivered by a later process). Throws if already released.
  public func release() throws(ChannelError) {
    condition.lock()
    var entered: [ChannelState] = []
    do {
      if machine.state == .released { throw ChannelError.illegalTransition(from: .released, to: .released) }
      if machine.state != .disconnected {
        try machine.move(to: .disconnected)
        entered.append(.disconnected)
      }
      try machine.move(to: .released)
      entered.append(.released)
    } catch {
      condition.unlock()
      throw error as! ChannelError
    }
    let refused = waiting
    waiting.removeAll()
    let observers = self.observers
    condition.broadcast()
    condition.unlock()
    for state in entered { for observer in observers { observer(state) } }
    for upload in refused { upload.completion(.failed(ChannelError.released.description)) }
  }

  // MARK: What destinations use

  func send(_ upload: Upload) throws(ChannelError) {
    condition.lock()
    defer { condition.unlock() }
    guard machine.state != .released else { throw .released }
    waiting.append(upload)
    condition.broadcast()
  }

  func addFlushHandler(_ handler: @escaping @Sendable () -> Void) {
    condition.lock()
    flushHandlers.append(handler)
    condition.unlock()
  }

  // MARK: The upload loop

  private func uploadLoop() {
    while true {
      condition.lock()
      while waiting.isEmpty && machine.state != .released { condition.wait() }
      if machine.state == .released {
        condition.unlock()
        return
      }
      let now = Date()
      let context = KeeperContext(
        state: machine.state, isOnline: online, isInBackground: inBackground, consecutiveFailures: consecutiveFailures,
        retryAfter: retryAfter, backoffUntil: backoffUntil, now: now, waitingUploads: waiting.count)
      let decision = ChannelKeepers.decide(keepers, context)
      var flush = false
      switch decision {
      case .hold:
        _ = condition.wait(until: now.addingTimeInterval(1))
        condition.unlock()
        continue
      case .backOff(let until):
        if until > now { _ = condition.wait(until: until) }
        // Only a deadline that has passed lets the upload go; a wake-up asks the keepers again.
        if Date() < until {
          condition.unlock()
          continue
        }
      case .flush: flush = true
      case .send: break
      }
      let upload = waiting.removeFirst()
      var entered: [ChannelState] = []
      if machine.state == .disconnected, (try? machine.move(to: .reconnecting)) != nil { entered.append(.reconnecting) }
      sent += 1
      let handlers = flush ? flushHandlers : []
      condition.unlock()
      notify(entered)
      for handler in handlers { handler() }

      let result = perform(upload)

      condition.lock()
      entered = []
      let answered: Bool
      switch result {
      case .response(let status, _): answered = !(status == 429 || status >= 500)
      case .failed: answered = false
      }
      if answered {
        consecutiveFailures = 0
        backoffUntil = nil
        retryAfter = nil
        if machine.state != .connected, (try? machine.move(to: .connected)) != nil { entered.append(.connected) }
      } else {
        consecutiveFailures += 1
        backoffUntil = Date().addingTimeInterval(configuration.retry.delay(attempt: consecutiveFailures))
        if case .response(_, let after?) = result {
          retryAfter = Date().addingTimeInterval(min(after, Self.maximumRetryAfter))
        }
        if machine.state != .disconnected, (try? machine.move(to: .disconnected)) != nil { entered.append(.disconnected) }
      }
      condition.unlock()
      notify(entered)
      upload.completion(result)
    }
  }

  private func notify(_ states: [ChannelState]) {
    guard !states.isEmpty else { return }
    condition.lock()
    let observers = self.observers
    condition.unlock()
    for state in states { for observer in observers { observer(state) } }
  }

  private func perform(_ upload: Upload) -> UploadResult {
    var request = URLRequest(url: endpoint)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    if upload.gzipped { request.setValue("gzip", forHTTPHeaderField: "Content-Encoding") }
    if let key = configuration.writeKey {
      request.setValue("Basic " + Data((key + ":").utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
    }
    request.httpBody = upload.body
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox()
    let task = session.dataTask(with: request) { _, response, error in
      if let http = response as? HTTPURLResponse {
        box.result = .response(status: http.statusCode, retryAfter: Self.retryAfter(http))
      } else {
        box.result = .failed(error.map { "\($0)" } ?? "no response")
      }
      done.signal()
    }
    task.resume()
    done.wait()
    return box.result ?? .failed("no response")
  }

  /// `Retry-After`: seconds, or an HTTP date.
  static func retryAfter(_ response: HTTPURLResponse) -> TimeInterval? {
    guard
      let value = response.allHeaderFields.first(where: { ($0.key as? String)?.lowercased() == "retry-after" })?.value as? String
    else { return nil }
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Double(trimmed), seconds.isFinite { return max(0, seconds) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: trimmed) else { return nil }
    return max(0, date.timeIntervalSinceNow)
  }
}

private final class ResultBox: @unchecked Sendable {
  var result: CollectorChannel.UploadResult?
}

/// The seed's pool (flyweight and factory): destinations that upload to the same endpoint with the same
/// write key share one channel, so one session and one upload loop.
public final class CollectorChannelPool: @unchecked Sendable {
  public static let shared = CollectorChannelPool()

  private struct Key: Hashable {
    var endpoint: URL
    var writeKey: String?
  }

  private let lock = NSLock()
  private var channels: [Key: CollectorChannel] = [:]

  public init() {}

  /// The channel for the configuration's endpoint and write key, made on first use (again after a
  /// release). Settings other than those come from the configuration that made it.
  public func channel(for configuration: CollectorChannelConfiguration) -> CollectorChannel {
    let key = Key(endpoint: configuration.endpoint, writeKey: configuration.writeKey)
    lock.lock()
    defer { lock.unlock() }
    if let existing = channels[key], existing.state != .released { return existing }
    let made = CollectorChannel(configuration: configuration)
    channels[key] = made
    return made
  }

  public var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return channels.values.filter { $0.state != .released }.count
  }
}
