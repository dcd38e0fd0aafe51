/// Where generated files go: a directory in which trackc owns `<name>.swift` and `<name>+*.swift`, and,
/// when the privacy manifest goes there (`ownsPrivacyManifest`), `PrivacyInfo.xcprivacy` if trackc wrote
/// it (its comment says so). Files are written only when their content changes, files it no longer
/// generates are removed, and `check` says what a run would change without changing anything (for CI and
/// pre-commit).
public struct GeneratedOutput: Sendable {
  public var directory: String
  public var name: String
  /// Which files of the directory this output owns, when not those named after `name` (exports).
  private var ownership: (@Sendable (String) -> Bool)?
  /// Whether the plan's privacy manifest is written here (no `privacy.manifest`): one trackc wrote
  /// before is then trackc's to update. (A manifest left here before `privacy.manifest` moved it is not
  /// removed: the output cannot tell it from one `privacy.manifest` names here.)
  private var ownsPrivacyManifest = false

  public init(directory: String, name: String, ownsPrivacyManifest: Bool = false) {
    self.directory = directory
    self.name = name
    self.ownsPrivacyManifest = ownsPrivacyManifest
  }

  /// An output that owns the files `owns` accepts (`trackc export` owns `*.schema.json`).
  public init(directory: String, owning owns: @escaping @Sendable (String) -> Bool) {
    self.directory = directory
    self.name = ""
    ownership = owns
  }

  public enum Change: Sendable, Equatable {
    case create(String)
    case update(String)
    case remove(String)

    public var path: String {
      switch self {
      case .create(let path), .update(let path), .remove(let path): return path
      }
    }
  }

  /// What writing `files` would change.
  public func changes(for files: [Generator.File]) -> [Change] {
    var changes: [Change] = []
    for file in files {
      let path = self.path(file.name)
      switch FileSystem.read(path) {
      case nil: changes.append(.create(path))
      case let existing? where existing != file.contents: changes.append(.update(path))
      default: break
      }
    }
    let generated = Set(files.map(\.name))
    for existing in FileSystem.contentsOfDirectory(directory) where owns(existing) && !generated.contains(existing) {
      changes.append(.remove(self.path(existing)))
    }
    return changes
  }

  /// Writes what changed and removes what is no longer generated; returns the changes, or the path
  /// that could not be written.
  public func write(_ files: [Generator.File]) -> Swift.Result<[Change], WriteFailure> {
    let changes = changes(for: files)
    for change in changes {
      switch change {
      case .create(let path), .update(let path):
        let file = files.first { self.path($0.name) == path }!
        guard FileSystem.writeIfChanged(file.contents, to: path) else { return .failure(WriteFailure(path: path)) }
      case .remove(let path):
        guard FileSystem.remove(path) else { return .failure(WriteFailure(path: path)) }
      }
    }
    return .success(changes)
  }

  public struct WriteFailure: Error, Sendable {
    public var path: String
  }

  private func path(_ file: String) -> String {
    directory.isEmpty || directory == "." ? file : (directory.hasSuffix("/") ? directory + file : directory + "/" + file)
  }

  /// `Tracking.swift` and `Tracking+Home.swift`, not `TrackingHelpers.swift`; the privacy manifest trackc
  /// wrote, not one written by hand.
  private func owns(_ file: String) -> Bool {
    if let ownership { return ownership(file) }
    if file == PrivacyManifest.fileName { return ownsPrivacyManifest && !isForeign(file) }
    return file == "\(name).swift" || (file.hasPrefix("\(name)+") && file.hasSuffix(".swift"))
  }

  /// A file of this name that trackc did not write (a privacy manifest by hand), which writing `files`
  /// would overwrite: the path; nil when there is none.
  public func foreignFile(among files: [Generator.File]) -> String? {
    files.first { $0.name == PrivacyManifest.fileName && isForeign($0.name) }.map { path($0.name) }
  }

  /// There, and without trackc's mark.
  private func isForeign(_ file: String) -> Bool {
    guard let existing = FileSystem.read(path(file)) else { return false }
    return !existing.contains(PrivacyManifest.marker)
  }
}
