/// The SwiftUI screens' part of the generated code: `TrackingScreen` (`<name>Screen`), a case per SwiftUI
/// screen of the plan, and the `.tracked(_:)` modifier that reports a screen's page events as its view
/// appears and disappears. What needs SwiftUI sits behind `#if canImport(SwiftUI)`; the rest (the enum,
/// and the call that reports a phase) compiles and runs everywhere, Linux included.
///
/// It needs nothing but the runtime, so that it can sit in a module the views import: where the rest of
/// the generated code imports the feature modules (`dynamic-replacement`), the views cannot import that.
struct SwiftUIEmitter {
  typealias Member = SwiftCode.Member

  let model: GenerationModel
  /// `TrackingScreen`: the namespace's name with `Screen`.
  let enumName: ValidIdentifier

  init(model: GenerationModel, namespace: ValidIdentifier) {
    self.model = model
    enumName = ValidIdentifier(derived: namespace.bare + "Screen")
  }

  var hasScreens: Bool { !model.swiftUIScreens.isEmpty }

  /// What the file says first, after the header.
  var explanation: [Comment] {
    [
      Comment("The SwiftUI screens of the plan: `.tracked(.\(model.swiftUIScreens.first?.caseName.bare ?? "screen"))` on a screen's view reports"),
      Comment("its page events as the view appears and disappears. trackc lint checks every use against the plan, and"),
      Comment("that each SwiftUI screen with page events carries one (or, under interception: objc-runtime, is a"),
      Comment("hosting controller's root view). What needs SwiftUI is compiled only where SwiftUI exists."),
    ]
  }

  /// The `#if canImport(SwiftUI)` block (its import and the modifier), then the enum of screens.
  func declarations() -> [Member] {
    let screen = ValidIdentifier(fixed: "screen")
    let report = { (phase: StaticString) -> SwiftCode.Expression in
      .call(.member(.reference([screen]), ValidIdentifier(fixed: "report")), [SwiftCode.Argument(.implicitMember(ValidIdentifier(fixed: phase)))])
    }
    let modifier = SwiftCode.Function(
      modifiers: [.public], name: ValidIdentifier(fixed: "tracked"),
      parameters: [SwiftCode.Parameter(label: nil, name: screen, type: .named([enumName]))],
      result: .opaque([ValidIdentifier(fixed: "View")]),
      body: [
        .expression(
          .trailingClosure(
            .member(.trailingClosure(.reference([ValidIdentifier(fixed: "onAppear")]), report("enter")), ValidIdentifier(fixed: "onDisappear")),
            report("leave")))
      ])
    let swiftUI: [Member] = [
      Member(declaration: .importModule(testable: false, [ValidIdentifier(fixed: "SwiftUI")])),
      Member(
        declaration: .extensionOf(
          [ValidIdentifier(fixed: "View")],
          [
            Member(
              declaration: .function(modifier),
              documentation: [Comment("Reports the page events of `screen` as this view appears and disappears.")])
          ]), blankLineBefore: true),
    ]
    let cases = model.swiftUIScreens.map { Member(declaration: .enumCase($0.caseName, rawValue: .string($0.runtimeName))) }
    let reportFunction = SwiftCode.Function(
      modifiers: [.public], name: ValidIdentifier(fixed: "report"),
      parameters: [SwiftCode.Parameter(label: nil, name: ValidIdentifier(fixed: "phase"), type: .named([ValidIdentifier(fixed: "PagePhase")]))],
      result: nil,
      body: [
        .expression(
          .call(
            .reference([ValidIdentifier(fixed: "Interception"), ValidIdentifier(fixed: "page")]),
            [
              SwiftCode.Argument(ArgumentLabel(fixed: "className"), .reference([ValidIdentifier(fixed: "rawValue")])),
              SwiftCode.Argument(.reference([ValidIdentifier(fixed: "phase")])),
            ]))
      ])
    let screens = Member(
      declaration: .enumeration(
        [.public], enumName,
        inherits: [ValidIdentifier(fixed: "String"), ValidIdentifier(fixed: "Sendable"), ValidIdentifier(fixed: "CaseIterable")],
        cases + [
          Member(
            declaration: .function(reportFunction), blankLineBefore: true,
            documentation: [Comment("Reports a page phase of this screen to the tracker `Interception` holds.")])
        ]), blankLineBefore: true,
      documentation: [
        Comment("The SwiftUI screens of the plan, for `.tracked(_:)`; each case's value is the screen's type as the"),
        Comment("registry names it."),
      ])
    return [Member(declaration: .ifCanImport(ValidIdentifier(fixed: "SwiftUI"), swiftUI), blankLineBefore: true), screens]
  }
}
