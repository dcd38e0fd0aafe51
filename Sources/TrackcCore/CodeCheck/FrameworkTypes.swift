/// The kind of each type Apple's frameworks declare, as Swift imports it from the iOS SDK: what tells a
/// handler's argument's Objective-C form (`ObjCSignature`) when the type is not one of the sources. The
/// table (`appleTable`, AppleFrameworkTypes.swift) is generated from the SDK by
/// Scripts/apple/framework-types.py, never written from a type's name: `UIEdgeInsets` is a C struct,
/// `CLAuthorizationStatus` an `Int32` enum, `UIKeyModifierFlags` an `Int` option set, `UIButton` a class.
struct FrameworkTypes: Sendable {
  enum Kind: Hashable, Sendable {
    case `class`
    /// An Objective-C protocol.
    case `protocol`
    /// A C struct, with its Objective-C type encoding (`{UIEdgeInsets=dddd}`).
    case structure(encoding: String)
    /// A C enum (`NS_ENUM`), with its raw type.
    case enumeration(raw: String)
    /// An option set (`NS_OPTIONS`), with its raw type.
    case options(raw: String)
    /// Typed constants (`NS_TYPED_ENUM`, such as `NSNotification.Name`), with their raw type.
    case typed(raw: String)
  }

  struct Entry: Hashable, Sendable {
    var module: String
    var kind: Kind
  }

  /// Swift name (nested types with dots: `UITableViewCell.EditingStyle`) to the modules declaring it.
  private let byName: [String: [Entry]]
  let modules: Set<String>

  static let apple = FrameworkTypes(table: appleTable)

  /// Reads lines of `Module Name kind [detail]`; a line it cannot read is skipped (the table is generated).
  init(table: String) {
    var byName: [String: [Entry]] = [:]
    var modules: Set<String> = []
    for line in table.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count >= 3 else { continue }
      let detail = fields.count > 3 ? String(fields[3]) : ""
      let kind: Kind
      switch fields[2] {
      case "class": kind = .class
      case "protocol": kind = .protocol
      case "struct": kind = .structure(encoding: detail)
      case "enum": kind = .enumeration(raw: detail)
      case "options": kind = .options(raw: detail)
      case "typed": kind = .typed(raw: detail)
      default: continue
      }
      let module = String(fields[0])
      modules.insert(module)
      byName[String(fields[1]), default: []].append(Entry(module: module, kind: kind))
    }
    self.byName = byName
    self.modules = modules
  }

  /// The type a written name (without generic arguments) names: `UIButton`, `UIKit.UIButton`,
  /// `UITableViewCell.EditingStyle`, with its name in the table (without the module). nil when the table
  /// does not know it, or when modules that declare the name declare different kinds and the code does not
  /// say which module.
  func lookup(_ qualified: String) -> (name: String, entry: Entry)? {
    if let entries = byName[qualified] {
      return Set(entries.map(\.kind)).count == 1 ? (qualified, entries[0]) : nil
    }
    // `UIKit.UIButton`: a module, then the name.
    guard let dot = qualified.firstIndex(of: "."), modules.contains(String(qualified[..<dot])) else { return nil }
    let module = String(qualified[..<dot])
    let name = String(qualified[qualified.index(after: dot)...])
    return byName[name]?.first { $0.module == module }.map { (name, $0) }
  }

  /// The module that declares a C struct by this Swift name, for the import a signature spelling it needs.
  func module(ofStructure name: String) -> String? {
    guard let found = lookup(name), case .structure = found.entry.kind else { return nil }
    return found.entry.module
  }

  /// The Objective-C form of an argument of this type: a class or protocol is an object; a C enum, option
  /// set or typed constant its raw type (an object for a string); a C struct itself, by its name (one not
  /// nested in another type, which a signature spells as it is). nil when the table does not know the type.
  func form(of name: WrittenTypeName) -> ObjCSignature.Form? {
    guard let (tableName, entry) = lookup(name.qualified) else { return nil }
    switch entry.kind {
    case .class, .protocol: return .object
    case .structure:
      return name.arguments.isEmpty && !tableName.contains(".") ? .structure(tableName) : nil
    case .enumeration(let raw), .options(let raw), .typed(let raw):
      guard name.arguments.isEmpty else { return nil }
      if raw == "String" { return .object }
      if raw == "Bool" { return .bool }
      return ObjCSignature.scalars.contains(raw) ? .scalar(raw) : nil
    }
  }
}
