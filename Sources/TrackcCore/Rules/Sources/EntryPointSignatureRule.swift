/// An entry point whose parameters its screen cannot take: the screen declares `route(...)` methods or
/// initializers with parameters, and none takes the route's parameters (by name, type and optionality;
/// other parameters must have defaults), so the app's `switch` over `Route` cannot hand them over as the
/// config says.
///
/// Checked against the `route(...)` methods of the screen and its superclasses and the screen's own
/// initializers (a superclass's when the screen declares none, as Swift inherits them), in the sources.
/// `init(coder:)` and `init(nibName:bundle:)` are UIKit's, not a way to pass a route, and are not counted.
public enum EntryPointSignatureRule: CodeRule {
  public static let id = "entry-point-signature"
  public static let summary =
    "When a screen declares 'route(...)' methods or initializers, one must take the entry point's parameters: the same names (case and '_' aside), types and optionality."
  public static let severity = Diagnostic.Severity.error

  public static let examples: [RuleExample] = [
    .triggers(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        ProductScreen: {page_events: {enter: PRODUCT_ENTER}}
      links: {schemes: [shop]}
      entry_points:
        1️⃣product: {screen: ProductScreen, links: ["shop://product/{id:int}?ref={ref:string?}"]}
      """,
      swift: [
        "Sources/Product/ProductScreen.swift":
          "class ProductScreen {\n  func viewDidAppear(_ animated: Bool) {}\n  func route(id: String, ref: String) {}\n}\n"
      ], expecting: [.error("no 'route(...)' of 'ProductScreen' takes the parameters of entry point 'product' (id: Int, ref: String?)")]),
    .triggers(
      """
      version: 1
      screens:
        OrderViewController: {page_events: {enter: ORDER_ENTER}}
      links: {schemes: [shop]}
      entry_points:
        1️⃣order: {screen: OrderViewController, links: ["shop://order/{order_id:uuid}"]}
      """,
      swift: [
        "Sources/Orders/OrderViewController.swift":
          "import UIKit\nclass OrderViewController: UIViewController {\n  init(orderID: String) { super.init(nibName: nil, bundle: nil) }\n  required init?(coder: NSCoder) { nil }\n}\n"
      ], expecting: [.error("no initializer of 'OrderViewController' takes the parameters of entry point 'order' (order_id: UUID)")]),
    .passes(
      """
      version: 1
      screens:
        OrderViewController: {page_events: {enter: ORDER_ENTER}}
      links: {schemes: [shop]}
      entry_points:
        order: {screen: OrderViewController, links: ["shop://order/{order_id:uuid}"]}
        orders: {screen: OrderViewController, links: ["shop://orders"]}
      """,
      swift: [
        "Sources/Orders/OrderViewController.swift":
          "import UIKit\nclass OrderViewController: UIViewController {\n  init(orderID: UUID, animated: Bool = true) { super.init(nibName: nil, bundle: nil) }\n  required init?(coder: NSCoder) { nil }\n}\n"
      ]),
    .passes(
      """
      version: 1
      interception: dynamic-replacement
      screens:
        ProductScreen: {page_events: {enter: PRODUCT_ENTER}}
      links: {schemes: [shop]}
      entry_points:
        product: {screen: ProductScreen, links: ["shop://product/{id:int}?ref={ref:string?}&order_id={order_id:uuid?}"]}
      """,
      swift: [
        "Sources/Product/ProductScreen.swift":
          "import Foundation\nclass ProductScreen {\n  func viewDidAppear(_ animated: Bool) {}\n  func route(ref: String?, id: Int, orderID: Optional<UUID>) {}\n}\n"
      ]),
  ]

  public static func check(_ code: MatchedPlan, in context: inout RuleContext) {
    let plan = code.plan
    let types = code.index.types
    for route in plan.entryPoints.routes {
      guard let screen = route.screen, let type = code.type(of: screen) else { continue }
      let lineage = code.index.lineage(of: type)
      // Each with the type that declares it: its parameters' types are read there (aliases followed).
      let methods = lineage.flatMap { owner in
        code.index[owner].methods.filter { $0.baseName == "route" && $0.signature != nil }.map { (owner, $0) }
      }
      // An initializer with nothing to take is not how a route is handed over, and a route without
      // parameters needs nothing from one.
      let initializers = route.parameters.isEmpty ? [] : Self.initializers(of: lineage, in: code.index)
      guard !methods.isEmpty || !initializers.isEmpty else { continue }
      let takes = { (signature: MethodSignature, owner: Int) in
        accepts(signature, route.parameters) { types.type($0, in: types.scope(of: owner)) }
      }
      guard !methods.contains(where: { takes($0.1.signature!, $0.0) }), !initializers.contains(where: { takes($0.1.signature, $0.0) })
      else { continue }
      let wanted = route.parameters.map { "\($0.name): \(expectedType($0.type) ?? "its enum")\($0.isOptional ? "?" : "")" }.joined(separator: ", ")
      let candidates = initializers.isEmpty ? "'route(...)'" : methods.isEmpty ? "initializer" : "'route(...)' or initializer"
      context.report(
        Self.self,
        "no \(candidates) of '\(code.index[type].name)' takes the parameters of entry point '\(route.name)' (\(wanted.isEmpty ? "none" : wanted))",
        at: plan.config.entryPoints[route.entry].name.range,
        notes: methods.map { Diagnostic.Note("'\($0.1.name)' is declared here", at: $0.1.nameLocation) }
          + initializers.map { Diagnostic.Note("'\($0.1.name)' is declared here", at: $0.1.nameLocation) })
    }
  }

  /// The initializers that could take a route, each with the type that declares it: the screen's own,
  /// or, when it declares none, the nearest superclass's that does (Swift inherits them then); UIKit's
  /// `init(coder:)` and `init(nibName:bundle:)` and initializers without parameters left out.
  static func initializers(of lineage: [Int], in index: CodeIndex) -> [(Int, DeclaredInitializer)] {
    for owner in lineage {
      guard let declared = index[owner].initializers, !declared.isEmpty else { continue }
      return declared.filter { !$0.signature.parameters.isEmpty && !["init(coder:)", "init(nibName:bundle:)"].contains($0.name) }.map { (owner, $0) }
    }
    return []
  }

  /// Whether a method or initializer takes the route's parameters, each of its type (optional when the
  /// route's value may be absent), and needs nothing else. `resolve` reads a declared type as Swift does.
  static func accepts(
    _ signature: MethodSignature, _ parameters: [EntryPointPlan.RouteParameter], resolve: (String) -> ResolvedType
  ) -> Bool {
    // Every declared parameter is given one of the route's, or has a default value.
    guard
      signature.parameters.allSatisfy({ declared in
        declared.hasDefaultValue || parameters.contains { declared.label.map(folded) == folded($0.name) }
      })
    else { return false }
    for parameter in parameters {
      guard let declared = signature.parameters.first(where: { $0.label.map(folded) == folded(parameter.name) }) else { return false }
      var type = resolve(declared.type)
      var isOptional = false
      if case .optional(let wrapped) = type {
        type = wrapped
        isOptional = true
      }
      if parameter.isOptional && !isOptional { return false }
      // An enumeration's type is generated (`Tracking.Route.ProductTab`) or the app's own: any type.
      if let expected = expectedResolvedType(parameter.type), type != expected { return false }
    }
    return true
  }

  /// The same as `expectedType`, as the resolver gives it.
  static func expectedResolvedType(_ type: ParameterType) -> ResolvedType? {
    guard let name = expectedType(type) else { return nil }
    if name == "[String]" { return .external("Array", arguments: [.external("String", arguments: [])]) }
    return .external(name, arguments: [])
  }

  /// The Swift type a parameter's value has; nil for an enumeration.
  static func expectedType(_ type: ParameterType) -> String? {
    switch type {
    case .value(.int): return "Int"
    case .value(.int64): return "Int64"
    case .value(.string), .value(.slug): return "String"
    case .value(.uuid): return "UUID"
    case .value(.url): return "URL"
    case .value(.path): return "[String]"
    case .enumeration: return nil
    }
  }

  /// `order_id`, `orderId` and `orderID` are one name.
  static func folded(_ name: String) -> String {
    name.lowercased().filter { $0 != "_" }
  }
}
