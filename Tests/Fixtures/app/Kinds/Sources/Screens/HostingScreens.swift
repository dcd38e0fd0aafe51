import SwiftUI
import UIKit

/// A hosting controller for a SwiftUI view: a view controller, a screen of its own.
final class AboutHostingController: UIHostingController<AboutView> {}

/// A generic hosting controller, for any content.
final class SheetHostingController<Content: View>: UIHostingController<Content> {
  @objc func onDismissTapped(_ sender: Any) {}
}

struct AboutView: View {
  var body: some View { Text("About") }
}
