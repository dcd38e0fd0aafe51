import Foundation

extension TrackingContext {
  /// The context of this process, from the system: the app from the main bundle, the locale and time
  /// zone, and on Linux the machine and operating system from `uname(2)` (on Apple platforms the device
  /// and screen come from UIKit, `AppleContext`, which fills them in when the tracker starts).
  public static var current: TrackingContext {
    var context = TrackingContext()
    let info = Bundle.main.infoDictionary ?? [:]
    let processName = ProcessInfo.processInfo.processName
    context.app = App(
      name: (info["CFBundleDisplayName"] as? String) ?? (info["CFBundleName"] as? String) ?? (processName.isEmpty ? nil : processName),
      version: info["CFBundleShortVersionString"] as? String, build: info["CFBundleVersion"] as? String,
      namespace: Bundle.main.bundleIdentifier)
    context.locale = Locale.current.identifier(.bcp47)
    context.timezone = TimeZone.current.identifier
    var system = utsname()
    if uname(&system) == 0 {
      func field<T>(_ value: T) -> String {
        withUnsafeBytes(of: value) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
      }
      context.device.model = field(system.machine)
      #if os(Linux)
        context.os = OS(name: field(system.sysname), version: field(system.release))
        context.device.type = "linux"
        // The environment's locale when set (LANG=en_GB.UTF-8): Foundation's on Linux is the POSIX one.
        let environment = ProcessInfo.processInfo.environment
        if let language = environment["LC_ALL"] ?? environment["LANG"], let locale = Self.locale(fromPOSIX: language) {
          context.locale = locale
        }
      #endif
    }
    #if canImport(Darwin)
      let version = ProcessInfo.processInfo.operatingSystemVersion
      context.os.version = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
      context.device.manufacturer = "Apple"
      #if os(macOS)
        context.os.name = "macOS"
        context.device.type = "macos"
      #endif
    #endif
    AppleContext.fill(&context)
    return context
  }

  /// `en_GB.UTF-8` → `en-GB`; nil for `C` and `POSIX`.
  static func locale(fromPOSIX value: String) -> String? {
    let name = value.split(separator: ".").first.map(String.init) ?? value
    guard !name.isEmpty, name != "C", name != "POSIX" else { return nil }
    return name.replacingOccurrences(of: "_", with: "-")
  }
}

/// The anonymous ID of earlier releases, kept in the user defaults: an app updated from one keeps it.
enum LegacyAnonymousID {
  static let key = "trackc.anonymousId"

  static var stored: String? {
    guard let value = UserDefaults.standard.string(forKey: key), !value.isEmpty else { return nil }
    return value
  }
}
