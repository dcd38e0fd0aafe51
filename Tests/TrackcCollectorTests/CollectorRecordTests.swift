import Foundation
import Testing

@testable import TrackcCollector

/// The lines `trackc collector` prints: readable text with hostile strings escaped, and JSON lines
/// that parse back to what was received.
@Suite struct CollectorRecordTests {
  static let hostile = "A\u{1B}[2J\r\nfake line\u{0}\u{2028}\"\\ é 🙂"

  static func event(_ id: String = "CTRL_HOME_FAVORITE") throws -> ReceivedEvent {
    let body = Batches.body([Batches.event(id, messageID: "m-1", properties: ["source": "home", "position": 2])])
    var configuration = CollectorConfiguration()
    configuration.plan = Batches.shopPlan
    return try #require(try Collector.readBatch(body, configuration: configuration).first)
  }

  @Test func textLinesShowTheEventAndOneLinePerViolation() throws {
    let lines = CollectorRecord.accepted(try Self.event()).textLines
    // Where the collector would forward it: the plan's 'firebase', by the name Segment knows it by.
    #expect(lines == [#"event      CTRL_HOME_FAVORITE -> Firebase  HomeViewController (control)  {position: 2, source: "home"}  m-1"#])
    let unknown = CollectorRecord.accepted(try Self.event("NOPE")).textLines
    #expect(unknown.count == 2)
    #expect(unknown[1] == "violation  NOPE is not an event of the tracking plan [unknown-event]")
  }

  @Test func hostileStringsCannotBreakALine() throws {
    let lines = CollectorRecord.accepted(try Self.event(Self.hostile)).textLines
    #expect(lines.count == 2)
    for line in lines {
      #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(line.debugDescription)")
    }
    let rejected = CollectorRecord.rejected(
      Rejection(status: 400, code: "x", message: "m"), request: "POST " + BatchDecoder.quoted(Self.hostile), violations: []
    ).textLines
    #expect(rejected.count == 1)
    #expect(!rejected[0].contains("\n"))
  }

  @Test func jsonLinesParseBackToWhatWasReceived() throws {
    let event = try Self.event(Self.hostile)
    let records: [CollectorRecord] = [
      .accepted(event), .duplicate(event),
      .rejected(Rejection(status: 413, code: "too-large", message: Self.hostile), request: "POST /v1/batch", violations: event.violations),
      .injected(.failure(status: 503), request: "POST /v1/batch"), .injected(.droppedConnection, request: "GET /v1/config"),
      .injected(.failedAfterRecording, request: "POST /v1/batch"), .servedRemoteConfiguration(status: 304),
    ]
    for record in records {
      for line in record.jsonLines {
        #expect(!line.contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(object["kind"] is String)
      }
    }
    let accepted = try JSONSerialization.jsonObject(with: Data(CollectorRecord.accepted(event).jsonLines[0].utf8)) as? [String: Any]
    #expect((accepted?["event"] as? [String: Any])?["event"] as? String == Self.hostile)
    #expect((accepted?["violations"] as? [[String: Any]])?.first?["rule"] as? String == "unknown-event")
    let rejected = try JSONSerialization.jsonObject(with: Data(records[2].jsonLines[0].utf8)) as? [String: Any]
    #expect(rejected?["message"] as? String == Self.hostile)
  }

  @Test func jsonTextEscapesWhatJSONRequires() throws {
    let every = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init))) + "\u{2028}\u{2029}é🙂"
    let quoted = JSONText.quoted(every)
    #expect(try JSONSerialization.jsonObject(with: Data(quoted.utf8), options: .fragmentsAllowed) as? String == every)
    #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x2028 })
  }
}

/// What the collector takes as a timestamp: RFC 3339, strictly.
@Suite struct TimestampTests {
  @Test(arguments: [
    "2026-11-23T10:00:00.123Z", "2026-11-23T10:00:00Z", "2026-11-23t10:00:00z", "2026-11-23T10:00:00+01:00", "2026-11-23T10:00:00+0100",
    "2026-11-23T10:00:00+01", "2026-11-23T10:00:00.1Z", "2026-11-23T10:00:00.123456789Z", "2026-11-23T10:00:00.123456+00:00",
    "2026-11-23T10:00:00-00:00", "2026-11-23T23:59:60Z", "2024-02-29T10:00:00Z", "0000-01-01T00:00:00Z", "2026-12-31T23:59:59.999+23:59",
  ])
  func taken(_ text: String) {
    #expect(BatchDecoder.isTimestamp(text))
  }

  @Test(arguments: [
    "", "2026-11-23", "2026-11-23T10:00:00", "2026-11-23 10:00:00Z", "2026-11-23T10:00Z", "2026-11-23T10:00:00.Z", "2026-11-23T10:00:00,123Z",
    "2026-11-23T10:00:00.1234567890Z", "2026-11-23T10:00:00Z ", "2026-11-23T10:00:00Z\u{0}", "+2026-11-23T10:00:00Z", "2026-02-29T10:00:00Z",
    "2026-04-31T10:00:00Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-01-00T00:00:00Z", "2026-11-23T24:00:00Z",
    "2026-11-23T10:60:00Z", "2026-11-23T10:00:61Z", "2026-11-23T10:00:00+24:00", "2026-11-23T10:00:00+01:60", "2026-11-23T10:00:00+1",
    "2026-1-23T10:00:00Z", "２０２６-11-23T10:00:00Z", "2026-11-23T10:00:00+01:0", "20261123T100000Z", "yesterday",
  ])
  func refused(_ text: String) {
    #expect(!BatchDecoder.isTimestamp(text))
  }
}
