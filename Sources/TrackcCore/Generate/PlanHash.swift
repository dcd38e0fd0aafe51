import Foundation

/// The hash of a plan's content that every event carries beside the plan's version
/// (`context.trackingPlan.hash`): FNV-1a, 64 bits, over the config file's bytes, as `fnv1a64:` and 16
/// hex digits. The generator writes it into the registry, and `trackc collector --config` works it out
/// from the file it checks against: a different hash is an event built from another plan. Not a
/// cryptographic hash: it tells versions of a plan apart, it does not authenticate them.
public enum PlanHash {
  public static func of(_ bytes: some Sequence<UInt8>) -> String {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    let digits = String(hash, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The hash of the file at `path`; nil when it cannot be read.
  public static func ofFile(atPath path: String) -> String? {
    FileManager.default.contents(atPath: path).map { of($0) }
  }
}
