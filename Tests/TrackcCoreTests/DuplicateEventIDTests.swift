import Testing

@testable import TrackcCore

/// `duplicate-event-id` keeps the first event of each ID in one table: every later event with that ID,
/// the third as well as the second, points back at the first.
@Suite struct DuplicateEventIDTests {
  @Test func eachDuplicatePointsAtTheFirstEventWithItsID() throws {
    let config = """
      version: 1
      screens:
        Home: {page_events: {enter: A, leave: B}}
        Cart: {page_events: {enter: C, leave: A}}
        Checkout: {page_events: {enter: B, leave: D}}
        Order: {page_events: {enter: D, leave: A}}
      """
    let plan = try #require(Linter.lint(ConfigSource(path: "t.yaml", text: config)).plan)
    // Each pair as "ID line:column <- line:column" of the duplicate and of the event it points at.
    let pairs = DuplicateEventIDRule.duplicates(in: plan).map { event, original in
      let duplicate = plan.written(plan[event]).id
      let first = plan.written(plan[original]).id
      return "\(duplicate.value) \(duplicate.range.start.line):\(duplicate.range.start.column)"
        + " <- \(first.range.start.line):\(first.range.start.column)"
    }
    // In config order; the third A points at the first, not at the second.
    #expect(pairs == ["A 4:41 <- 3:31", "B 5:35 <- 3:41", "D 6:32 <- 5:45", "A 6:42 <- 3:31"])
  }
}
