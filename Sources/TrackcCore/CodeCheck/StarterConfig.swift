/// The config `trackc init` writes for an existing app: every screen found in the sources (subclasses of
/// the given base classes) with enter and leave events, and the handlers each exposes to Objective-C
/// listed as commented-out entries, ready to be switched on one by one. It passes `trackc lint` as written.
public enum StarterConfig {
  public struct Result: Sendable {
    public var text: String
    public var screenCount: Int
    public var handlerCount: Int
  }

  /// - Parameter sources: the source paths as the config should name them (relative to the config).
  public static func make(registry: HandlerRegistry, bases: [String], sources: [String]) -> Result {
    let index = CodeIndex(registry)
    let screens = index.screenClasses(derivingFrom: Set(bases)).map(\.type)

    var lines = [
      "# Written by `trackc init`: every screen found in the sources (subclasses of \(bases.joined(separator: ", "))), with enter",
      "# and leave events, and the handlers it exposes to Objective-C commented out. Uncomment and rename what",
      "# you want to track, then run `trackc lint` on this file.",
      "version: 1",
      "sources: [\(sources.map(quoted).joined(separator: ", "))]",
      "interception: objc-runtime",
      "",
    ]
    var eventIDs = UniqueNames()
    func unique(_ id: String) -> String { eventIDs.claim(id) }
    var handlerCount = 0
    if screens.isEmpty {
      lines.append("# No subclass of \(bases.joined(separator: ", ")) was found in the sources.")
      lines.append("screens: {}")
    } else {
      lines.append("screens:")
    }
    for type in screens.sorted(by: { registry.types[$0].name < registry.types[$1].name }) {
      let declared = registry.types[type]
      // Qualified when another module declares the name too, as `ambiguous-screen` requires.
      let key = index.isDeclaredInSeveralModules(declared.name) ? declared.qualifiedName : declared.name
      let shortName = screenStem(declared.name.split(separator: ".").last.map(String.init) ?? declared.name)
      // Two modules with the same screen name: their events are told apart by module, not by a number.
      let module = declared.module ?? ""
      let stem = screamingSnake(key == declared.name || module.lowercased() == shortName.lowercased() ? shortName : module + shortName)
      lines.append("  \(quoted(key)):")
      lines.append("    page_events:")
      lines.append("      enter: \(unique("PAGE_\(stem)_ENTER"))")
      lines.append("      leave: \(unique("PAGE_\(stem)_LEAVE"))")
      // Overrides of framework methods (`viewDidAppear(_:)`) are callbacks, not action handlers.
      let lineage = index.lineage(of: type)
      let ownNames = Set(lineage.flatMap { registry.types[$0].methods.filter { !$0.attributes.contains("override") }.map(\.name) })
      let handlers = index.handlerCandidates(of: type)
        .filter { $0.objcSelector != nil && (!$0.attributes.contains("override") || ownNames.contains($0.name)) }
        .sorted { $0.name < $1.name }
      if !handlers.isEmpty {
        lines.append("    # control_events:")
        for handler in handlers {
          lines.append("    #   \(quoted(handler.name)): \(unique("CTRL_\(stem)_\(screamingSnake(handler.baseName))"))")
          handlerCount += 1
        }
      }
    }
    return Result(text: lines.joined(separator: "\n") + "\n", screenCount: screens.count, handlerCount: handlerCount)
  }

  /// `HomeViewController` -> `Home`.
  static func screenStem(_ name: String) -> String {
    for suffix in ["ViewController", "Controller", "Screen", "View"] where name.hasSuffix(suffix) && name.count > suffix.count {
      return String(name.dropLast(suffix.count))
    }
    return name
  }

  /// `onFavBtnPressed` -> `ON_FAV_BTN_PRESSED`; anything but ASCII letters and digits becomes `_`.
  static func screamingSnake(_ name: String) -> String {
    var result = ""
    var previousWasLower = false
    for scalar in name.unicodeScalars {
      let isUpper = scalar.properties.isUppercase
      if isUpper && previousWasLower { result += "_" }
      if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        result += String(scalar).uppercased()
      } else if !result.hasSuffix("_") {
        result += "_"
      }
      previousWasLower = scalar.properties.isLowercase || ("0"..."9").contains(scalar)
    }
    let trimmed = result.split(separator: "_", omittingEmptySubsequences: true).joined(separator: "_")
    return trimmed.isEmpty ? "SCREEN" : trimmed
  }

  /// A YAML plain scalar when safe, otherwise single-quoted.
  static func quoted(_ text: String) -> String {
    let safe = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.():".unicodeScalars.contains($0) }
    let reserved = text.first.map { "-?:,[]{}#&*!|>'\"%@`".contains($0) } ?? true
    if safe && !reserved && !text.contains(": ") && !text.hasSuffix(":") { return text }
    return "'" + text.replacingSingleQuotes() + "'"
  }
}

extension String {
  fileprivate func replacingSingleQuotes() -> String {
    split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''")
  }
}
