import ShopApp
import TrackcRuntime
import UIKit

/// The Shop's entry point on iOS, for the link of Scripts/typecheck-ios.sh (its package is a library that
/// its scripted session and tests drive): trackc started as the app starts it, then UIKit's run loop.
@main
enum ShopLaunch {
  @MainActor
  static func main() {
    do {
      try ShopApp.start()
    } catch {
      assertionFailure("trackc: \(error)")
    }
    _ = UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, nil)
  }
}
