import ShopUI

/// The shop's front page: a hero banner, a search field and a feed of products to favourite or open.
open class HomeViewController: ScreenController {
  public private(set) var favourites: Set<String> = []
  public internal(set) var openedProduct: String?
  let feed: [String]

  public init(feed: [String]) {
    self.feed = feed
    super.init(title: "Home")
  }

  public func onFavBtnPressed(_ sender: Control) {
    if !favourites.insert(sender.identifier).inserted { favourites.remove(sender.identifier) }
  }

  public func onSearchBtnPressed(_ sender: Control) {}

  public func onBannerTapped(_ sender: Control) {
    openProduct(id: sender.identifier, position: 0)
  }
}
