import Observation

/// The base of the fixture's screens: its lifecycle methods carry the page events.
open class Screen {
  public private(set) var log: [String] = []

  public init() {}

  open func viewDidAppear(_ animated: Bool) {
    record("Screen.viewDidAppear")
  }

  open func viewDidDisappear(_ animated: Bool) {
    record("Screen.viewDidDisappear")
  }

  public func record(_ entry: String) {
    log.append(entry)
  }
}

/// A screen with handlers of every shape a replacement must repeat.
open class CatalogScreen: Screen {
  public enum Failure: Error { case outOfStock }

  /// A raw-value enum, an optional, a nested path and a value of another integer type: what bindings read.
  public enum Tab: String { case all, sale }
  public var selectedTab: Tab = .all
  public var coupon: String? = nil
  public var cart = CatalogCart()
  public var note: String? = nil

  public func onFavorite(_ productID: String) {
    record("favorite \(productID)")
  }

  public func open(item: Int, at position: Int) {
    record("open \(item) at \(position)")
  }

  public func open(item: Int) {
    record("open \(item)")
  }

  /// Returns what it added; throws when it cannot.
  public func addToCart(_ productID: String, quantity: Int) throws -> Int {
    guard productID != "sold-out" else { throw Failure.outOfStock }
    record("add \(quantity) \(productID)")
    return quantity
  }

  public func refresh(completion: @escaping @Sendable () -> Void) {
    record("refresh")
    completion()
  }

  /// A base name that is a keyword.
  public func `default`(_ value: Int) {
    record("default \(value)")
  }

  func internalHandler() {
    record("internal")
  }
}

/// Overrides a handler and its lifecycle, calling super: each call is still one event.
public final class SaleScreen: CatalogScreen {
  override public func onFavorite(_ productID: String) {
    record("sale favorite")
    super.onFavorite(productID)
  }

  override public func viewDidAppear(_ animated: Bool) {
    record("SaleScreen.viewDidAppear")
    super.viewDidAppear(animated)
  }
}

/// Not listed in the config: its events are its superclass's.
public final class OutletScreen: CatalogScreen {}

/// A value type screen with a mutating, inout handler.
public struct Basket {
  public private(set) var items: [String] = []

  public init() {}

  public mutating func add(_ item: inout String, note: String) {
    items.append(item + note)
    item = ""
  }
}

/// A main-actor screen.
@MainActor public final class CheckoutScreen {
  public private(set) var paid = false

  public init() {}

  public func pay(_ amount: Double) {
    paid = amount > 0
  }

  /// Nested types are screens too.
  public final class Summary {
    public init() {}
    public func confirm() {}
  }
}

/// The catalog screen's cart, read through `self.cart.total`.
public struct CatalogCart {
  public var total: Double = 0
  public var count: UInt8 = 0
  public var owner: CatalogOwner? = nil

  public init() {}
}

public struct CatalogOwner {
  public var name: String = ""

  public init() {}
}

/// A SwiftUI screen's view model (`SwiftUI/WishlistView.swift` is the view): an `@Observable` class whose
/// actions are handlers and whose `onAppear()` and `onDisappear()`, which the view calls, carry its page
/// events. Observation exists on Linux, so this runs here; on Apple platforms it is iOS 17 and macOS 14,
/// later than this package's floor, so the model is marked so, and its generated replacements with it.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@Observable public final class WishlistModel {
  public private(set) var items: [String] = []
  public private(set) var visible = false

  public init() {}

  public func onAppear() { visible = true }

  public func onDisappear() { visible = false }

  public func add(_ item: String) { items.append(item) }
}
