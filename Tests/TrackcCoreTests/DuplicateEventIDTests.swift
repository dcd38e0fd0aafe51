import Testing

@testable import TrackcCore

/// `duplicate-event-id` finds duplicates by the IDs' hashes, then compares strings: the answer must be the
/// same when every ID has the same hash (each pair a collision) as with the real hash.
@Suite struct DuplicateEventIDTests {
  @Test func collidingHashesFindTheSameDuplicatesAsRealOnes() throws {
    let config = """
      version: 1
      screens:
        Home: {page_events: {enter: A, leave: B}}
        Cart: {page_events: {enter: C, leave: A}}
        Checkout: {page_events: {enter: B, leave: D}}
        Order: {page_events: {enter: D, leave: A}}
      """
    let plan = try #require(Linter.lint(ConfigSource(path: "t.yaml", text: config)).plan)
    let real = DuplicateEventIDRule.duplicates(in: plan)
    let colliding = DuplicateEventIDRule.duplicates(in: plan, hashes: Array(repeating: 42, count: plan.events.count))
    let ids = { (pairs: [(ResolvedPlan.Event.ID, ResolvedPlan.Event.ID)]) in
      pairs.map { "\(plan.written(plan[$0.0]).id.value)@\($0.0)<-\($0.1)" }
    }
    #expect(real.count == 4)  // A twice more, B once more, D once more
    #expect(ids(real) == ids(colliding))
    // Each duplicate points at the first event with its ID.
    for (event, original) in real {
      #expect(original < event)
      #expect(plan.written(plan[original]).id.value == plan.written(plan[event]).id.value)
    }
  }
}
