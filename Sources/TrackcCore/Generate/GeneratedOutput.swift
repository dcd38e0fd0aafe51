/// Where generated files go: a directory in which trackc owns `<name>.swift` and `<name>+*.swift`.
/// Files are written only when their content changes, files it no longer generates are removed, and
/// `check` says what a run would change without changing anything (for CI and pre-commit).
public struct GeneratedOutput: Sendable {
  public var directory: String
  public var name: String
  /// Which files of the directory this output owns, when not those named after `name` (exports).
  private var ownership: (@Sendable (String) -> Bool)?

  public init(directory: String, name: String) {
    self.directory = directory
    self.name = name
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

  /// `Tracking.swift` and `Tracking+Home.swift`, not `TrackingHelpers.swift`.
  private func owns(_ file: String) -> Bool {
    if let ownership { return ownership(file) }
    return file == "\(name).swift" || (file.hasPrefix("\(name)+") && file.hasSuffix(".swift"))
  }
}
