/// The plan's SwiftUI screens (screens whose type is a `View`) and the case each has in the generated
/// `TrackingScreen`, which `.tracked(_:)` takes: `SettingsView` is `.settingsView`,
/// `Settings.ProfileView` is `.settingsProfileView`. Worked out in one place for the rules that check
/// the modifier's uses and for the generator that writes it.
public struct SwiftUIScreenCases: Sendable {
  public struct Entry: Sendable {
    public var screen: ResolvedPlan.Screen.ID
    public var type: Int
    public var caseName: String
  }

  /// In the order of the screens' keys.
  public let entries: [Entry]

  public init(_ code: MatchedPlan) {
    var entries: [Entry] = []
    var used = Set<String>()
    let screens = code.plan.screens.map(\.id).sorted { UTF8Order.less(code.plan.written($0).name.value, code.plan.written($1).name.value) }
    for screen in screens {
      guard let type = code.type(of: screen), code.index.swiftUI.views.contains(type) else { continue }
      let stem = Self.caseName(forKey: code.plan.written(screen).name.value)
      var name = stem
      var number = 2
      while !used.insert(name).inserted {
        name = "\(stem)\(number)"
        number += 1
      }
      entries.append(Entry(screen: screen, type: type, caseName: name))
    }
    self.entries = entries
  }

  public func entry(forCase name: String) -> Entry? { entries.first { $0.caseName == name } }

  /// Where a SwiftUI screen's appearance is reported from: its first `.tracked(_:)`, else (under
  /// `objc-runtime`) where a hosting controller is made with it as root; nil for other screens.
  public func reportingSite(of screen: ResolvedPlan.Screen.ID, in code: MatchedPlan) -> RegistryLocation? {
    guard let entry = entry(for: screen) else { return nil }
    if let use = code.index.swiftUI.trackedUses.first(where: { $0.caseName == entry.caseName }) { return use.location }
    return code.plan.interception == .objcRuntime ? code.index.swiftUI.hostingSites[entry.type] : nil
  }
  public func entry(for screen: ResolvedPlan.Screen.ID) -> Entry? { entries.first { $0.screen == screen } }

  /// `SettingsView` -> `settingsView`, `URLPreviewView` -> `urlPreviewView`, `Settings.ProfileView` ->
  /// `settingsProfileView`: the key's components joined, lower camel case.
  static func caseName(forKey key: String) -> String {
    let joined = key.split(separator: ".").map { String($0.filter { $0 != "`" }) }.joined()
    let scalars = Array(joined.unicodeScalars)
    var upper = 0
    while upper < scalars.count, scalars[upper].properties.isUppercase { upper += 1 }
    // `URLPreview`: the capitals but the last, which starts the next word; `URL`: all of them.
    let lowered = upper > 1 && upper < scalars.count ? upper - 1 : max(upper, 1)
    var result = String.UnicodeScalarView()
    for (position, scalar) in scalars.enumerated() {
      if position < lowered {
        result.append(contentsOf: String(scalar).lowercased().unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }
}
