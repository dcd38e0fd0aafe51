/// What a run of `trackc adopt` counted, for a team tracking its adoption in CI: the JSON report's
/// `adoption` and the SARIF run's `properties.adoption`.
public struct AdoptionCounts: Encodable, Sendable, Hashable {
  public struct File: Encodable, Sendable, Hashable {
    public var file: String
    public var found: Int
    public var mapped: Int
    public var left: Int
  }

  /// Calls found, mapped to the plan's events (those the plan already had included), left in the code.
  public var found: Int
  public var mapped: Int
  public var alreadyPlanned: Int
  public var left: Int
  /// The calls left, by rule (`adopt-call-in-closure`: 3).
  public var leftByReason: [String: Int]
  /// Per file, in path order.
  public var files: [File]
}

extension Adopter.Result {
  public var counts: AdoptionCounts {
    var byReason: [String: Int] = [:]
    for diagnostic in diagnostics where diagnostic.ruleID.hasPrefix("adopt-") { byReason[diagnostic.ruleID, default: 0] += 1 }
    return AdoptionCounts(
      found: calls.count, mapped: mappedCount, alreadyPlanned: alreadyPlannedCount, left: leftCount, leftByReason: byReason,
      files: perFile.map { AdoptionCounts.File(file: $0.file, found: $0.found, mapped: $0.mapped, left: $0.found - $0.mapped) })
  }
}
