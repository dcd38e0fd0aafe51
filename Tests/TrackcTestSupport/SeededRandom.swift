import Foundation

/// A seeded random number generator (SplitMix64): property tests draw their inputs from it, so that a
/// failure names a seed that reproduces it. `TRACKC_PROPERTY_SEED` picks another base seed, to explore.
public struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  /// The base seed of a run: `TRACKC_PROPERTY_SEED` when set, else a fixed one (the same cases every run).
  public static var baseSeed: UInt64 {
    ProcessInfo.processInfo.environment["TRACKC_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0x7472_6163_6B63
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// True with probability `probability`.
  public mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < probability
  }

  public mutating func pick<T>(_ choices: [T]) -> T {
    choices.randomElement(using: &self)!
  }
}
