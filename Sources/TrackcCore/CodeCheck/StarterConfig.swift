/// The config `trackc init` writes for an existing app: every screen found in the sources, by kind: view
/// controllers (every subclass of the base classes, through UIKit's own classes and the app's; hosting
/// controllers among them), SwiftUI views that are screens (`SwiftUIIndex`) and view models.
///
/// A screen the config's interception reports as it stands gets enter and leave events; its handlers
/// are listed as commented-out entries, ready to be switched on one by one. A screen that needs a line of
/// code first (a SwiftUI view without `.tracked(_:)`) or another interception (a view model under
/// `objc-runtime`; a view controller without lifecycle methods under `dynamic-replacement`) is written
/// as a commented-out block that says what it needs. The config passes `trackc lint` as written, and still
/// does with every handler switched on.
public enum StarterConfig {
  public struct Result: Sendable {
    public var text: String
    /// Every screen found, enabled or commented out.
    public var screenCount: Int
    public var handlerCount: Int
    /// The screens found by kind.
    public var counts: [ScreenKind: Int]
    /// SwiftUI screens a hosting controller shows (reported without code under `objc-runtime`).
    public var hostedViewCount: Int

    /// "91 view controllers (14 hosting), 60 SwiftUI screens (20 hosted), 40 view models".
    public var summary: String {
      let controllers = (counts[.viewController] ?? 0) + (counts[.hostingController] ?? 0)
      var parts = ["\(controllers) view controller\(controllers == 1 ? "" : "s") (\(counts[.hostingController] ?? 0) hosting)"]
      let views = counts[.swiftUIView] ?? 0
      parts.append("\(views) SwiftUI screen\(views == 1 ? "" : "s") (\(hostedViewCount) hosted)")
      let models = counts[.viewModel] ?? 0
      parts.append("\(models) view model\(models == 1 ? "" : "s")")
      return parts.joined(separator: ", ")
    }
  }

  /// - Parameters:
  ///   - bases: the base classes whose subclasses are screens; by default every view controller.
  ///   - sources: the source paths as the config should name them (relative to the config).
  public static func make(
    registry: HandlerRegistry, bases: [String] = [], sources: [String], interception: TrackingConfig.Interception = .objcRuntime,
    frameworkClasses: FrameworkClasses = .apple
  ) -> Result {
    let index = CodeIndex(registry, frameworkClasses: frameworkClasses)
    let bases = bases.isEmpty ? FrameworkClasses.viewControllerRoots.sorted() : bases

    // View controllers (or the given bases' subclasses), then SwiftUI screens, then view models.
    let controllers = index.screenClasses(derivingFrom: Set(bases)).map(\.type).filter { !index.swiftUI.views.contains($0) }
    let viewModels = index.swiftUI.viewModels.filter { !controllers.contains($0) }
    // A view shown only by a hosting controller subclass that is a screen itself is that screen.
    let listed = Set(controllers)
    let views = index.swiftUI.screens.keys.filter { index.swiftUI.isScreenOfItsOwn($0, listed: listed) }
    var writer = Writer(index: index, interception: interception, listedControllers: listed)
    let groups: [(title: String, kind: ScreenKind?, types: [Int])] = [
      ("View controllers", nil, controllers),
      ("SwiftUI screens", .swiftUIView, views),
      ("View models", .viewModel, Array(viewModels)),
    ]
    for group in groups where !group.types.isEmpty {
      writer.group(group.title, group.types.sorted { UTF8Order.less(registry.types[$0].name, registry.types[$1].name) }, kind: group.kind)
    }

    var lines = [
      "# Written by `trackc init`: the screens found in the sources (\(writer.summary)).",
      "# A screen the interception below reports as it stands has enter and leave events, and its handlers",
      "# commented out: uncomment and rename what you want to track. A screen that needs something first is",
      "# commented out whole, with what it needs. Then run `trackc lint` on this file.",
      "version: 1",
      "sources: [\(sources.map(quoted).joined(separator: ", "))]",
      "interception: \(interception.rawValue)",
      "",
    ]
    if writer.enabledCount == 0 {
      lines.append(
        writer.screenCount == 0
          ? "# No screen (subclass of \(bases.joined(separator: ", ")), SwiftUI screen or view model) was found."
          : "# None of them can be tracked as it stands.")
      lines.append("screens: {}")
      lines += writer.lines.map { $0.hasPrefix("  #") || $0.isEmpty ? $0 : "# " + $0 }
    } else {
      lines.append("screens:")
      lines += writer.lines
    }
    return Result(
      text: lines.joined(separator: "\n") + "\n", screenCount: writer.screenCount, handlerCount: writer.handlerCount, counts: writer.counts,
      hostedViewCount: writer.hostedViewCount)
  }

  /// The screens' lines, group by group.
  private struct Writer {
    let index: CodeIndex
    let interception: TrackingConfig.Interception
    let listedControllers: Set<Int>
    var lines: [String] = []
    var eventIDs = UniqueNames()
    var screenCount = 0
    var enabledCount = 0
    var handlerCount = 0
    var hostedViewCount = 0
    var counts: [ScreenKind: Int] = [:]

    init(index: CodeIndex, interception: TrackingConfig.Interception, listedControllers: Set<Int>) {
      self.index = index
      self.interception = interception
      self.listedControllers = listedControllers
    }

    var summary: String {
      Result(text: "", screenCount: screenCount, handlerCount: handlerCount, counts: counts, hostedViewCount: hostedViewCount).summary
    }

    mutating func group(_ title: String, _ types: [Int], kind: ScreenKind?) {
      lines.append("  # \(title) (\(types.count))")
      for type in types { screen(type, kind: kind ?? index.screenKind(of: type) ?? .viewController) }
      lines.append("")
    }

    mutating func screen(_ type: Int, kind: ScreenKind) {
      let registry = index.registry
      let declared = registry.types[type]
      screenCount += 1
      counts[kind, default: 0] += 1
      // Qualified when another module declares the name too, as `ambiguous-screen` requires.
      let key = index.isDeclaredInSeveralModules(declared.name) ? declared.qualifiedName : declared.name
      let shortName = StarterConfig.screenStem(declared.name.split(separator: ".").last.map(String.init) ?? declared.name)
      // Two modules with the same screen name: their events are told apart by module, not by a number.
      let module = declared.module ?? ""
      let stem = StarterConfig.screamingSnake(
        key == declared.name || module.lowercased() == shortName.lowercased() ? shortName : module + shortName)

      // What reports its page events, and what keeps it from being tracked as it stands.
      var phases: [TrackingConfig.PagePhase] = []
      var blocker: String?
      var note = kind.rawValue
      switch kind {
      case .viewController, .hostingController:
        if interception == .objcRuntime {
          phases = TrackingConfig.PagePhase.allCases
        } else {
          phases = TrackingConfig.PagePhase.allCases.filter { lifecycleMethod($0, of: type) != nil }
        }
      case .swiftUIView:
        let caseName = SwiftUIScreenCases.caseName(forKey: key)
        let hosted = index.swiftUI.isReportedByHostingController(type, screens: listedControllers)
        if hosted { hostedViewCount += 1 }
        note += ", " + (index.swiftUI.screens[type]?.words ?? "a screen")
        let ownLifecycle = TrackingConfig.PagePhase.allCases.filter { lifecycleMethod($0, of: type) != nil }
        if hosted && interception == .objcRuntime || index.swiftUI.trackedUses.contains(where: { $0.caseName == caseName }) {
          phases = TrackingConfig.PagePhase.allCases
        } else if interception == .dynamicReplacement && !ownLifecycle.isEmpty {
          phases = ownLifecycle
        } else {
          blocker = "add `.tracked(.\(caseName))` to its body, then uncomment"
        }
      case .viewModel:
        if let observation = index.swiftUI.observableClasses[type] {
          note = "view model, " + (observation == .observable ? "@Observable" : "ObservableObject")
        }
        if interception == .objcRuntime {
          blocker = "a view model is intercepted with interception: dynamic-replacement"
        } else {
          phases = TrackingConfig.PagePhase.allCases.filter { lifecycleMethod($0, of: type) != nil }
        }
      }
      let handlers = self.handlers(of: type, kind: kind)
      if blocker == nil && phases.isEmpty {
        blocker =
          handlers.isEmpty
          ? "no page events: it declares no lifecycle method (conventions.lifecycle)"
          : "no page events (it declares no lifecycle method): map a handler"
      }

      var entry = ["\(StarterConfig.quoted(key)):  # \(note)"]
      if !phases.isEmpty {
        entry.append("  page_events:")
        for phase in phases { entry.append("    \(phase.rawValue): \(eventIDs.claim("PAGE_\(stem)_\(phase.rawValue.uppercased())"))") }
      }
      if !handlers.isEmpty {
        entry.append("  # control_events:")
        for handler in handlers {
          entry.append(
            "  #   \(StarterConfig.quoted(handler.name)): \(eventIDs.claim("CTRL_\(stem)_\(StarterConfig.screamingSnake(handler.baseName))"))")
        }
      }
      if let blocker {
        // Commented out whole; its handlers are not switched on with the others'.
        lines.append("  # \(entry[0])  (\(blocker))")
        lines += entry.dropFirst().map { "  #   " + ($0.hasPrefix("  # ") ? String($0.dropFirst(4)) : String($0.dropFirst(2))) }
      } else {
        enabledCount += 1
        handlerCount += handlers.count
        lines += entry.map { "  " + $0 }
      }
    }

    private func lifecycleMethod(_ phase: TrackingConfig.PagePhase, of type: Int) -> MethodReference? {
      TrackingConfig.Lifecycle().methods(for: phase).lazy.compactMap { index.instanceMethod(named: $0, on: type) }.first
    }

    /// What a screen exposes as handlers: a view controller's target-actions (exposed to Objective-C),
    /// a view model's methods that dynamic replacement reaches; never overrides of framework methods
    /// (`viewDidAppear(_:)`, callbacks) or lifecycle methods.
    private func handlers(of type: Int, kind: ScreenKind) -> [DeclaredMethod] {
      let registry = index.registry
      let lineage = index.lineage(of: type)
      let ownNames = Set(lineage.flatMap { registry.types[$0].methods.filter { !$0.attributes.contains("override") }.map(\.name) })
      let lifecycle = Set(TrackingConfig.PagePhase.allCases.flatMap { TrackingConfig.Lifecycle().methods(for: $0) })
      return index.handlerCandidates(of: type).filter { method in
        guard !method.attributes.contains("override") || ownNames.contains(method.name), !lifecycle.contains(method.name) else { return false }
        switch kind {
        case .viewController, .hostingController, .swiftUIView:
          return interception == .objcRuntime ? method.objcSelector != nil : method.objcSelector != nil && method.isReplaceable
        case .viewModel:
          return method.isReplaceable
        }
      }.sorted { $0.name < $1.name }
    }
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
