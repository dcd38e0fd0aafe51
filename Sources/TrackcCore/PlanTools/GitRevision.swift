import Subprocess

/// A file as it was at a git revision (`git show REV:./path`, run in the file's directory so that any
/// working directory works), named `REV:path` in findings: what `trackc diff --git REV` compares with.
///
/// Run through swift-subprocess, as the scan workers are, rather than Foundation's `Process`: the
/// command line then links FoundationEssentials only, and starts without loading ICU (about 5 ms of
/// every `trackc lint`, measured when `Process` was used here).
public enum GitRevision {
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "cannot read '\(path)': \(reason)" }
  }

  public static func read(_ path: String, at revision: String, maxBytes: Int = LintOptions.defaultMaxConfigBytes) async throws(Failure)
    -> ConfigSource
  {
    let label = "\(revision):\(path)"
    guard !revision.hasPrefix("-") else { throw Failure(path: label, reason: "a revision cannot start with '-'") }
    let directory = RelativePath.directory(of: path)
    let arguments = ["-C", directory.isEmpty ? "." : directory, "show", "\(revision):./\(RelativePath.fileName(of: path))"]
    do {
      // A config is read up to its limit like any other (one byte more says it is over); git's error
      // text is a line or two, and a megabyte of it is a broken git, reported as such.
      let result = try await Subprocess.run(
        .name("git"), arguments: Arguments(arguments), input: .none, output: .bytes(limit: maxBytes + 1), error: .string(limit: 1 << 20))
      guard result.terminationStatus.isSuccess else {
        let message = result.standardError
        let reason = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? "git show failed"
        throw Failure(path: label, reason: reason)
      }
      return ConfigSource(path: label, bytes: result.standardOutput, fileSize: result.standardOutput.count)
    } catch let failure as Failure {
      throw failure
    } catch let error as SubprocessError where error.code == .outputLimitExceeded {
      // Over the limit: the lint's input-size rule reports it, as for a file on disk.
      return ConfigSource(path: label, bytes: [], fileSize: maxBytes + 1)
    } catch {
      throw Failure(path: label, reason: "git could not be run: \(error)")
    }
  }
}
