import Foundation
import StoreAnalytics
import StoreUI
import Storefront

#if canImport(StoreTracking)
  import StoreTracking
  import TrackcRuntime
#endif

// The scripted session: `StoreSession <collector URL>`. Each step is what the shopper does; what it sent
// is delivered before the next step, so that the collector receives the events in the order they were
// made, whether the SDK's calls or trackc's interceptors made them.
guard CommandLine.arguments.count == 2, let endpoint = URL(string: CommandLine.arguments[1]) else {
  fatalError("usage: StoreSession <collector URL>")
}
let writeKey = "storefront-ios"
analytics.configure(endpoint: endpoint, writeKey: writeKey)

#if canImport(StoreTracking)
  // After adoption: the app's launch starts trackc too, with the same collector and write key.
  let journal = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-\(ProcessInfo.processInfo.processIdentifier)")
  defer { try? FileManager.default.removeItem(at: journal) }
  let tracker = try Trackc.start(Tracking.registry, endpoint: endpoint, writeKey: writeKey) { $0.journal = .directory(journal) }
#endif

func deliver() {
  analytics.flush()
  #if canImport(StoreTracking)
    tracker.uploadNow()
    guard tracker.flush(timeout: 60) else { fatalError("trackc did not deliver within a minute") }
  #endif
}

let cart = CartModel()
let catalog = CatalogViewController(category: "shoes", cart: cart)
let cartScreen = CartViewController(cart: cart)
let steps: [(String, () -> Void)] = [
  ("open the catalog", { catalog.viewDidAppear(true) }),
  ("choose boots", { catalog.onSelectCategory("boots") }),
  ("add a pair", { catalog.onAddToCart(productID: "sku-1") }),
  ("add another", { catalog.onAddToCart(productID: "sku-2") }),
  ("share the catalog", { catalog.onShare() }),
  ("leave the catalog", { catalog.viewDidDisappear(true) }),
  ("open the cart", { cartScreen.viewDidAppear(true) }),
  ("apply no coupon", { cartScreen.onApplyCoupon(code: "") }),
  ("apply a coupon", { cartScreen.onApplyCoupon(code: "SAVE10") }),
  ("remove the first item", { cartScreen.onRemoveItem(at: 0) }),
  ("check out", { cartScreen.onCheckout() }),
  ("leave the cart", { cartScreen.viewDidDisappear(true) }),
]
for (title, step) in steps {
  step()
  deliver()
  print("• \(title)")
}
