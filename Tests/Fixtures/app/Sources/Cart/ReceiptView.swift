import SwiftUI

/// Declares `onAppear()`, which its body never calls (`uncalled-lifecycle-method`).
struct ReceiptView: View {
  var body: some View { Text("Receipt") }

  func onAppear() {}
}
