import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A stand-in for Segment's analytics-swift, as an app calls it (`track(name:properties:)`,
/// `screen(title:properties:)`) and as it sends (Segment's HTTP API: a batch POSTed to `/v1/batch`,
/// the write key as Basic authentication). `flush()` waits for the collector's answer, so that the
/// session's steps reach it in order.
public final class Analytics: @unchecked Sendable {
  private let lock = NSLock()
  // Guarded by `lock`.
  private var queue: [[String: Any]] = []
  private var endpoint: URL?
  private var writeKey = ""
  private let anonymousID = UUID().uuidString

  public init() {}

  public func configure(endpoint: URL, writeKey: String) {
    lock.withLock {
      self.endpoint = endpoint
      self.writeKey = writeKey
    }
  }

  public func track(name: String, properties: [String: Any]? = nil) {
    enqueue(["type": "track", "event": name, "properties": properties ?? [:]])
  }

  public func screen(title: String, category: String? = nil, properties: [String: Any]? = nil) {
    enqueue(["type": "screen", "name": title, "properties": properties ?? [:]])
  }

  private func enqueue(_ message: [String: Any]) {
    var message = message
    message["anonymousId"] = anonymousID
    message["messageId"] = UUID().uuidString
    message["timestamp"] = ISO8601DateFormatter().string(from: Date())
    lock.withLock { queue.append(message) }
  }

  /// Sends what is queued and waits for the answer; stops the program when the collector refuses it.
  public func flush() {
    let (batch, endpoint, writeKey) = lock.withLock {
      defer { queue = [] }
      return (queue, self.endpoint, self.writeKey)
    }
    guard !batch.isEmpty, let endpoint else { return }
    var request = URLRequest(url: endpoint.appendingPathComponent("v1/batch"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("Basic " + Data((writeKey + ":").utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
    request.httpBody = try? JSONSerialization.data(withJSONObject: ["batch": batch])
    let answer = Answer()
    URLSession.shared.dataTask(with: request) { _, response, error in
      answer.status = (response as? HTTPURLResponse)?.statusCode ?? 0
      answer.error = error.map { "\($0)" }
      answer.done.signal()
    }.resume()
    answer.done.wait()
    guard answer.status == 200 else { fatalError("the collector answered \(answer.status) \(answer.error ?? "")") }
  }
}

/// What the upload's completion handler saw; read after it signals.
private final class Answer: @unchecked Sendable {
  let done = DispatchSemaphore(value: 0)
  var status = 0
  var error: String?
}

/// The app's instance, as analytics-swift apps keep one.
public let analytics = Analytics()
