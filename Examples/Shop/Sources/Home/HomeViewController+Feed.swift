extension HomeViewController {
  /// Opens a product from the feed; `position` is its place in the feed, for ranking analysis.
  public func openProduct(id: String, position: Int) {
    openedProduct = id
  }
}
