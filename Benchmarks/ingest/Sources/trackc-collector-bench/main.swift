import Foundation
import TrackcCollector
import TrackcCore

// Reading a 100-event batch body, three ways, side by side in one run (release build):
// - the collector (`Collector.readBatch`: its JSON reader, the wire-format checks and the plan check);
// - Foundation's JSONSerialization into [String: Any] (no checks at all): the obvious alternative;
// - Foundation's JSONDecoder into Codable structs of the wire format (no checks either).
// Prints one JSON object: events/s for each (median of the rounds) and the ratios.

struct WireBatch: Decodable {
  struct Event: Decodable {
    struct Context: Decodable {
      struct Trackc: Decodable {
        var screen: String?
        var source: String?
        var handler: String?
      }
      struct App: Decodable {
        var name: String?
        var version: String?
        var build: String?
        var namespace: String?
      }
      struct Device: Decodable {
        var model: String?
        var manufacturer: String?
        var type: String?
      }
      struct OS: Decodable {
        var name: String?
        var version: String?
      }
      var app: App?
      var device: Device?
      var os: OS?
      var locale: String?
      var timezone: String?
      var trackc: Trackc?
    }
    enum Scalar: Decodable {
      case string(String)
      case number(Double)
      case bool(Bool)
      init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
          self = .string(string)
          return
        }
        if let bool = try? container.decode(Bool.self) {
          self = .bool(bool)
          return
        }
        self = .number(try container.decode(Double.self))
      }
    }
    var type: String
    var event: String
    var messageId: String
    var timestamp: String
    var anonymousId: String?
    var properties: [String: Scalar]?
    var integrations: [String: Bool]?
    var context: Context?
  }
  var batch: [Event]
}

let eventsPerBatch = 100
let arguments = CommandLine.arguments
let rounds = arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5
let configPath = arguments.count > 2 ? arguments[2] : "Examples/Shop/tracking.yaml"

func event(_ index: Int) -> String {
  #"{"type":"track","event":"CTRL_HOME_FAVORITE","properties":{"position":\#(index),"source":"home"},"#
    + #""messageId":"0193f5c2-7b1e-7c3a-9d2e-\#(String(100_000_000_000 + index))","timestamp":"2026-11-23T10:00:00.123Z","#
    + #""anonymousId":"3f2c5d1e-8a7b-4c6d-9e0f-112233445566","integrations":{"All":false,"firebase":true,"mixpanel":true},"#
    + #""context":{"app":{"name":"Shop","version":"2.1","build":"210","namespace":"com.example.shop"},"device":{"model":"iPhone15,2","manufacturer":"Apple","type":"ios"},"os":{"name":"iOS","version":"18.1"},"locale":"en-GB","timezone":"Europe/London","screen":{"width":393,"height":852,"density":3.0},"library":{"name":"trackc","version":"0.2.0"},"trackc":{"source":"control","handler":"onFavBtnPressed(_:)","screen":"HomeViewController"}}}"#
}
let body = Array(("{\"batch\":[" + (0..<eventsPerBatch).map(event).joined(separator: ",") + "],\"sentAt\":\"2026-11-23T10:00:01.000Z\"}").utf8)
let data = Data(body)

var configuration = CollectorConfiguration()
configuration.plan = try CollectorPlan.load(path: configPath)
let checked = try Collector.readBatch(body, configuration: configuration)
precondition(checked.count == eventsPerBatch && checked.allSatisfy { $0.violations.isEmpty })

/// Events read per second: as many batches as fit in about 0.3 s.
func measure(_ read: () throws -> Int) rethrows -> Double {
  var batches = 0
  var events = 0
  let start = ContinuousClock.now
  var elapsed = Duration.zero
  repeat {
    events += try read()
    batches += 1
    elapsed = ContinuousClock.now - start
  } while elapsed < .milliseconds(300)
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return Double(events) / seconds
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

var collector: [Double] = []
var serialization: [Double] = []
var decoder: [Double] = []
let jsonDecoder = JSONDecoder()
for _ in 0..<rounds {
  collector.append(try measure { try Collector.readBatch(body, configuration: configuration).count })
  serialization.append(try measure { ((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["batch"] as? [Any])?.count ?? 0 })
  decoder.append(try measure { try jsonDecoder.decode(WireBatch.self, from: data).batch.count })
}
let result: [String: Any] = [
  "batchBytes": body.count, "eventsPerBatch": eventsPerBatch, "rounds": rounds,
  "collectorEventsPerSecond": Int(median(collector)),
  "jsonSerializationEventsPerSecond": Int(median(serialization)),
  "jsonDecoderEventsPerSecond": Int(median(decoder)),
  "collectorOverJSONSerialization": (median(collector) / median(serialization) * 100).rounded() / 100,
  "collectorOverJSONDecoder": (median(collector) / median(decoder) * 100).rounded() / 100,
]
print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
