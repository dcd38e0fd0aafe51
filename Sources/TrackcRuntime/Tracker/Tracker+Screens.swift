import Foundation

extension Tracker {
  // MARK: Screens

  /// The screen a type is, remembered per type (working it out builds the type's name).
  func screen(of type: Any.Type) -> ScreenID? {
    let key = ObjectIdentifier(type)
    lock.lock()
    if let known = screensByType[key] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let resolved = screen(named: String(reflecting: type))
    lock.lock()
    screensByType[key] = resolved
    lock.unlock()
    return resolved
  }

  /// A hosting controller's root view, by its full name, then without the module.
  func hostedScreen(named name: String) -> ScreenID? {
    if let screen = registry.hostedScreen(named: name) { return screen }
    if let dot = name.firstIndex(of: ".") { return registry.hostedScreen(named: String(name[name.index(after: dot)...])) }
    return nil
  }

  /// By the full name (`Home.HomeViewController`), then without generic arguments, then without the module.
  func screen(named name: String) -> ScreenID? {
    if let screen = registry.screen(named: name) { return screen }
    let base = name.firstIndex(of: "<").map { String(name[..<$0]) } ?? name
    if base != name, let screen = registry.screen(named: base) { return screen }
    if let dot = base.firstIndex(of: ".") { return registry.screen(named: String(base[base.index(after: dot)...])) }
    return nil
  }
}
