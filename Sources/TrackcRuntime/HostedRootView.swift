/// The screen a hosting controller's root view is, from the root's type name: a hosting controller is
/// often given its screen with modifiers applied (`SettingsView().environmentObject(model)` is a
/// `SwiftUI.ModifiedContent<App.SettingsView, ...>`), so modified content is read as the view it
/// modifies. A type-erased root (`AnyView`) names no screen: such a screen carries `.tracked(_:)`.
///
/// Plain string work on `String(reflecting:)`'s output, so that it is tested on Linux, where SwiftUI
/// does not exist.
enum HostedRootView {
  /// `App.SettingsView` for `SwiftUI.ModifiedContent<App.SettingsView, SwiftUI._EnvironmentKeyWritingModifier<...>>`
  /// (any depth of modifiers); nil for `SwiftUI.AnyView`.
  static func screenTypeName(_ reflected: String) -> String? {
    var name = reflected.filter { $0 != " " }
    while name.hasPrefix(modifiedContent), name.hasSuffix(">") {
      name = firstArgument(of: String(name.dropFirst(modifiedContent.count).dropLast()))
    }
    guard !name.isEmpty, name != "SwiftUI.AnyView" else { return nil }
    return name
  }

  private static let modifiedContent = "SwiftUI.ModifiedContent<"

  /// The first of comma-separated generic arguments, commas inside nested brackets kept.
  private static func firstArgument(of arguments: String) -> String {
    var depth = 0
    for (offset, character) in arguments.enumerated() {
      switch character {
      case "<", "(", "[": depth += 1
      case ">", ")", "]": depth -= 1
      case "," where depth == 0: return String(arguments.prefix(offset))
      default: continue
      }
    }
    return arguments
  }
}
