import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP response as a test sees it.
struct TestResponse: Sendable {
  var status: Int
  var headers: HTTPHeaders
  var body: String

  /// The `code` of a JSON error body.
  var code: String? { json?["code"] as? String }

  var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] }
}

/// A test client that writes requests as raw bytes (so that tests can send what no well-behaved
/// client would: broken HTTP, endless chunked bodies) and reads answers with NIO's HTTP/1 response
/// parser. Each request uses a new connection unless a `Connection` is kept.
enum RawHTTPClient {
  static let group = MultiThreadedEventLoopGroup.singleton

  /// A connection; answers are read in order.
  final class Connection: Sendable {
    let channel: Channel
    private let collector: ResponseCollector

    fileprivate init(channel: Channel, collector: ResponseCollector) {
      self.channel = channel
      self.collector = collector
    }

    /// Writes the bytes as they are, below NIO's response parser; the parser is told that a request
    /// went out (it pairs each answer with a request), `method` its method.
    func send(_ bytes: [UInt8], method: HTTPMethod = .POST) async throws {
      let channel = channel
      try await channel.eventLoop.flatSubmit {
        do {
          channel.write(HTTPClientRequestPart.head(HTTPRequestHead(version: .http1_1, method: method, uri: "/")), promise: nil)
          let context = try channel.pipeline.syncOperations.context(handlerType: RawWriter.self)
          return context.writeAndFlush(NIOAny(channel.allocator.buffer(bytes: bytes)))
        } catch {
          return channel.eventLoop.makeFailedFuture(error)
        }
      }.get()
    }

    /// The next answer, or nil when the connection closed without one.
    func response(timeout: Duration = .seconds(10)) async throws -> TestResponse? {
      try await collector.next(timeout: timeout)
    }

    /// The status of the next interim answer (100 Continue); nil if the connection closed first.
    func interimResponse(timeout: Duration = .seconds(10)) async throws -> Int? {
      try await collector.nextInterim(timeout: timeout)
    }

    var isClosed: Bool { collector.isClosed }

    func close() async {
      try? await channel.close()
    }
  }

  static func connect(port: Int) async throws -> Connection {
    let loop = group.next()
    let collector = ResponseCollector(loop: loop)
    let channel = try await ClientBootstrap(group: loop)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(RawWriter())
          try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)))
          try channel.pipeline.syncOperations.addHandler(ResponseHandler(collector: collector))
        }
      }
      .connect(host: "127.0.0.1", port: port).get()
    return Connection(channel: channel, collector: collector)
  }

  /// Sends one request on a new connection and returns the answer (nil: closed without one).
  static func send(_ bytes: [UInt8], port: Int, timeout: Duration = .seconds(10)) async throws -> TestResponse? {
    let connection = try await connect(port: port)
    defer { Task { await connection.close() } }
    try? await connection.send(bytes, method: bytes.starts(with: Array("HEAD ".utf8)) ? .HEAD : .POST)
    return try await connection.response(timeout: timeout)
  }

  static func request(
    _ method: String, _ path: String, body: [UInt8] = [], headers: [(String, String)] = [("Content-Type", "application/json")]
  ) -> [UInt8] {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !headers.contains(where: { $0.0.lowercased() == "transfer-encoding" }) { head += "Content-Length: \(body.count)\r\n" }
    return Array((head + "\r\n").utf8) + body
  }

  static func post(
    _ body: [UInt8], port: Int, path: String = "/v1/batch", headers: [(String, String)] = [("Content-Type", "application/json")]
  ) async throws -> TestResponse? {
    try await send(request("POST", path, body: body, headers: headers), port: port)
  }

  static func post(_ body: String, port: Int, headers: [(String, String)] = [("Content-Type", "application/json")]) async throws -> TestResponse? {
    try await post(Array(body.utf8), port: port, headers: headers)
  }

  static func get(_ path: String, port: Int, headers: [(String, String)] = []) async throws -> TestResponse? {
    try await send(request("GET", path, headers: headers), port: port)
  }
}

/// Answers as they complete, and whether the connection closed. A reader waits on a promise of the
/// connection's event loop, fulfilled by the next change (an answer, an interim answer, the close) or
/// failed by a timer on that loop at the reader's deadline: nothing polls, and the deadline needs no
/// second look at the clock (the timer's firing is the timeout).
private final class ResponseCollector: Sendable {
  private struct State {
    var responses: [TestResponse] = []
    var interim: [Int] = []
    var closed = false
    /// Readers waiting for the next change, by number (a reader's timer takes its own out).
    var waiters: [Int: EventLoopPromise<Void>] = [:]
    var nextWaiter = 0
  }

  private let state = NIOLockedValueBox(State())
  private let loop: any EventLoop

  init(loop: any EventLoop) {
    self.loop = loop
  }

  /// Applies `change` and wakes every reader.
  private func change(_ change: (inout State) -> Void) {
    let waiters = state.withLockedValue { state in
      change(&state)
      defer { state.waiters = [:] }
      return state.waiters
    }
    for waiter in waiters.values { waiter.succeed() }
  }

  func add(_ response: TestResponse) { change { $0.responses.append(response) } }
  func addInterim(_ status: Int) { change { $0.interim.append(status) } }
  func markClosed() { change { $0.closed = true } }
  var isClosed: Bool { state.withLockedValue { $0.closed } }

  func next(timeout: Duration) async throws -> TestResponse? {
    try await next(timeout: timeout) { $0.responses.isEmpty ? nil : $0.responses.removeFirst() }
  }

  func nextInterim(timeout: Duration) async throws -> Int? {
    try await next(timeout: timeout) { $0.interim.isEmpty ? nil : $0.interim.removeFirst() }
  }

  /// What `take` takes from the state, once there is something; nil once the connection closed first;
  /// `TimedOut` once `timeout` passed with neither.
  private func next<Value: Sendable>(timeout: Duration, _ take: (inout State) -> Value?) async throws -> Value? {
    let deadline = NIODeadline.now() + TimeAmount(timeout)
    while true {
      let promise = loop.makePromise(of: Void.self)
      let (found, waiter): (Value?, Int?) = state.withLockedValue { state in
        if let found = take(&state) { return (found, nil) }
        if state.closed { return (nil, nil) }
        let waiter = state.nextWaiter
        state.nextWaiter += 1
        state.waiters[waiter] = promise
        return (nil, waiter)
      }
      guard let waiter else {
        promise.succeed()
        return found
      }
      let timer = loop.scheduleTask(deadline: deadline) { [state] in
        state.withLockedValue { $0.waiters.removeValue(forKey: waiter) }?.fail(TimedOut())
      }
      defer { timer.cancel() }
      try await promise.futureResult.get()
    }
  }

  struct TimedOut: Error {}
}

private final class ResponseHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPClientResponsePart

  private let collector: ResponseCollector
  private var head: HTTPResponseHead?
  private var body: [UInt8] = []

  init(collector: ResponseCollector) {
    self.collector = collector
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      // Interim answers (100 Continue) are not the answer.
      guard head.status.code >= 200 else {
        collector.addInterim(Int(head.status.code))
        return
      }
      self.head = head
      body = []
    case .body(var buffer):
      body += buffer.readBytes(length: buffer.readableBytes) ?? []
    case .end:
      guard let head else { return }
      collector.add(TestResponse(status: Int(head.status.code), headers: head.headers, body: String(decoding: body, as: UTF8.self)))
      self.head = nil
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    collector.markClosed()
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    collector.markClosed()
    context.close(promise: nil)
  }
}

/// Where raw request bytes enter the pipeline: first, so that nothing encodes them. The request heads
/// written for the response parser's sake stop here.
private final class RawWriter: ChannelOutboundHandler {
  typealias OutboundIn = HTTPClientRequestPart

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    promise?.succeed()
  }
}
