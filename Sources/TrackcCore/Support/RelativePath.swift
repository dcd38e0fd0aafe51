/// Paths as a config names them: relative to the config's directory.
public enum RelativePath {
  /// `path` as seen from `directory` (both absolute, or both relative to the working directory).
  public static func from(directory: String, to path: String) -> String {
    if directory.isEmpty || directory == "." { return normalized(path) }
    if path.hasPrefix("/") != directory.hasPrefix("/") { return path }
    let from = normalized(directory).split(separator: "/").map(String.init)
    let to = normalized(path).split(separator: "/").map(String.init)
    var common = 0
    while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
    let up = Array(repeating: "..", count: from.count - common)
    let result = (up + to[common...]).joined(separator: "/")
    return result.isEmpty ? "." : result
  }

  /// The directory part of a path (`a/b/c.yaml` -> `a/b`; empty for a bare file name).
  public static func directory(of path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
  }

  /// The last component of a path (`a/b/c.yaml` -> `c.yaml`).
  public static func fileName(of path: String) -> String {
    String(path.split(separator: "/").last ?? Substring(path))
  }

  /// Without `.` components, repeated or trailing slashes.
  static func normalized(_ path: String) -> String {
    let parts = path.split(separator: "/").filter { $0 != "." }
    let joined = parts.joined(separator: "/")
    return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
  }
}
