import CoreGraphics
import Foundation

/// A product as the screens hand it to their handlers: a value of every type a binding can read.
public struct Product: Sendable {
  /// A raw-value enum with an integer raw type.
  public enum Category: Int, Sendable { case shoes = 1, bags, hats }

  public var id: String
  public var name: String
  public var price: Double
  public var stock: Int
  public var isOnSale: Bool
  public var category: Category
  public var sku: Int64
  public var variants: UInt8
  public var rating: Float
  public var imageWidth: CGFloat
  public var badge: String?
  public var discount: Double?
  public var reviewCount: Int?
  public var isGift: Bool?
  public var colour: Colour?
  /// Sent as its description (`type: string`).
  public var listPrice: Money
  public var seller: Seller?

  public init(id: String, name: String, price: Double) {
    self.id = id
    self.name = name
    self.price = price
    stock = 1
    isOnSale = false
    category = .shoes
    sku = 0
    variants = 1
    rating = 0
    imageWidth = 0
    listPrice = Money(cents: Int((price * 100).rounded()))
  }
}

/// A raw-value enum with a string raw type.
public enum Colour: String, Sendable { case red, green, blue }

/// A value whose description is what an event sends.
public struct Money: CustomStringConvertible, Sendable {
  public var cents: Int
  public var description: String { "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)" }

  public init(cents: Int) {
    self.cents = cents
  }
}

/// Reached through an optional step: `product.seller.name`.
public struct Seller: Sendable {
  public var name: String
  public var rating: Double?

  public init(name: String, rating: Double? = nil) {
    self.name = name
    self.rating = rating
  }
}
