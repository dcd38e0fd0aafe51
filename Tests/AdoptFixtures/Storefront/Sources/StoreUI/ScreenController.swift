/// The base of the app's screens: a plain Swift stand-in for a view controller, so that the app builds
/// and runs on Linux. Its lifecycle methods are where page events come from.
open class ScreenController {
  public private(set) var isVisible = false

  public init() {}

  open func viewDidAppear(_ animated: Bool) {
    isVisible = true
  }

  open func viewDidDisappear(_ animated: Bool) {
    isVisible = false
  }
}
