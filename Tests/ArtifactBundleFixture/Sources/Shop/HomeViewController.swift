/// The fixture app's one screen, which trackc reads (in worker processes of the bundle's tool) and checks
/// the plan against.
open class HomeViewController {
  public private(set) var favourites = 0

  public init() {}

  public func viewDidAppear(_ animated: Bool) {}

  public func onFavBtnPressed(_ sender: AnyObject) {
    favourites += 1
  }
}
