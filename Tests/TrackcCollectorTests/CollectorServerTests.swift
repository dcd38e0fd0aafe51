import Foundation
import NIOConcurrencyHelpers
import Testing
import TrackcCollector
import TrackcTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The collector, started on 127.0.0.1 and spoken to over real sockets.
@Suite struct CollectorServerTests {
  @Test func acceptsABatchFromURLSessionAndRecordsItsEvents() async throws {
    try await withCollector { collector in
      let events = [
        Batches.event("CTRL_HOME_FAVORITE", messageID: "m-1", destination: "firebase"),
        Batches.event("CTRL_HOME_BANNER", messageID: "m-2", destination: "firebase", properties: ["source": "home", "slot": "hero"]),
      ]
      var request = URLRequest(url: collector.batchURL)
      request.httpMethod = "POST"
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = Data(Batches.body(events))
      let (data, response) = try await URLSession.shared.data(for: request)
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      #expect(answer?["success"] as? Bool == true)
      #expect(answer?["accepted"] as? Int == 2)

      let received = collector.received
      #expect(received.map(\.event) == ["CTRL_HOME_FAVORITE", "CTRL_HOME_BANNER"])
      #expect(received.map(\.messageID) == ["m-1", "m-2"])
      #expect(received[1].properties == ["source": .string("home"), "slot": .string("hero")])
      #expect(received[1].destination == "firebase")
      #expect(received[1].screen == "HomeViewController")
      #expect(received.allSatisfy { $0.violations.isEmpty })
      #expect(collector.violations.isEmpty)
      #expect(collector.statistics.acceptedEvents == 2)
      #expect(collector.statistics.acceptedBatches == 1)
    }
  }

  @Test func deduplicatesByDestinationAndMessageID() async throws {
    try await withCollector { collector in
      let first = Batches.body([
        Batches.event("CTRL_HOME_FAVORITE", messageID: "same", destination: "firebase"),
        Batches.event("CTRL_HOME_FAVORITE", messageID: "same", destination: "mixpanel"),
      ])
      let again = Batches.body([
        Batches.event("CTRL_HOME_FAVORITE", messageID: "same", destination: "firebase"),
        Batches.event("CTRL_HOME_FAVORITE", messageID: "new", destination: "firebase"),
        Batches.event("CTRL_HOME_FAVORITE", messageID: "new", destination: "firebase"),
      ])
      let answer1 = try await RawHTTPClient.post(first, port: collector.port)
      let answer2 = try await RawHTTPClient.post(again, port: collector.port)
      #expect(answer1?.status == 200)
      #expect(answer2?.status == 200)
      #expect(answer2?.json?["accepted"] as? Int == 1)
      #expect(answer2?.json?["duplicates"] as? Int == 2)
      // One copy per (destination, messageId): the same ID for two destinations is two events.
      #expect(collector.received.map { "\($0.destination!)/\($0.messageID)" } == ["firebase/same", "mixpanel/same", "firebase/new"])
      #expect(collector.statistics.duplicates == 2)
      #expect(collector.statistics.duplicatesByDestination == ["firebase": 2])
    }
  }

  @Test func eventsWithoutADestinationTakeTheDefaultOne() async throws {
    try await withCollector({ $0.defaultDestination = "firebase" }) { collector in
      let answer = try await RawHTTPClient.post(Batches.body([Batches.event("CTRL_HOME_FAVORITE", destination: nil)]), port: collector.port)
      #expect(answer?.status == 200)
      #expect(collector.received.first?.destination == "firebase")
      #expect(collector.violations.isEmpty)
    }
  }

  @Test func recordsPlanViolationsAndStillAcceptsTheBatch() async throws {
    try await withCollector { collector in
      let answer = try await RawHTTPClient.post(
        Batches.body([
          Batches.event("NOT_IN_PLAN", messageID: "a"),
          Batches.event("CTRL_HOME_BANNER", messageID: "b", destination: "mixpanel", properties: ["source": 3, "slot": "hero"]),
        ]), port: collector.port)
      #expect(answer?.status == 200)
      #expect(answer?.json?["violations"] as? Int == 3)
      #expect(collector.violations.map(\.rule) == [.unknownEvent, .notRouted, .propertyType])
      #expect(collector.received.count == 2)
      #expect(collector.statistics.eventsWithViolations == 2)
    }
  }

  @Test func rejectsABatchWithViolationsWhenAskedTo() async throws {
    try await withCollector({ $0.rejectViolations = true }) { collector in
      let bad = try await RawHTTPClient.post(
        Batches.body([Batches.event("CTRL_HOME_FAVORITE"), Batches.event("NOT_IN_PLAN")]), port: collector.port)
      #expect(bad?.status == 400)
      #expect(bad?.code == "plan-violation")
      #expect(collector.received.isEmpty)
      #expect(collector.violations.map(\.rule) == [.unknownEvent])
      let good = try await RawHTTPClient.post(Batches.body([Batches.event("CTRL_HOME_FAVORITE")]), port: collector.port)
      #expect(good?.status == 200)
      #expect(collector.received.count == 1)
    }
  }

  @Test func acceptsGzipAndDeflateBodies() async throws {
    try await withCollector { collector in
      let body = Batches.body([Batches.event("CTRL_HOME_FAVORITE", messageID: "zipped")])
      let answer = try await RawHTTPClient.post(
        try Batches.gzip(body), port: collector.port, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
      #expect(answer?.status == 200)
      #expect(collector.received.map(\.messageID) == ["zipped"])
    }
  }

  @Test func keepsTheConnectionOpenAcrossRequests() async throws {
    try await withCollector { collector in
      let connection = try await RawHTTPClient.connect(port: collector.port)
      for index in 0..<3 {
        try await connection.send(
          RawHTTPClient.request("POST", "/v1/batch", body: Batches.body([Batches.event("CTRL_HOME_FAVORITE", messageID: "k\(index)")])))
        #expect(try await connection.response()?.status == 200)
      }
      // A refusal whose body was read keeps the connection too.
      try await connection.send(RawHTTPClient.request("POST", "/v1/nothing", body: Array("{}".utf8)))
      #expect(try await connection.response()?.status == 404)
      try await connection.send(
        RawHTTPClient.request("POST", "/v1/batch", body: Batches.body([Batches.event("CTRL_HOME_FAVORITE", messageID: "k3")])))
      #expect(try await connection.response()?.status == 200)
      await connection.close()
      #expect(collector.received.count == 4)
    }
  }

  @Test func writesAcceptedEventsAsNDJSONAndTellsTheObserver() async throws {
    let scratch = try ScratchDirectory("collector")
    defer { scratch.remove() }
    let path = scratch.url.appendingPathComponent("events.ndjson").path
    let seen = RecordLog()
    try await withCollector({
      $0.outputPath = path
      $0.observer = { records in seen.append(records) }
    }) { collector in
      let events = [Batches.event("CTRL_HOME_FAVORITE", messageID: "o1"), Batches.event("NOT_IN_PLAN", messageID: "o2")]
      _ = try await RawHTTPClient.post(Batches.body(events), port: collector.port)
      _ = try await RawHTTPClient.post(Batches.body([events[0]]), port: collector.port)
    }
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    try #require(lines.count == 2)  // required: objects[1] below would trap the whole test process
    let objects = lines.map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    #expect(objects.map { ($0?["event"] as? [String: Any])?["messageId"] as? String } == ["o1", "o2"])
    #expect((objects[1]?["violations"] as? [[String: Any]])?.first?["rule"] as? String == "unknown-event")
    #expect(seen.kinds == ["accepted", "accepted", "duplicate"])
  }

  @Test func servesRequestsFromManyConnectionsAtOnce() async throws {
    try await withCollector { collector in
      try await withThrowingTaskGroup(of: Int?.self) { group in
        for client in 0..<20 {
          group.addTask {
            let events = (0..<25).map { Batches.event("CTRL_HOME_FAVORITE", messageID: "c\(client)-\($0)") }
            return try await RawHTTPClient.post(Batches.body(events), port: collector.port)?.status
          }
        }
        for try await status in group { #expect(status == 200) }
      }
      #expect(collector.statistics.acceptedEvents == 500)
      #expect(Set(collector.received.map(\.messageID)).count == 500)
    }
  }

  @Test func stopsGracefullyFinishingAnAnswerInFlight() async throws {
    var configuration = CollectorConfiguration()
    // Long enough that a starved test process still stops the collector while the answer waits; the
    // condition (a request came) stays true once met, unlike the count of open connections.
    configuration.faults.delayMilliseconds = 1_000
    let collector = try await Collector.start(configuration)
    let port = collector.port
    let answer = Task { try await RawHTTPClient.post(Batches.body([Batches.event("CTRL_HOME_FAVORITE")]), port: port) }
    #expect(await collector.waitUntil(timeout: .seconds(60)) { $0.requests == 1 })
    try await Task.sleep(for: .milliseconds(50))
    await collector.stop()
    #expect(try await answer.value?.status == 200)
    await collector.stop()  // a second stop does nothing
    #expect(collector.openConnections == 0)
    #expect(collector.statistics.acceptedEvents == 1)
    // (That nothing listens on the port is not checked: a collector of a test running alongside may
    // have been given it already.)
  }

  @Test func bindFailureIsAnError() async throws {
    try await withCollector { collector in
      var configuration = CollectorConfiguration()
      configuration.port = collector.port
      await #expect(throws: CollectorError.self) { try await Collector.start(configuration) }
    }
  }

  @Test func resetForgetsEverything() async throws {
    try await withCollector { collector in
      let body = Batches.body([Batches.event("CTRL_HOME_FAVORITE", messageID: "r")])
      _ = try await RawHTTPClient.post(body, port: collector.port)
      collector.reset()
      #expect(collector.received.isEmpty)
      #expect(collector.statistics == CollectorStatistics())
      _ = try await RawHTTPClient.post(body, port: collector.port)
      #expect(collector.received.count == 1)
    }
  }
}

/// What an observer saw, in order.
final class RecordLog: Sendable {
  private let records = NIOLockedValueBox<[CollectorRecord]>([])

  func append(_ more: [CollectorRecord]) { records.withLockedValue { $0 += more } }

  var all: [CollectorRecord] { records.withLockedValue { $0 } }

  var kinds: [String] {
    all.map { record in
      switch record {
      case .accepted: return "accepted"
      case .duplicate: return "duplicate"
      case .rejected: return "rejected"
      case .injected: return "injected"
      case .servedRemoteConfiguration: return "config"
      }
    }
  }
}
