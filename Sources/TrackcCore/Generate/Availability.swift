/// Where and since when a declaration of the code can be used, as its `@available` attributes say (the
/// scanner records them with those of the types and extensions around it): generated code that names
/// it repeats them. Swift refuses a reference to a type introduced after the app's deployment target
/// (an `@Observable` view model marked `@available(iOS 17, *)` in an app for iOS 16) from code not
/// marked available only there too, and warns at a deprecated declaration used outside a deprecated
/// context.
///
/// Read from the registry's attribute text, strictly: platforms Swift knows and versions of one to three
/// numbers, nothing else; an attribute that is not of that form is not repeated (`unavailable`,
/// `obsoleted:`, `@available(swift 5)` say nothing generated code can use).
enum Availability: Hashable {
  /// `@available(iOS 17, macOS 14, *)`: introduced in these versions.
  case introduced([PlatformVersion])
  /// `@available(*, deprecated)` (no platform), `@available(iOS, deprecated)`, `@available(iOS, deprecated: 18.0)`.
  case deprecated(platform: String?, version: String?)

  /// `iOS 17`, `macOS 14.2`.
  struct PlatformVersion: Hashable {
    var platform: String
    /// One to three numbers joined by dots, as written.
    var version: String
    /// Three numbers, missing ones 0: `17` is `17.0.0`.
    var numbers: [Int] {
      let written = version.split(separator: ".").map { Int($0) ?? 0 }
      return written + Array(repeating: 0, count: max(0, 3 - written.count))
    }
  }

  /// The platforms an `@available` attribute can name.
  static let platforms: Set<String> = [
    "iOS", "macOS", "OSX", "tvOS", "watchOS", "visionOS", "macCatalyst", "iOSApplicationExtension",
    "macOSApplicationExtension", "OSXApplicationExtension", "macCatalystApplicationExtension", "tvOSApplicationExtension",
    "watchOSApplicationExtension", "visionOSApplicationExtension",
  ]

  /// What one recorded attribute says (`@available(iOS, introduced: 17.0, deprecated: 18.0)` is two
  /// things); nothing for another attribute.
  static func read(_ attribute: String) -> [Availability] {
    guard attribute.hasPrefix("@available("), attribute.hasSuffix(")") else { return [] }
    let arguments = attribute.dropFirst("@available(".count).dropLast().split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.trimmingSpaces }
    guard let first = arguments.first else { return [] }
    if first == "*" {
      return arguments.dropFirst() == ["deprecated"] ? [.deprecated(platform: nil, version: nil)] : []
    }
    if platforms.contains(first) {
      // The long form: one platform, then labeled arguments.
      var result: [Availability] = []
      for argument in arguments.dropFirst() {
        if argument == "deprecated" {
          result.append(.deprecated(platform: first, version: nil))
          continue
        }
        let parts = argument.split(separator: ":", maxSplits: 1).map { $0.trimmingSpaces }
        guard parts.count == 2, isVersion(parts[1]) else { continue }
        switch parts[0] {
        case "introduced": result.append(.introduced([PlatformVersion(platform: first, version: parts[1])]))
        case "deprecated": result.append(.deprecated(platform: first, version: parts[1]))
        default: continue
        }
      }
      return result
    }
    // The short form: platforms with versions, and `*` last.
    guard arguments.last == "*" else { return [] }
    var versions: [PlatformVersion] = []
    for argument in arguments.dropLast() {
      let parts = argument.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      guard parts.count == 2, platforms.contains(parts[0]), isVersion(parts[1]) else { return [] }
      versions.append(PlatformVersion(platform: parts[0], version: parts[1]))
    }
    return versions.isEmpty ? [] : [.introduced(versions)]
  }

  /// The attribute's text: `@available(iOS 17, macOS 14, *)`, `@available(iOS, deprecated: 18.0)`.
  var attributeText: String {
    switch self {
    case .introduced(let versions): "@available(" + versions.map { $0.platform + " " + $0.version + ", " }.joined() + "*)"
    case .deprecated(let platform, let version): "@available(" + (platform ?? "*") + ", deprecated" + (version.map { ": " + $0 } ?? "") + ")"
    }
  }

  /// Every availability the attributes say, in their order, each once.
  static func of(_ attributes: [String]) -> [Availability] {
    var result: [Availability] = []
    for attribute in attributes {
      for availability in read(attribute) where !result.contains(availability) { result.append(availability) }
    }
    return result
  }

  /// The latest version each platform is introduced in, across `availabilities`, by platform name.
  static func introduced(_ availabilities: [Availability]) -> [PlatformVersion] {
    var latest: [String: PlatformVersion] = [:]
    for case .introduced(let versions) in availabilities {
      for version in versions where latest[version.platform].map({ $0.numbers.lexicographicallyPrecedes(version.numbers) }) ?? true {
        latest[version.platform] = version
      }
    }
    return latest.values.sorted { $0.platform < $1.platform }
  }

  /// What `needed` asks beyond what `context` already ensures: the check an `if #available` makes
  /// (none when the context covers it, since Swift warns at a check its scope makes needless).
  static func beyond(_ needed: [PlatformVersion], context: [PlatformVersion]) -> [PlatformVersion] {
    needed.filter { version in
      guard let ensured = context.first(where: { $0.platform == version.platform }) else { return true }
      return ensured.numbers.lexicographicallyPrecedes(version.numbers)
    }
  }

  /// `1`, `17.0`, `14.2.1`.
  private static func isVersion(_ text: String) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    return (1...3).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
  }
}

extension Substring {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
