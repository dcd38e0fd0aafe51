/// Screens that can be pulled to refresh.
protocol Refreshable {
  func onPullToRefresh()
}
