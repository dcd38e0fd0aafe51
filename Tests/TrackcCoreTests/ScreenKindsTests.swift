import Foundation
import Testing
import TrackcTestSupport

@testable import TrackcCore

/// What kind of screen each type of `Tests/Fixtures/app/Kinds` is: view controllers through UIKit's and
/// the system frameworks' own classes, the app's classes across modules and a framework class the config
/// declares; hosting controllers; SwiftUI views, the screens among them; view models.
@Suite struct ScreenKindsTests {
  static let sources = Fixtures.directory.appendingPathComponent("app/Kinds/Sources")

  static func index(_ frameworkClasses: FrameworkClasses = .apple) -> CodeIndex {
    let scanned = SourceScanner.scan(.paths([sources.path]), options: ScanOptions(useCache: false))
    return CodeIndex(scanned.registry, frameworkClasses: frameworkClasses)
  }

  static func type(_ name: String, in index: CodeIndex) throws -> Int {
    try #require(index.byNameLookup(name).first, "no type \(name)")
  }

  static let uikitScreens: [(screen: String, base: String)] = [
    ("SearchResultsViewController", "UITableViewController"), ("GalleryViewController", "UICollectionViewController"),
    ("ShopNavigationController", "UINavigationController"), ("RootTabBarController", "UITabBarController"),
    ("OnboardingPageViewController", "UIPageViewController"), ("MainSplitViewController", "UISplitViewController"),
    ("ProductSearchController", "UISearchController"), ("ConfirmAlertController", "UIAlertController"),
    ("DocumentsViewController", "UIDocumentBrowserViewController"), ("AttachmentPreviewController", "QLPreviewController"),
    ("HelpSafariViewController", "SFSafariViewController"), ("VideoPlayerViewController", "AVPlayerViewController"),
    ("KeyboardViewController", "UIInputViewController"), ("CredentialProviderViewController", "ASCredentialProviderViewController"),
    ("ShareViewController", "SLComposeServiceViewController"),
  ]

  @Test(arguments: uikitScreens)
  func everyUIKitBaseMakesAViewController(screen: String, base: String) throws {
    let index = Self.index()
    let type = try Self.type(screen, in: index)
    #expect(index.screenKind(of: type) == .viewController)
    #expect(index.ancestry(of: type) == [screen] + FrameworkClasses.apple.ancestry(of: base))
    #expect(index.ancestry(of: type).suffix(3) == ["UIViewController", "UIResponder", "NSObject"])
  }

  @Test func aChainOfThreeClassesAcrossTwoModules() throws {
    let index = Self.index()
    let catalog = try Self.type("CatalogViewController", in: index)
    #expect(index[catalog].module == "Catalog")
    #expect(
      index.lineage(of: catalog).map { index[$0].qualifiedName } == [
        "Catalog.CatalogViewController", "Design.DSListViewController", "Design.DSViewController",
      ])
    #expect(
      index.ancestry(of: catalog) == [
        "CatalogViewController", "DSListViewController", "DSViewController", "UIViewController", "UIResponder", "NSObject",
      ])
    // The design system's classes are bases, not screens; the third link is.
    let screens = index.screenClasses(derivingFrom: ["UIViewController"]).map { index[$0.type].name }
    #expect(screens.contains("CatalogViewController") && !screens.contains("DSListViewController") && !screens.contains("DSViewController"))
    // Handlers are inherited across the modules.
    #expect(index.handlerCandidates(of: catalog).map(\.name).sorted() == ["onFilterTapped(_:)", "onHelpTapped(_:)", "onRowSelected(_:)"])
  }

  @Test func hostingControllersGenericOnesIncluded() throws {
    let index = Self.index()
    let about = try Self.type("AboutHostingController", in: index)
    let sheet = try Self.type("SheetHostingController", in: index)
    #expect(index.screenKind(of: about) == .hostingController)
    #expect(index.screenKind(of: sheet) == .hostingController)
    #expect(index[sheet].isGeneric)
    #expect(index.externalSuperclass(of: sheet)?.name == "UIHostingController")
    #expect(index.externalSuperclass(of: sheet)?.arguments == [.parameter("Content")])
    // The subclass for a view hosts it; a generic one hosts no view of the sources.
    let aboutView = try Self.type("AboutView", in: index)
    #expect(index.swiftUI.hostingSubclasses == [about: aboutView])
    #expect(!index.swiftUI.isScreenOfItsOwn(aboutView, listed: [about]))
    #expect(index.swiftUI.isScreenOfItsOwn(aboutView, listed: []))
  }

  @Test func aFrameworkClassTheConfigDeclares() throws {
    let promo = try Self.type("PromoViewController", in: Self.index())
    #expect(Self.index().screenKind(of: promo) == nil, "unknown without the config")
    let declared = Self.index(FrameworkClasses.apple.adding([("VendorPromoViewController", "UIViewController")]))
    #expect(declared.screenKind(of: promo) == .viewController)
    #expect(declared.ancestry(of: promo) == ["PromoViewController", "VendorPromoViewController", "UIViewController", "UIResponder", "NSObject"])
  }

  @Test func swiftUIViewsAndTheScreensAmongThem() throws {
    let index = Self.index()
    let names = { (types: Set<Int>) in Set(types.map { index[$0].name }) }
    #expect(names(index.swiftUI.views) == ["AboutView", "AccountView", "OrdersView", "OrderDetailView", "PriceTag"])
    let screens = Dictionary(uniqueKeysWithValues: index.swiftUI.screens.map { (index[$0.key].name, $0.value) })
    #expect(
      screens == [
        "AccountView": .hosted,  // UIHostingController(rootView: screen.environment(model)), `let screen = AccountView(...)`
        "OrdersView": .presented,  // .sheet { OrdersView() }
        "OrderDetailView": .presented,  // NavigationLink(order) { OrderDetailView(id:) }
        "AboutView": .hosted,  // class AboutHostingController: UIHostingController<AboutView>
      ])
    #expect(names(index.swiftUI.hostedViews) == ["AccountView"])
    #expect(index.screenKind(of: try Self.type("PriceTag", in: index)) == .swiftUIView, "a view, though no screen")
    #expect(index.swiftUI.trackedUses.map(\.caseName) == ["ordersView", "orderDetailView"])
    #expect(index.swiftUI.trackedUses.compactMap { $0.owner.map { index[$0].name } } == ["OrdersView", "OrderDetailView"])
  }

  @Test func viewModelsOfBothKinds() throws {
    let index = Self.index()
    let account = try Self.type("AccountModel", in: index)
    let orders = try Self.type("OrdersModel", in: index)
    #expect(index.swiftUI.observableClasses == [account: .observable, orders: .observableObject])
    #expect(index.swiftUI.viewModels == [account, orders])
    #expect(index.screenKind(of: account) == .viewModel)
    #expect(index[account].attributes == ["@Observable"])
    #expect(!index.isViewController(account) && !index.isKnownObjCClass(account))
  }

  @Test(arguments: [
    ("UIHostingController<SettingsView>", "UIHostingController", "UIHostingController", ["SettingsView"]),
    ("SwiftUI.UIHostingController< AnyView >", "UIHostingController", "SwiftUI.UIHostingController", ["AnyView"]),
    ("Design.DSListViewController", "DSListViewController", "Design.DSListViewController", []),
    ("Dictionary<String, [Int: (A, B)]>", "Dictionary", "Dictionary", ["String", "[Int:(A,B)]"]),
  ])
  func writtenTypeNames(written: String, base: String, qualified: String, arguments: [String]) {
    let name = WrittenTypeName(written)
    #expect(name.base == base && name.qualified == qualified && name.arguments == arguments)
  }

  @Test(arguments: [
    ("SettingsView", "settingsView"), ("URLPreviewView", "urlPreviewView"), ("UIView", "uiView"), ("URL", "url"),
    ("Settings.ProfileView", "settingsProfileView"), ("Écran", "écran"), ("a", "a"),
  ])
  func screenCaseNames(key: String, caseName: String) {
    #expect(SwiftUIScreenCases.caseName(forKey: key) == caseName)
  }
}
