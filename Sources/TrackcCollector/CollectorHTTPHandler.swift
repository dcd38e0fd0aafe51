import NIOCore
import NIOHTTP1
import NIOHTTPCompression

// `linger`, for a reset on purpose.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One connection's requests: routes them, bounds what it reads, injects faults, answers with JSON.
///
/// Sits after NIO's HTTP/1 server pipeline (which parses, and answers requests in order when a client
/// pipelines them) and NIO's request decompressor (gzip and deflate, with a bounded decompressed size).
final class CollectorHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private enum Endpoint {
    case batch
    case remoteConfiguration
  }

  private enum State {
    /// Between requests.
    case idle
    /// Reading a batch body.
    case readingBatch(request: String, keepAlive: Bool, body: ByteBuffer)
    /// Reading a request whose answer is known (or that needs no body); its body is not kept.
    case discarding(request: String, keepAlive: Bool, pending: Pending, discardedBytes: Int)
    /// An answer is on its way (possibly delayed); the rest of the request is ignored.
    case answering
    /// The connection is closing: everything is ignored.
    case closing
  }

  private enum Pending {
    case answer(HTTPAnswer)
    case remoteConfiguration(ifNoneMatch: [String], isHead: Bool)
  }

  private let core: CollectorCore
  private var state = State.idle
  /// A request was read whole and its answer is not written yet (counted in `Collector.answersPending`).
  private var answerPending = false {
    didSet { if answerPending != oldValue { core.answerPending(answerPending) } }
  }

  init(core: CollectorCore) {
    self.core = core
  }

  private var limits: CollectorConfiguration.Limits { core.configuration.limits }

  func channelInactive(context: ChannelHandlerContext) {
    answerPending = false
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch Self.unwrapInboundIn(data) {
    case .head(let head): receive(head, context: context)
    case .body(let part): receive(part, context: context)
    case .end: finishRequest(context: context)
    }
  }

  // MARK: Reading

  private func receive(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
    guard case .idle = state else { return }
    let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? head.uri
    let request = head.method.rawValue + " " + BatchDecoder.quoted(String(path.prefix(200)))
    let keepAlive = head.isKeepAlive
    func discard(_ answer: HTTPAnswer) {
      state = .discarding(request: request, keepAlive: keepAlive, pending: .answer(answer), discardedBytes: 0)
    }
    switch (path, head.method) {
    case ("/v1/batch", .POST):
      if let refusal = refusal(ofBatch: head) {
        let declared = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
        let expectsContinue = head.headers[canonicalForm: "expect"].contains { $0.lowercased() == "100-continue" }
        if expectsContinue || declared > limits.maxDiscardedBytes {
          // The client waits for a go-ahead, or the body is not worth reading: answer and close.
          answerNow(core.rejected(refusal, request: request, closesConnection: true), context: context)
        } else {
          discard(core.rejected(refusal, request: request))
        }
        return
      }
      continueIfExpected(head, context: context)
      state = .readingBatch(request: request, keepAlive: keepAlive, body: context.channel.allocator.buffer(capacity: 0))
    case ("/v1/config", .GET), ("/v1/config", .HEAD):
      state = .discarding(
        request: request, keepAlive: keepAlive,
        pending: .remoteConfiguration(ifNoneMatch: head.headers[canonicalForm: "if-none-match"].map(String.init), isHead: head.method == .HEAD),
        discardedBytes: 0)
    case ("/v1/batch", _):
      discard(methodNotAllowed(request: request, allowed: "POST"))
    case ("/v1/config", _):
      discard(methodNotAllowed(request: request, allowed: "GET, HEAD"))
    default:
      discard(
        core.rejected(
          Rejection(status: 404, code: "not-found", message: "no such endpoint: the collector serves POST /v1/batch and GET /v1/config"),
          request: request))
    }
  }

  private func methodNotAllowed(request: String, allowed: String) -> HTTPAnswer {
    var answer = core.rejected(
      Rejection(status: 405, code: "method-not-allowed", message: "\(request) is not allowed: use \(allowed)"), request: request)
    answer.headers.append(("Allow", allowed))
    return answer
  }

  /// What the head of a batch request already rules out: credentials, a missing length (when the fault
  /// settings require one), encoding, media type, size.
  private func refusal(ofBatch head: HTTPRequestHead) -> Rejection? {
    if let writeKey = core.configuration.writeKey {
      let expected = "Basic " + Data((writeKey + ":").utf8).base64EncodedString()
      guard head.headers[canonicalForm: "authorization"].contains(where: { $0 == expected }) else {
        return Rejection(
          status: 401, code: "unauthorized", message: "this collector needs the write key: Authorization: Basic base64(\"<writeKey>:\")")
      }
    }
    if core.faultSettings.requireContentLength && !head.headers.contains(name: "content-length") {
      return Rejection(status: 411, code: "length-required", message: "this collector needs Content-Length: a body without one (chunked) is refused")
    }
    let encodings = head.headers[canonicalForm: "content-encoding"].map { $0.lowercased() }
    if encodings.count > 1 || encodings.contains(where: { !["gzip", "deflate", "identity"].contains($0) }) {
      return Rejection(
        status: 415, code: "unsupported-encoding",
        message: "Content-Encoding '\(BatchDecoder.quoted(encodings.joined(separator: ", ")))' is not supported: send gzip, deflate or none")
    }
    // JSON, or text/plain as Segment takes it (browser clients send it to spare a CORS preflight).
    if let type = head.headers.first(name: "content-type") {
      let mediaType = type.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
      guard mediaType == "application/json" || mediaType == "text/plain" else {
        return Rejection(
          status: 415, code: "unsupported-media-type",
          message: "Content-Type '\(BatchDecoder.quoted(type))' is not JSON: send application/json (or text/plain)")
      }
    }
    if let length = head.headers.first(name: "content-length").flatMap({ Int($0) }), length > limits.maxBatchBytes {
      return Rejection(
        status: 413, code: "too-large", message: "the body is \(length) bytes, over the limit of \(limits.maxBatchBytes) bytes a batch")
    }
    return nil
  }

  private func continueIfExpected(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
    guard head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }) else { return }
    context.writeAndFlush(Self.wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
  }

  private func receive(_ part: ByteBuffer, context: ChannelHandlerContext) {
    switch state {
    case .readingBatch(let request, let keepAlive, var body):
      let total = body.readableBytes + part.readableBytes
      guard total <= limits.maxBatchBytes else {
        // Too large: read the rest without keeping it, so that the client reads the answer on a
        // healthy connection (see `Limits.maxDiscardedBytes`).
        let rejection = Rejection(
          status: 413, code: "too-large", message: "the body is over the limit of \(limits.maxBatchBytes) bytes a batch (decompressed)")
        state = .discarding(
          request: request, keepAlive: keepAlive, pending: .answer(core.rejected(rejection, request: request)), discardedBytes: total)
        return
      }
      state = .idle  // lets `body` be extended in place
      var part = part
      body.writeBuffer(&part)
      state = .readingBatch(request: request, keepAlive: keepAlive, body: body)
    case .discarding(let request, let keepAlive, let pending, let discarded):
      let total = discarded + part.readableBytes
      if total > limits.maxDiscardedBytes {
        // Not worth reading on: answer what was pending and close.
        var answer = answer(for: pending, request: request)
        answer.closesConnection = true
        answerNow(answer, context: context)
      } else {
        state = .discarding(request: request, keepAlive: keepAlive, pending: pending, discardedBytes: total)
      }
    case .idle, .answering, .closing:
      break
    }
  }

  private func answer(for pending: Pending, request: String) -> HTTPAnswer {
    switch pending {
    case .answer(let answer): return answer
    case .remoteConfiguration(let tags, let isHead):
      var answer = core.remoteConfiguration(ifNoneMatch: tags, request: request)
      answer.omitsBody = isHead
      return answer
    }
  }

  private func finishRequest(context: ChannelHandlerContext) {
    switch state {
    case .readingBatch(let request, let keepAlive, let body):
      state = .answering
      answerPending = true
      withFaults(isBatch: true, path: "/v1/batch", request: request, keepAlive: keepAlive, context: context) { handler, context, afterRecording in
        let bytes = body.getBytes(at: body.readerIndex, length: body.readableBytes) ?? []
        let answer = handler.core.acceptBatch(bytes, request: request, afterRecording: afterRecording)
        if afterRecording == .resetAfterHeaders && answer.status == 200 {
          handler.core.resetConnection(request: request, afterRecording: true)
          handler.answer(answer, keepAlive: keepAlive, context: context, resetAfterHead: true)
        } else {
          handler.answer(answer, keepAlive: keepAlive, context: context)
        }
      }
    case .discarding(let request, let keepAlive, let pending, _):
      state = .answering
      guard case .remoteConfiguration = pending else {
        answer(answer(for: pending, request: request), keepAlive: keepAlive, context: context)
        return
      }
      withFaults(isBatch: false, path: "/v1/config", request: request, keepAlive: keepAlive, context: context) { handler, context, _ in
        handler.answer(handler.answer(for: pending, request: request), keepAlive: keepAlive, context: context)
      }
    case .idle, .answering, .closing:
      break
    }
  }

  // MARK: Answering

  private func after(
    milliseconds: Int, context: ChannelHandlerContext, _ body: @escaping (CollectorHTTPHandler, ChannelHandlerContext) -> Void
  ) {
    guard milliseconds > 0 else {
      body(self, context)
      return
    }
    context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(milliseconds))) {
      guard context.channel.isActive else { return }
      body(self, context)
    }
  }

  /// Applies the fault injection decided for a request on `path` (after its delay): drops the connection,
  /// resets it or answers with the injected failure, else proceeds to answer as `proceed` does.
  private func withFaults(
    isBatch: Bool, path: String, request: String, keepAlive: Bool, context: ChannelHandlerContext,
    proceed: @escaping (CollectorHTTPHandler, ChannelHandlerContext, FaultDecision.AfterRecording) -> Void
  ) {
    let (decision, delay) = core.decideFaults(isBatch: isBatch)
    after(milliseconds: delay, context: context) { handler, context in
      switch decision {
      case .drop:
        handler.drop(request: request, context: context)
      case .reset:
        handler.core.resetConnection(request: request, afterRecording: false)
        handler.reset(context: context)
      case .fail(let status):
        handler.answer(handler.core.injectedFailure(status: status, request: request, path: path), keepAlive: keepAlive, context: context)
      case .proceed(let afterRecording):
        proceed(handler, context, afterRecording)
      }
    }
  }

  private func drop(request: String, context: ChannelHandlerContext) {
    core.droppedConnection(request: request)
    answerPending = false
    state = .closing
    context.close(promise: nil)
  }

  /// Closes with a TCP reset (SO_LINGER of zero) rather than a FIN.
  private func reset(context: ChannelHandlerContext) {
    answerPending = false
    state = .closing
    let channel = context.channel
    guard let options = channel as? SocketOptionProvider else {
      channel.close(promise: nil)
      return
    }
    options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
  }

  /// Answers before the request was read to its end, then closes the connection.
  private func answerNow(_ answer: HTTPAnswer, context: ChannelHandlerContext) {
    var answer = answer
    answer.closesConnection = true
    state = .answering
    self.answer(answer, keepAlive: false, context: context)
  }

  private func answer(_ answer: HTTPAnswer, keepAlive: Bool, context: ChannelHandlerContext, resetAfterHead: Bool = false) {
    defer { answerPending = false }
    let closes = answer.closesConnection || !keepAlive
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/json")
    headers.add(name: "Content-Length", value: String(answer.body.utf8.count))
    for (name, value) in answer.headers { headers.add(name: name, value: value) }
    if closes { headers.add(name: "Connection", value: "close") }
    let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: answer.status), headers: headers)
    guard !resetAfterHead else {
      context.writeAndFlush(Self.wrapOutboundOut(.head(head))).assumeIsolated().whenComplete { _ in self.reset(context: context) }
      return
    }
    context.write(Self.wrapOutboundOut(.head(head)), promise: nil)
    if !answer.body.isEmpty && !answer.omitsBody {
      context.write(Self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: answer.body)))), promise: nil)
    }
    if closes {
      state = .closing
      context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    } else {
      state = .idle
      context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
    }
  }

  // MARK: Errors and events

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    let request: String
    switch state {
    case .readingBatch(let name, _, _), .discarding(let name, _, _, _): request = name
    case .idle: request = "(unreadable request)"
    case .answering, .closing:
      state = .closing
      context.close(promise: nil)
      return
    }
    let rejection: Rejection
    switch error {
    case NIOHTTPDecompression.DecompressionError.limit:
      rejection = Rejection(
        status: 413, code: "too-large",
        message: "the body decompresses to over \(limits.maxDiscardedBytes) bytes (a batch is at most \(limits.maxBatchBytes))")
    case is NIOHTTPDecompression.DecompressionError, is NIOHTTPDecompression.ExtraDecompressionError:
      rejection = .badRequest("bad-encoding", "the body is not valid gzip or deflate data (\(error))")
    case is HTTPParserError:
      rejection = .badRequest("bad-request", "the request is not valid HTTP/1.1 (\(error))")
    default:
      state = .closing
      context.close(promise: nil)
      return
    }
    answerNow(core.rejected(rejection, request: request, closesConnection: true), context: context)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is IdleStateHandler.IdleStateEvent {
      switch state {
      case .answering: return  // a delayed answer is on its way
      default:
        state = .closing
        context.close(promise: nil)
      }
      return
    }
    context.fireUserInboundEventTriggered(event)
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> Substring {
    var text = self
    while text.first == " " || text.first == "\t" { text = text.dropFirst() }
    while text.last == " " || text.last == "\t" { text = text.dropLast() }
    return text
  }
}
