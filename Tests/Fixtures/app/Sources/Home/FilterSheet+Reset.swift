extension HomeViewController.FilterSheet {
  @objc func onResetFilters(_ sender: Any) {}
}
