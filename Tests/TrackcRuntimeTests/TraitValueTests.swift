import Foundation
import Testing
import TrackcCollector

@_spi(Generated) @testable import TrackcRuntime

/// Traits as analytics-swift keeps them: nested objects (Segment's reserved `address` and `company`),
/// arrays and nulls, and integers to 64 bits, kept exactly through the journal (the identify call and the
/// snapshot every later event carries), the state file (a relaunch), the batch JSON and the project's
/// collector (on 127.0.0.1).
@Suite struct TraitValueTests {
  static let traits: [String: PropertyValue] = [
    "email": .string("ada@example.com"),
    "address": .object(["city": .string("London"), "postal_code": .string("N1 9GU"), "street": .null]),
    "company": .object(["name": .string("Analytical Engines"), "employee_count": .int(Int(Int64.max)), "industry": .null]),
    "interests": .array([.string("tea"), .int(9_007_199_254_740_993), .null, .object(["level": .double(0.5)]), .array([])]),
    "account": .int(9_007_199_254_740_993),
    "smallest": .int(Int(Int64.min)),
    "cleared": .null,
    "vip": .bool(true),
  ]

  /// What the collector reads back: each value as it was, numbers by their exact digits.
  static func received(_ value: PropertyValue) -> ReceivedValue {
    switch value {
    case .string(let string): return .string(string)
    case .int(let int): return .number(Double(int), text: String(int))
    case .double(let double): return .number(double, text: String(double))
    case .bool(let bool): return .bool(bool)
    case .null: return .null
    case .array(let values): return .array(values.map(received))
    case .object(let object): return .object(object.mapValues(received))
    }
  }

  @Test func nestedTraitsAndLargeIntegersRoundTripExactly() async throws {
    let collector = try await DeliveryHarness.start()
    let directory = try TemporaryDirectory()
    let journal = JournalConfiguration(storage: .directory(directory.url))
    do {
      let tracker = Tracker(
        registry: TestRegistry(), destinations: [try DeliveryHarness.destination(collector)], journal: journal, retry: DeliveryHarness.retry)
      tracker.identify(userID: "user-1", traits: Self.traits)
      tracker.track(UnrestrictedEvent.detailBuy, properties: ["n": .int(0)])
      #expect(await tracker.flush(timeout: 30))
      #expect(tracker.identity.traits == Self.traits)
    }
    let identify = try #require(collector.received.first)
    #expect(identify.type == .identify && identify.traits == Self.traits.mapValues(Self.received), "\(identify.json)")
    #expect(identify.json.contains(#""employee_count":9223372036854775807"#) && identify.json.contains(#""smallest":-9223372036854775808"#))
    #expect(identify.json.contains(#""interests":["tea",9007199254740993,null,{"level":0.5},[]]"#), "\(identify.json)")
    // The event after it carries the same traits in its context (the snapshot record).
    let event = try #require(collector.received.last)
    #expect(event.json.contains(#""address":{"city":"London","postal_code":"N1 9GU","street":null}"#), "\(event.json)")
    #expect(event.json.contains(#""account":9007199254740993"#))

    // A relaunch reads them back from the state file, exactly.
    let tracker = Tracker(
      registry: TestRegistry(), destinations: [try DeliveryHarness.destination(collector)], journal: journal, retry: DeliveryHarness.retry)
    #expect(tracker.identity.traits == Self.traits)
    await collector.stop()
  }

  /// Arrays and objects nest up to `PropertyValue.maximumNesting` levels; deeper, the journal and the
  /// wire keep a null (a record never fails to read back because of what an app nested).
  @Test func nestingBeyondTheLimitIsKeptAsNull() throws {
    func nested(_ levels: Int, _ inner: PropertyValue) -> PropertyValue {
      (0..<levels).reduce(inner) { value, _ in .array([value]) }
    }
    let deep = nested(PropertyValue.maximumNesting + 5, .string("bottom"))
    let kept = nested(PropertyValue.maximumNesting, .null)
    let limit = nested(PropertyValue.maximumNesting, .string("bottom"))
    for (value, expected) in [(deep, kept), (limit, limit)] {
      let snapshot = EventSnapshot(identity: TrackingIdentity(anonymousID: "a", traits: ["deep": value]), context: TrackingContext())
      var bytes = [UInt8](repeating: 0, count: SnapshotCoding.encodedSize(snapshot, number: 0))
      let written = bytes.withUnsafeMutableBytes { SnapshotCoding.encode(snapshot, number: 0, into: $0.baseAddress!) }
      #expect(written == bytes.count)
      let decoded = bytes.withUnsafeBytes { SnapshotCoding.decode($0) }
      #expect(decoded?.snapshot.identity.traits["deep"] == expected)
      var json: [UInt8] = []
      BatchJSON.value(value, into: &json)
      var expectedJSON: [UInt8] = []
      BatchJSON.value(expected, into: &expectedJSON)
      #expect(json == expectedJSON)
    }
    // Scalars are written as before (tags 0 to 4): a state of an earlier release reads as it did.
    let old = StateFile.State(identity: TrackingIdentity(anonymousID: "a", traits: ["plan": .string("pro"), "age": .int(42)]))
    #expect(StateFile.decode(StateFile.encode(old)) == old)
  }
}
