import SwiftUI
import UIKit

/// A hosting controller subclass: a view controller like any other, whose root view is its own.
public final class SettingsHostingController: UIHostingController<SettingsView> {
  var notificationsEnabled = true

  public init() {
    super.init(rootView: SettingsView())
  }

  @available(*, unavailable)
  @MainActor required dynamic init?(coder aDecoder: NSCoder) { fatalError("init(coder:) is not used") }

  override public func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
  }

  func didChangeNotifications(_ enabled: Bool) {
    notificationsEnabled = enabled
  }
}

public struct SettingsView: View {
  public var body: some View {
    Form { Toggle("Notifications", isOn: .constant(true)) }
  }
}
