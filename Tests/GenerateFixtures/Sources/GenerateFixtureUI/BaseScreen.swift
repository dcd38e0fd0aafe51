/// The cross-module fixture's base module: a screen base class whose lifecycle methods and a handler
/// carry the events of screens declared in another module (GenerateFixtureCart), and the value types
/// those screens' bindings read through.
open class BaseScreen {
  public private(set) var log: [String] = []

  public init() {}

  open func viewDidAppear(_ animated: Bool) {
    log.append("BaseScreen.viewDidAppear")
  }

  open func viewDidDisappear(_ animated: Bool) {
    log.append("BaseScreen.viewDidDisappear")
  }

  /// A handler declared here and mapped on a screen of another module.
  open func share(_ item: SharedItem) {
    log.append("share \(item.name)")
  }
}

/// A handler's argument: public and internal properties, an enum with raw values.
public struct SharedItem: Sendable {
  public enum Kind: String, Sendable { case gift, sample }

  public var name: String
  /// Internal: read only through a `@testable` import.
  var code: Int
  public var kind: Kind

  public init(name: String, code: Int, kind: Kind) {
    self.name = name
    self.code = code
    self.kind = kind
  }
}

/// State a screen of another module holds: a path goes through it.
public final class Basket {
  public var total = 0.0
  /// Internal: read only through a `@testable` import.
  var count = 0
  public var owner: BasketOwner?

  public init() {}
}

public final class BasketOwner {
  public var name: String?

  public init(name: String?) {
    self.name = name
  }
}

/// Sent as its description (`type: string`).
public struct Money: CustomStringConvertible, Sendable {
  public var cents: Int
  public var description: String { "€\(cents / 100).\(String(cents % 100).count == 1 ? "0" : "")\(cents % 100)" }

  public init(cents: Int) {
    self.cents = cents
  }
}

/// A name the other module declares too: the config qualifies both.
public final class Panel: BaseScreen {
  public var title = "ui"
}

/// A count of cents, by an alias of an alias (bindings follow both).
public typealias Cents = ItemCount
public typealias ItemCount = Int

/// A generic value a screen of another module holds: a binding reads its members with the argument the
/// screen gives (`Box<String>`'s `value` is a `String`).
public struct Box<Value> {
  public var value: Value

  public init(_ value: Value) {
    self.value = value
  }
}

extension Box where Value == String {
  /// Only a `Box<String>` has it.
  public var length: Int { value.count }
}
