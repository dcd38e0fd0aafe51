import Testing

@testable import TrackcCore

/// The table of Apple's framework types (generated from the iOS SDK by Scripts/apple/framework-types.py,
/// which Scripts/typecheck-ios.sh runs with --check against the SDK): each type's kind as the SDK declares
/// it, and the Objective-C form a handler's argument of that type has.
@Suite struct FrameworkTypesTests {
  static let table = FrameworkTypes.apple

  static func form(_ written: String) -> ObjCSignature.Form? { table.form(of: WrittenTypeName(written)) }

  @Test func structsAreTheirLayoutAsTheSDKEncodesIt() {
    let expected: [(String, String, String)] = [
      ("UIEdgeInsets", "UIKit", "{UIEdgeInsets=dddd}"), ("NSDirectionalEdgeInsets", "UIKit", "{NSDirectionalEdgeInsets=dddd}"),
      ("CLLocationCoordinate2D", "CoreLocation", "{CLLocationCoordinate2D=dd}"), ("CMTime", "CoreMedia", "{?=qiIq}"),
      ("UIOffset", "UIKit", "{UIOffset=dd}"),
    ]
    for (name, module, encoding) in expected {
      let found = Self.table.lookup(name)
      #expect(found?.entry == FrameworkTypes.Entry(module: module, kind: .structure(encoding: encoding)), "\(name): \(String(describing: found))")
      #expect(Self.form(name) == .structure(name))
    }
  }

  @Test func enumsAndOptionSetsAreTheirRawIntegers() {
    #expect(Self.table.lookup("CLAuthorizationStatus")?.entry.kind == .enumeration(raw: "Int32"))
    #expect(Self.form("CLAuthorizationStatus") == .scalar("Int32"))
    #expect(Self.table.lookup("UIKeyModifierFlags")?.entry.kind == .options(raw: "Int"))
    #expect(Self.form("UIKeyModifierFlags") == .scalar("Int"))
    // Siblings: an option set nested by its Swift name, a nested enum, enums whose names say nothing.
    #expect(Self.form("UIControl.Event") == .scalar("UInt"))
    #expect(Self.form("UITableViewCell.EditingStyle") == .scalar("Int"))
    #expect(Self.form("UIDeviceOrientation") == .scalar("Int"))
    #expect(Self.form("UIRectEdge") == .scalar("UInt"))
    #expect(Self.form("UIView.AnimationOptions") == .scalar("UInt"))
    #expect(Self.form("NSTextAlignment") == .scalar("Int"))
    // Typed constants: a string is an NSString, a number its type.
    #expect(Self.form("NSNotification.Name") == .object)
    #expect(Self.form("UIFont.Weight") == .scalar("CGFloat"))
  }

  @Test func classesAndProtocolsAreObjectsWithOrWithoutTheirModule() {
    for name in ["UIButton", "UIKit.UIButton", "UIEvent", "UITableViewDelegate", "CLLocationManager", "NSDate", "UIHostingController"] {
      #expect(Self.form(name) == .object, "\(name)")
    }
  }

  /// What the SDK's table does not know is not guessed: no form, so the handler is reported.
  @Test func anUnknownTypeHasNoForm() {
    for name in ["ARAnchorOrientation", "GKPlayer", "UIKit.NoSuchType", "UITableViewCell.NoSuchStyle", "Date"] {
      #expect(Self.form(name) == nil, "\(name)")
    }
  }

  @Test func theTableIsReadLineByLine() {
    let table = FrameworkTypes(
      table: """
        A Thing class
        A Pair struct {Pair=dd}
        B Pair enum Int
        A Mode enum UInt8
        A Broken
        """)
    #expect(table.form(of: WrittenTypeName("Thing")) == .object)
    // Two modules, two kinds: the name alone is ambiguous, the module says which.
    #expect(table.lookup("Pair") == nil)
    #expect(table.form(of: WrittenTypeName("A.Pair")) == .structure("Pair"))
    #expect(table.form(of: WrittenTypeName("B.Pair")) == .scalar("Int"))
    #expect(table.form(of: WrittenTypeName("Mode")) == .scalar("UInt8"))
    #expect(table.lookup("Broken") == nil)
  }
}
