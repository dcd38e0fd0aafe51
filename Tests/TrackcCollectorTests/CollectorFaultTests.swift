import Foundation
import Testing
import TrackcCollector

/// Each fault flag, against the real server.
@Suite struct CollectorFaultTests {
  static func body(_ id: String = UUID().uuidString) -> [UInt8] {
    Batches.body([Batches.event("CTRL_HOME_FAVORITE", messageID: id)])
  }

  @Test func failStatusAloneFailsEveryRequestWithRetryAfter() async throws {
    try await withCollector({
      $0.faults.failStatus = 503
      $0.faults.retryAfterSeconds = 7
    }) { collector in
      for _ in 0..<3 {
        let answer = try await RawHTTPClient.post(Self.body(), port: collector.port)
        #expect(answer?.status == 503)
        #expect(answer?.code == "injected-failure")
        #expect(answer?.headers["Retry-After"] == ["7"])
      }
      #expect(collector.received.isEmpty)
      #expect(collector.statistics.injectedFailures == 3)
    }
  }

  @Test func retryAfterIsOnlySentWith429And503() async throws {
    try await withCollector({
      $0.faults.failStatus = 500
      $0.faults.retryAfterSeconds = 7
    }) { collector in
      let answer = try await RawHTTPClient.post(Self.body(), port: collector.port)
      #expect(answer?.status == 500)
      #expect(answer?.headers["Retry-After"] == [])
    }
    try await withCollector({
      $0.faults.failStatus = 429
      $0.faults.retryAfterSeconds = 1
    }) { collector async throws in
      #expect(try await RawHTTPClient.post(Self.body(), port: collector.port)?.headers["Retry-After"] == ["1"])
    }
  }

  /// The same seed gives the same answers to the same sequence of requests; about the rate fail.
  @Test func failureRateIsSeededAndReproducible() async throws {
    func statuses(seed: UInt64) async throws -> [Int] {
      try await withCollector({
        $0.faults.failureRate = 0.3
        $0.faults.seed = seed
      }) { collector in
        var statuses: [Int] = []
        for index in 0..<60 {
          statuses.append(try await RawHTTPClient.post(Self.body("r\(index)"), port: collector.port)?.status ?? 0)
        }
        #expect(collector.statistics.injectedFailures == statuses.filter { $0 == 503 }.count)
        #expect(collector.received.count == statuses.filter { $0 == 200 }.count)
        return statuses
      }
    }
    let first = try await statuses(seed: 42)
    let again = try await statuses(seed: 42)
    let other = try await statuses(seed: 43)
    #expect(first == again)
    #expect(first != other)
    #expect(Set(first) == [200, 503])
    let failures = first.filter { $0 == 503 }.count
    #expect((6...30).contains(failures), "\(failures) of 60 failed at a rate of 0.3")
  }

  /// --require-content-length: a chunked batch gets 411 (its body read, so the connection stays usable),
  /// the same batch with its length is accepted; without the setting a chunked batch is accepted.
  @Test func aRequiredLengthRefusesChunkedBatchesOnly() async throws {
    let body = Self.body("length-1")
    var chunked = Array("POST /v1/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
    chunked += Array((String(body.count, radix: 16) + "\r\n").utf8) + body + Array("\r\n0\r\n\r\n".utf8)
    try await withCollector({ $0.faults.requireContentLength = true }) { collector in
      let connection = try await RawHTTPClient.connect(port: collector.port)
      try await connection.send(chunked)
      let refused = try await connection.response()
      #expect(refused?.status == 411)
      #expect(refused?.code == "length-required")
      try await connection.send(RawHTTPClient.request("POST", "/v1/batch", body: body))
      #expect(try await connection.response()?.status == 200, "the same batch with its length, on the same connection")
      await connection.close()
      #expect(collector.received.map(\.messageID) == ["length-1"])
      #expect(collector.statistics.rejectedByStatus == [411: 1])
    }
    try await withCollector { collector async throws in
      #expect(try await RawHTTPClient.send(chunked, port: collector.port)?.status == 200, "chunked bodies are taken by default")
    }
  }

  @Test func delayedAnswersTakeAtLeastTheDelay() async throws {
    try await withCollector({ $0.faults.delayMilliseconds = 250 }) { collector in
      let start = ContinuousClock.now
      let answer = try await RawHTTPClient.post(Self.body(), port: collector.port)
      let elapsed = ContinuousClock.now - start
      #expect(answer?.status == 200)
      #expect(elapsed >= .milliseconds(250))
    }
  }

  @Test func droppedConnectionsGetNoAnswerAndRecordNothing() async throws {
    try await withCollector({ $0.faults.dropRate = 1 }) { collector in
      let answer = try await RawHTTPClient.post(Self.body(), port: collector.port)
      #expect(answer == nil)
      #expect(collector.received.isEmpty)
      #expect(collector.statistics.droppedConnections == 1)
      #expect(try await RawHTTPClient.get("/v1/config", port: collector.port) == nil)
    }
  }

  @Test func acceptThenFailRecordsTheBatchAndTheRetryIsADuplicate() async throws {
    try await withCollector({ $0.faults.acceptThenFailRate = 1 }) { collector in
      let body = Self.body("once")
      let first = try await RawHTTPClient.post(body, port: collector.port)
      #expect(first?.status == 500)
      #expect(collector.received.map(\.messageID) == ["once"])
      let retry = try await RawHTTPClient.post(body, port: collector.port)
      #expect(retry?.status == 500)
      #expect(collector.received.map(\.messageID) == ["once"])
      #expect(collector.statistics.duplicates == 1)
      #expect(collector.statistics.failedAfterRecording == 2)
      #expect(collector.statistics.acceptedBatches == 0)
    }
  }

  /// A 3xx says where to go (back to the batch endpoint), and records nothing.
  @Test func aRedirectNamesTheEndpoint() async throws {
    try await withCollector({ $0.faults.failStatus = 307 }) { collector in
      let answer = try await RawHTTPClient.post(Self.body(), port: collector.port)
      #expect(answer?.status == 307)
      #expect(answer?.headers["Location"] == ["/v1/batch"])
      #expect(collector.received.isEmpty)
    }
  }

  @Test func retryAfterCanBeAnHTTPDate() async throws {
    try await withCollector({
      $0.faults.failStatus = 503
      $0.faults.retryAfterSeconds = 60
      $0.faults.retryAfterAsDate = true
    }) { collector in
      let before = Date()
      let answer = try await RawHTTPClient.post(Self.body(), port: collector.port)
      let after = Date()
      let value = try #require(answer?.headers["Retry-After"].first)
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
      let date = try #require(formatter.date(from: value), "\(value) is not an HTTP date")
      #expect(formatter.string(from: date) == value, "the weekday agrees with the date")
      // A minute after the collector answered (rounded up to the next second), whenever that was.
      #expect(date.timeIntervalSince(before) >= 59 && date.timeIntervalSince(after) <= 61, "\(value)")
    }
  }

  /// A reset before any answer records nothing; after the answer's head, the batch was recorded, and
  /// sent again it is a duplicate.
  @Test func resetsBeforeAndAfterTheHeaders() async throws {
    try await withCollector({ $0.faults.resetRate = 1 }) { collector async throws in
      #expect(try await RawHTTPClient.post(Self.body("reset"), port: collector.port) == nil)
      #expect(collector.received.isEmpty)
      #expect(collector.statistics.resetConnections == 1)
    }
    try await withCollector({ $0.faults.resetAfterHeadersRate = 1 }) { collector async throws in
      let body = Self.body("recorded")
      #expect(try await RawHTTPClient.post(body, port: collector.port) == nil, "the head came, never the end")
      #expect(collector.received.map(\.messageID) == ["recorded"])
      #expect(try await RawHTTPClient.post(body, port: collector.port) == nil)
      #expect(collector.received.map(\.messageID) == ["recorded"])
      #expect(collector.statistics.duplicates == 1)
      #expect(collector.statistics.resetConnections == 2)
    }
  }

  @Test func faultsDoNotApplyToRefusals() async throws {
    try await withCollector({ $0.faults.failStatus = 503 }) { collector async throws in
      #expect(try await RawHTTPClient.post(Self.body(), port: collector.port, path: "/elsewhere")?.status == 404)
      #expect(try await RawHTTPClient.post(Array("{".utf8), port: collector.port)?.status == 503)
    }
  }

  @Test func invalidFaultSettingsAreRefused() async throws {
    var configuration = CollectorConfiguration()
    configuration.faults.failStatus = 200
    let status = await #expect(throws: CollectorError.self) { try await Collector.start(configuration) }
    #expect(Self.isInvalidConfiguration(status), "\(String(describing: status))")
    configuration.faults = .init()
    configuration.faults.dropRate = 1.5
    let rate = await #expect(throws: CollectorError.self) { try await Collector.start(configuration) }
    #expect(Self.isInvalidConfiguration(rate), "\(String(describing: rate))")
  }

  static func isInvalidConfiguration(_ error: CollectorError?) -> Bool {
    if case .invalidConfiguration? = error { return true }
    return false
  }
}

extension CollectorFaultTests {
  /// A collector that goes down and comes back, in one test.
  @Test func faultsCanChangeWhileRunning() async throws {
    try await withCollector { collector in
      #expect(try await RawHTTPClient.post(Self.body("up"), port: collector.port)?.status == 200)
      var down = CollectorConfiguration.Faults()
      down.dropRate = 1
      try collector.setFaults(down)
      #expect(collector.faults.dropRate == 1)
      #expect(try await RawHTTPClient.post(Self.body("down"), port: collector.port) == nil)
      // Dropped by the collector, not lost on the way: the request reached it.
      #expect(collector.statistics.droppedConnections == 1)
      try collector.setFaults(CollectorConfiguration.Faults())
      #expect(try await RawHTTPClient.post(Self.body("back"), port: collector.port)?.status == 200)
      #expect(collector.received.map(\.messageID) == ["up", "back"])
      var invalid = CollectorConfiguration.Faults()
      invalid.failStatus = 99
      let error = #expect(throws: CollectorError.self) { try collector.setFaults(invalid) }
      #expect(Self.isInvalidConfiguration(error), "\(String(describing: error))")
    }
  }
}
