/// The base of every screen of the shop: a plain Swift stand-in for a view controller, so that the
/// example builds and runs on Linux. Its lifecycle methods are where page events come from.
open class ScreenController {
  public let title: String
  public private(set) var isVisible = false

  public init(title: String) {
    self.title = title
  }

  open func viewDidAppear(_ animated: Bool) {
    isVisible = true
  }

  open func viewDidDisappear(_ animated: Bool) {
    isVisible = false
  }
}

/// Something the user taps: a button, a banner, a row.
public struct Control: Sendable, Hashable {
  public let identifier: String

  public init(_ identifier: String) {
    self.identifier = identifier
  }
}
