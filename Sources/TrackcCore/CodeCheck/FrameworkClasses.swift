/// The classes of Apple's frameworks that apps subclass, each with its superclass: what the sources
/// cannot say about the classes their own classes inherit from. With it, a `SettingsViewController:
/// UITableViewController` is a view controller, and so is a `class Sheet: UIHostingController<SheetView>`
/// and every class of the app below either, in whichever module.
///
/// A config adds its own frameworks' classes (a design system shipped as a binary) with
/// `conventions.framework_classes`, each with its superclass.
public struct FrameworkClasses: Sendable {
  /// Class name (without module or generic arguments) to its superclass's name.
  private var superclasses: [String: String]

  /// The classes whose subclasses are view controllers: UIKit's and AppKit's.
  public static let viewControllerRoots: Set<String> = ["UIViewController", "NSViewController"]
  /// The generic view controllers that host a SwiftUI view: the generic argument is the root view's type.
  public static let hostingControllers: Set<String> = ["UIHostingController", "NSHostingController"]

  public static let apple = FrameworkClasses(superclasses: appleSuperclasses)

  init(superclasses: [String: String]) {
    self.superclasses = superclasses
  }

  /// These classes added (or their superclass replaced) to Apple's.
  public func adding(_ classes: [(name: String, superclass: String)]) -> FrameworkClasses {
    var copy = self
    for (name, superclass) in classes { copy.superclasses[name] = superclass }
    return copy
  }

  /// Apple's classes and those of `conventions.framework_classes`.
  public init(_ conventions: TrackingConfig.Conventions) {
    self = Self.apple.adding(conventions.frameworkClasses.map { ($0.name.value, $0.superclass.value) })
  }

  /// Whether the name is a framework class this table knows.
  public func contains(_ name: String) -> Bool { superclasses[name] != nil || name == "NSObject" }

  /// Every name the table knows, sorted (for did-you-mean).
  public var names: [String] { (Array(superclasses.keys) + ["NSObject"]).sorted() }

  /// The class and its superclasses, nearest first, as far as the table knows them (`[UITableViewController,
  /// UIViewController, UIResponder, NSObject]`); just the name for a class it does not know.
  public func ancestry(of name: String) -> [String] {
    superclassChain(from: name) { superclasses[$0] }
  }

  /// Protocols a class may name first in its inheritance clause, where a superclass would otherwise be:
  /// a class that names one of these (or a protocol of the sources) first has no superclass.
  static let commonProtocols: Set<String> = [
    "AnyObject", "Sendable", "Hashable", "Equatable", "Identifiable", "Codable", "Encodable", "Decodable", "Comparable",
    "CustomStringConvertible", "CustomDebugStringConvertible", "Error", "LocalizedError", "ObservableObject", "Observable",
    "NSObjectProtocol", "CaseIterable", "RawRepresentable", "View", "ViewModifier", "App", "Scene", "DynamicProperty",
  ]

  private static let appleSuperclasses: [String: String] = [
    // UIKit
    "UIResponder": "NSObject",
    "UIViewController": "UIResponder",
    "UITableViewController": "UIViewController",
    "UICollectionViewController": "UIViewController",
    "UINavigationController": "UIViewController",
    "UITabBarController": "UIViewController",
    "UIPageViewController": "UIViewController",
    "UISplitViewController": "UIViewController",
    "UISearchController": "UIViewController",
    "UISearchContainerViewController": "UIViewController",
    "UIAlertController": "UIViewController",
    "UIActivityViewController": "UIViewController",
    "UIImagePickerController": "UINavigationController",
    "UIVideoEditorController": "UINavigationController",
    "UIDocumentBrowserViewController": "UIViewController",
    "UIDocumentPickerViewController": "UIViewController",
    "UIDocumentViewController": "UIViewController",
    "UIReferenceLibraryViewController": "UIViewController",
    "UIInputViewController": "UIViewController",
    "UIFontPickerViewController": "UIViewController",
    "UIColorPickerViewController": "UIViewController",
    "UICloudSharingController": "UIViewController",
    "UIView": "UIResponder",
    "UIControl": "UIView",
    "UIApplication": "UIResponder",
    // SwiftUI
    "UIHostingController": "UIViewController",
    "NSHostingController": "NSViewController",
    // The system frameworks' view controllers
    "QLPreviewController": "UIViewController",
    "SFSafariViewController": "UIViewController",
    "AVPlayerViewController": "UIViewController",
    "ASCredentialProviderViewController": "UIViewController",
    "ASAccountAuthenticationModificationViewController": "UIViewController",
    "SLComposeServiceViewController": "UIViewController",
    "SLComposeViewController": "UIViewController",
    "MFMailComposeViewController": "UINavigationController",
    "MFMessageComposeViewController": "UINavigationController",
    "CNContactViewController": "UIViewController",
    "CNContactPickerViewController": "UIViewController",
    "PHPickerViewController": "UIViewController",
    "EKEventViewController": "UIViewController",
    "EKEventEditViewController": "UINavigationController",
    "EKCalendarChooser": "UIViewController",
    "GKGameCenterViewController": "UINavigationController",
    "PKAddPassesViewController": "UIViewController",
    "PKPaymentAuthorizationViewController": "UIViewController",
    "PKAddPaymentPassViewController": "UIViewController",
    "SKStoreProductViewController": "UIViewController",
    "SKCloudServiceSetupViewController": "UIViewController",
    "MPMediaPickerController": "UIViewController",
    "VNDocumentCameraViewController": "UIViewController",
    "DataScannerViewController": "UIViewController",
    "INUIAddVoiceShortcutViewController": "UIViewController",
    "INUIEditVoiceShortcutViewController": "UIViewController",
    "MSMessagesAppViewController": "UIViewController",
    "MSStickerBrowserViewController": "UIViewController",
    "RPPreviewViewController": "UIViewController",
    "RPBroadcastActivityViewController": "UIViewController",
    // AppKit
    "NSResponder": "NSObject",
    "NSViewController": "NSResponder",
    "NSSplitViewController": "NSViewController",
    "NSTabViewController": "NSViewController",
    "NSPageController": "NSViewController",
    "NSTitlebarAccessoryViewController": "NSViewController",
    "NSCollectionViewItem": "NSViewController",
    "NSView": "NSResponder",
    "NSWindowController": "NSResponder",
  ]
}

/// A type as written in an inheritance clause or a call (`SwiftUI.UIHostingController<SettingsView>`):
/// its name without module or spaces, and its generic arguments as written.
struct WrittenTypeName: Equatable {
  /// `UIHostingController` (the last dotted component before any generic arguments).
  var base: String
  /// `SwiftUI.UIHostingController`: every component, without generic arguments.
  var qualified: String
  /// `[SettingsView]`: the top-level generic arguments.
  var arguments: [String]

  init(_ written: String) {
    // Most names are plain (`UIViewController`, `Equatable`): no generic arguments, module or spaces.
    if !written.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ".") || $0 <= UInt8(ascii: " ") }) {
      base = written
      qualified = written
      arguments = []
      return
    }
    var text = String(String.UnicodeScalarView(written.unicodeScalars.filter { $0 != " " && $0 != "\n" && $0 != "\t" }))
    var arguments: [String] = []
    if let open = text.unicodeScalars.firstIndex(of: "<"), text.hasSuffix(">") {
      var depth = 0
      var current = String.UnicodeScalarView()
      for scalar in text.unicodeScalars[text.unicodeScalars.index(after: open)..<text.unicodeScalars.index(before: text.unicodeScalars.endIndex)] {
        switch scalar {
        case "<", "(", "[":
          depth += 1
          current.append(scalar)
        case ">", ")", "]":
          depth -= 1
          current.append(scalar)
        case "," where depth == 0:
          arguments.append(String(current))
          current = String.UnicodeScalarView()
        default:
          current.append(scalar)
        }
      }
      if !current.isEmpty { arguments.append(String(current)) }
      text = String(text.unicodeScalars[..<open])
    }
    qualified = text
    base = text.split(separator: ".").last.map(String.init) ?? text
    self.arguments = arguments
  }
}
