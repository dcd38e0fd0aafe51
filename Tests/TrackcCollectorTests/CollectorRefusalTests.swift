import Foundation
import Testing
import TrackcCollector

/// Everything malformed, too large or misdirected gets a 4xx with a JSON body `{"code", "message"}`,
/// records nothing, and costs bounded memory.
@Suite struct CollectorRefusalTests {
  static var good: [String: Any] { Batches.event("CTRL_HOME_FAVORITE", messageID: "g") }

  /// (name, body, expected status, expected code)
  static let malformedBodies: [(String, [UInt8], Int, String)] = {
    func event(removing key: String) -> [String: Any] {
      var event = good
      event.removeValue(forKey: key)
      return event
    }
    func event(setting key: String, to value: Any) -> [String: Any] {
      var event = good
      event[key] = value
      return event
    }
    func text(_ string: String) -> [UInt8] { Array(string.utf8) }
    return [
      ("empty body", [], 400, "not-json"),
      ("not JSON", text("hello"), 400, "not-json"),
      ("truncated JSON", Array(Batches.body([good]).dropLast(3)), 400, "not-json"),
      ("trailing garbage", Batches.body([good]) + text("x"), 400, "not-json"),
      ("invalid UTF-8 in a string", text(#"{"batch":[{"type":"track","event":"A"#) + [0xC3, 0x28] + text(#""}]}"#), 400, "invalid-utf8"),
      ("a lone surrogate", text(#"{"batch":[{"type":"track","event":"\ud800"}]}"#), 400, "not-json"),
      ("nested 10,000 deep", text(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)), 400, "not-json"),
      ("an array at the top", text("[]"), 400, "wrong-shape"),
      ("no batch", text(#"{"events":[]}"#), 400, "missing-field"),
      ("batch not an array", text(#"{"batch":{}}"#), 400, "wrong-shape"),
      ("two batch keys", text(#"{"batch":[],"batch":[]}"#), 400, "duplicate-key"),
      ("an event that is a string", text(#"{"batch":["x"]}"#), 400, "wrong-shape"),
      ("no type", Batches.body([good, event(removing: "type")]), 400, "missing-field"),
      ("a type Segment does not have", Batches.body([event(setting: "type", to: "purchase")]), 400, "unsupported-type"),
      ("no event", Batches.body([event(removing: "event")]), 400, "missing-field"),
      ("an empty event", Batches.body([event(setting: "event", to: "")]), 400, "missing-field"),
      ("event a number", Batches.body([event(setting: "event", to: 3)]), 400, "wrong-type"),
      ("an empty messageId", Batches.body([event(setting: "messageId", to: "")]), 400, "missing-field"),
      ("a 300-byte messageId", Batches.body([event(setting: "messageId", to: String(repeating: "m", count: 300))]), 400, "wrong-type"),
      ("a timestamp that is not ISO 8601", Batches.body([event(setting: "timestamp", to: "yesterday")]), 400, "invalid-timestamp"),
      ("no anonymousId or userId", Batches.body([event(removing: "anonymousId")]), 400, "missing-field"),
      ("properties an array", Batches.body([event(setting: "properties", to: [1])]), 400, "wrong-type"),
      ("context a string", Batches.body([event(setting: "context", to: "x")]), 400, "wrong-type"),
      ("a screen a number", Batches.body([event(setting: "context", to: ["trackc": ["screen": 1]])]), 400, "wrong-type"),
      ("integrations an array", Batches.body([event(setting: "integrations", to: [1])]), 400, "wrong-type"),
      ("an integration a string", Batches.body([event(setting: "integrations", to: ["All": "no"])]), 400, "wrong-type"),
      ("a group call without groupId", Batches.body([event(setting: "type", to: "group")]), 400, "missing-field"),
      ("an alias call without previousId", Batches.body([event(setting: "type", to: "alias")]), 400, "missing-field"),
      ("a userId that is an object", Batches.body([event(setting: "userId", to: ["id": 1])]), 400, "wrong-type"),
      (
        "a property twice",
        text(
          #"{"batch":[{"type":"track","event":"E","messageId":"m","timestamp":"2026-11-23T10:00:00Z","anonymousId":"a","properties":{"p":1,"p":2}}]}"#
        ), 400, "duplicate-key"
      ),
      (
        "messageId twice",
        text(#"{"batch":[{"type":"track","event":"E","messageId":"m","messageId":"n","timestamp":"2026-11-23T10:00:00Z","anonymousId":"a"}]}"#), 400,
        "duplicate-key"
      ),
      (
        "an event over 32 KB", Batches.body([good, event(setting: "properties", to: ["big": String(repeating: "x", count: 33 * 1024)])]), 413,
        "event-too-large"
      ),
    ]
  }()

  @Test(arguments: 0..<malformedBodies.count)
  func malformedBatchIsRefusedWithAJSONErrorAndNothingIsRecorded(_ index: Int) async throws {
    let (name, body, status, code) = Self.malformedBodies[index]
    try await withCollector { collector in
      let answer = try #require(try await RawHTTPClient.post(body, port: collector.port), "\(name): no answer")
      #expect(answer.status == status, "\(name): \(answer.body)")
      #expect(answer.code == code, "\(name): \(answer.body)")
      #expect(answer.json?["message"] is String, "\(name)")
      #expect(answer.headers["Content-Type"] == ["application/json"])
      #expect(collector.received.isEmpty, "\(name)")
      #expect(collector.statistics.rejectedByStatus == [status: 1])
      // The connection still serves the next request (the body was read whole).
      #expect(try await RawHTTPClient.post(Batches.body([Self.good]), port: collector.port)?.status == 200)
    }
  }

  @Test func nullOptionalFieldsAndUnknownKeysAreAccepted() async throws {
    try await withCollector { collector in
      var event = Self.good
      event["properties"] = NSNull()
      event["integrations"] = ["All": true]
      event["userId"] = "u-1"
      event["context"] = ["trackc": NSNull(), "ip": "127.0.0.1"]
      let answer = try await RawHTTPClient.post(Batches.body([event]), port: collector.port)
      #expect(answer?.status == 200, "\(answer?.body ?? "")")
      #expect(collector.received.first?.userID == "u-1")
    }
  }

  @Test func wrongPathsMethodsAndMediaTypes() async throws {
    try await withCollector { collector in
      let port = collector.port
      let body = Batches.body([Self.good])
      let notFound = try await RawHTTPClient.post(body, port: port, path: "/v1/track")
      #expect(notFound?.status == 404)
      #expect(notFound?.code == "not-found")
      let getBatch = try await RawHTTPClient.get("/v1/batch", port: port)
      #expect(getBatch?.status == 405)
      #expect(getBatch?.headers["Allow"] == ["POST"])
      let putConfig = try await RawHTTPClient.send(RawHTTPClient.request("PUT", "/v1/config", body: body), port: port)
      #expect(putConfig?.status == 405)
      let form = try await RawHTTPClient.post(body, port: port, headers: [("Content-Type", "application/x-www-form-urlencoded")])
      #expect(form?.status == 415)
      #expect(form?.code == "unsupported-media-type")
      let charset = try await RawHTTPClient.post(body, port: port, headers: [("Content-Type", "application/json; charset=utf-8")])
      #expect(charset?.status == 200)
      // What Segment takes too: text/plain, which browser clients send to spare a CORS preflight.
      let plain = try await RawHTTPClient.post(body, port: port, headers: [("Content-Type", "text/plain;charset=UTF-8")])
      #expect(plain?.status == 200)
      let html = try await RawHTTPClient.post(body, port: port, headers: [("Content-Type", "text/html")])
      #expect(html?.status == 415)
      let brotli = try await RawHTTPClient.post(body, port: port, headers: [("Content-Type", "application/json"), ("Content-Encoding", "br")])
      #expect(brotli?.status == 415)
      #expect(brotli?.code == "unsupported-encoding")
      let query = try await RawHTTPClient.post(body, port: port, path: "/v1/batch?x=1")
      #expect(query?.status == 200)
      #expect(collector.received.count == 1, "the same batch three times: recorded once")
    }
  }

  @Test func writeKeyIsRequiredWhenSet() async throws {
    try await withCollector({ $0.writeKey = "secret" }) { collector in
      let body = Batches.body([Self.good])
      let none = try await RawHTTPClient.post(body, port: collector.port)
      #expect(none?.status == 401)
      #expect(none?.code == "unauthorized")
      let wrong = try await RawHTTPClient.post(
        body, port: collector.port,
        headers: [("Content-Type", "application/json"), ("Authorization", "Basic " + Data("other:".utf8).base64EncodedString())])
      #expect(wrong?.status == 401)
      let right = try await RawHTTPClient.post(
        body, port: collector.port,
        headers: [("Content-Type", "application/json"), ("Authorization", "Basic " + Data("secret:".utf8).base64EncodedString())])
      #expect(right?.status == 200)
    }
  }

  @Test func invalidHTTPIsAnsweredWithAJSON400() async throws {
    try await withCollector { collector in
      let answer = try await RawHTTPClient.send(Array("NOT HTTP AT ALL\r\n\r\n".utf8), port: collector.port)
      #expect(answer?.status == 400)
      #expect(answer?.code == "bad-request")
      let badLength = try await RawHTTPClient.send(
        Array("POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n".utf8), port: collector.port)
      #expect(badLength?.status == 400)
    }
  }

  /// A body a little over the limit is read (and thrown away) so that the client, busy sending it,
  /// reads a 413 rather than a reset connection, which it then keeps using.
  @Test func bodyOverTheLimitIsReadRefusedAndTheConnectionKept() async throws {
    try await withCollector { collector in
      let connection = try await RawHTTPClient.connect(port: collector.port)
      let oversized = [UInt8](repeating: UInt8(ascii: " "), count: 600_000)
      try await connection.send(RawHTTPClient.request("POST", "/v1/batch", body: oversized))
      let answer = try await connection.response()
      #expect(answer?.status == 413)
      #expect(answer?.code == "too-large")
      #expect(answer?.headers["Connection"] == [])
      let gzipped = try Batches.gzip(Batches.body([Self.good]) + oversized)
      try await connection.send(
        RawHTTPClient.request("POST", "/v1/batch", body: gzipped, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")]))
      #expect(try await connection.response()?.status == 413)
      try await connection.send(RawHTTPClient.request("POST", "/v1/batch", body: Batches.body([Self.good])))
      #expect(try await connection.response()?.status == 200)
      await connection.close()
      #expect(collector.received.count == 1)
    }
  }

  @Test func declaredLengthFarOverTheLimitIsRefusedBeforeTheBodyIsRead() async throws {
    try await withCollector { collector in
      let connection = try await RawHTTPClient.connect(port: collector.port)
      try await connection.send(
        Array("POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n".utf8))
      let answer = try await connection.response()
      #expect(answer?.status == 413)
      #expect(answer?.code == "too-large")
      #expect(answer?.headers["Connection"] == ["close"])
      #expect(try await connection.response() == nil)  // closed
    }
  }

  @Test func expectContinueIsHonoured() async throws {
    try await withCollector { collector in
      let body = Batches.body([Self.good])
      let connection = try await RawHTTPClient.connect(port: collector.port)
      try await connection.send(
        Array(
          "POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: \(body.count)\r\n\r\n".utf8
        ))
      // The body goes once the collector said to go on, as a client that expects 100 Continue does.
      #expect(try await connection.interimResponse() == 100)
      try await connection.send(body)
      #expect(try await connection.response()?.status == 200)
      await connection.close()
    }
  }

  /// A body that never ends: answered 413 and the connection closed once the collector has thrown away
  /// 8 MB (`maxDiscardedBytes`), long before the client is done; it never held more than 500 KB.
  @Test func endlessChunkedBodyIsCutOffAfterTheDiscardLimit() async throws {
    try await withCollector { collector in
      let connection = try await RawHTTPClient.connect(port: collector.port)
      try await connection.send(
        Array("POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
      let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 0x10000) + Array("\r\n".utf8)
      var sent = 0
      while sent < 200 << 20 && !connection.isClosed {
        do {
          try await connection.send(chunk)
        } catch {
          break
        }
        sent += chunk.count
      }
      let answer = try await connection.response()
      #expect(answer?.status == 413)
      #expect(answer?.code == "too-large")
      #expect(sent < 32 << 20, "the client sent \(sent) bytes before the collector stopped reading")
      #expect(collector.received.isEmpty)
    }
  }

  /// A gzip stream of 256 MB of zeros (about 250 KB compressed): decompression stops at 8 MB.
  @Test func gzipBombIsRefusedAtTheDecompressedLimit() async throws {
    let bomb = try Batches.gzipOfZeros(256 << 20)
    #expect(bomb.count < 500 << 10)
    try await withCollector { collector in
      let answer = try await RawHTTPClient.post(
        bomb, port: collector.port, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
      #expect(answer?.status == 413)
      #expect(answer?.code == "too-large")
      #expect(collector.received.isEmpty)
    }
  }

  @Test func corruptGzipIsRefused() async throws {
    try await withCollector { collector in
      let body = try Batches.gzip(Batches.body([Self.good]))
      var corrupt = body
      for index in 12..<min(40, corrupt.count) { corrupt[index] ^= 0x5A }
      let answer = try await RawHTTPClient.post(
        corrupt, port: collector.port, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
      #expect(answer?.status == 400)
      #expect(answer?.code == "bad-encoding")
      let truncated = try await RawHTTPClient.post(
        Array(body.prefix(body.count / 2)), port: collector.port, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
      #expect(truncated?.status == 400)
      #expect(collector.received.isEmpty)
    }
  }

  @Test func batchOfExactlyTheLimitIsAcceptedAndOneByteMoreIsNot() async throws {
    try await withCollector { collector in
      let limit = 500 * 1024
      var events: [[String: Any]] = []
      while Batches.body(events).count + 31_000 < limit {
        var event = Self.good
        event["messageId"] = "e\(events.count)"
        event["properties"] = ["pad": String(repeating: "x", count: 30_000)]
        events.append(event)
      }
      var exact = Batches.body(events)
      exact += [UInt8](repeating: UInt8(ascii: " "), count: limit - exact.count)  // whitespace after the value is JSON
      #expect(try await RawHTTPClient.post(exact, port: collector.port)?.status == 200)
      #expect(collector.received.count == events.count)
      let over = try await RawHTTPClient.post(exact + [UInt8(ascii: " ")], port: collector.port)
      #expect(over?.status == 413)
      #expect(over?.code == "too-large")
    }
  }

  @Test func connectionsBeyondTheLimitAreClosed() async throws {
    try await withCollector({ $0.limits.maxConnections = 2 }) { collector in
      let first = try await RawHTTPClient.connect(port: collector.port)
      let second = try await RawHTTPClient.connect(port: collector.port)
      #expect(await collector.waitUntil { _ in collector.openConnections == 2 })
      let third = try await RawHTTPClient.connect(port: collector.port)
      #expect(try await third.response() == nil)
      #expect(collector.statistics.refusedConnections == 1)
      try await first.send(RawHTTPClient.request("POST", "/v1/batch", body: Batches.body([Self.good])))
      #expect(try await first.response()?.status == 200)
      await first.close()
      await second.close()
    }
  }

  @Test func idleConnectionsAreClosed() async throws {
    try await withCollector({ $0.limits.idleTimeoutSeconds = 1 }) { collector in
      let connection = try await RawHTTPClient.connect(port: collector.port)
      // On a loaded machine more than the idle second can pass between connecting and sending: the
      // collector has then closed the connection already and the send fails, which is the outcome
      // this test is about, so a failed send is not a failure.
      try? await connection.send(Array("POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{".utf8))
      // The rest of the body never comes: the connection is closed after a second of silence. The
      // wait ends as soon as it closes; the long limit only matters on a starved machine.
      #expect(try await connection.response(timeout: .seconds(60)) == nil)
    }
  }
}
