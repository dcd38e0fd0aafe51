import Foundation
import GenerateFixtureUI

/// A screen in another module than the lifecycle methods and the handler that carry its events: the
/// generated replacements in GenerateFixtureUI's file cast to it, and read state of types from both.
open class CartScreen: BaseScreen {
  public var total = 0.0
  /// Internal: read only through a `@testable` import.
  var itemCount = 0
  public var basket = Basket()
  public var kind = SharedItem.Kind.gift
  public var price = Money(cents: 0)
  /// Read through a generic type of the other module, and a constrained extension of it.
  public var label: Box<String> = Box("gift")
  /// Aliases: the other module's (an alias of an alias), and the SDK's.
  public var discount: Cents = 0
  public var elapsed: TimeInterval = 0

  /// A handler of this module, whose argument's type is the other module's.
  public func checkout(_ item: SharedItem) {
    basket.total += 1
  }
}

/// An internal screen: the cast to it needs a `@testable` import.
final class InternalScreen: BaseScreen {
  var step = 1
}

/// The other `Panel`.
public final class Panel: BaseScreen {
  public var title = "cart"
}
