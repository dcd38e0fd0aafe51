import ArgumentParser
import TrackcCore

/// `trackc lint --fix [--dry-run]`: applies the fix-its the rules compute, then lints as usual.
package struct FixOptions: ParsableArguments {
  @Flag(
    help:
      "Apply the fixes the findings suggest (did-you-mean for keys, screens, handlers and destinations; the version) to the configs in place, changing nothing else."
  )
  var fix = false

  @Flag(help: "With --fix: print the fixes as a unified diff instead of writing them.")
  var dryRun = false

  /// Fixes each config; the lint that follows reports what is left. Exits 73 when a fixed config cannot
  /// be written. With `--dry-run`, prints the diff alone on standard output (so that it can be applied with
  /// `git apply`), what is left to standard error, and exits as the lint of the fixed configs would (0, or 1
  /// with errors left, or warnings under `strict`; 66 when a config cannot be read).
  package init() {}

  package func run(_ configs: [String], options: LintOptions, strict: Bool) throws {
    var left: [Diagnostic] = []
    var unreadable = false
    for path in configs {
      // Without --dry-run, a config that cannot be read is reported by the lint that follows.
      let source: ConfigSource
      do {
        source = try ConfigSource.read(path: path, maxBytes: options.maxConfigBytes)
      } catch {
        if dryRun { StandardError.write("trackc: error: \(error)\n") }
        unreadable = true
        continue
      }
      // Over the size limit (file-too-large): there is nothing to fix in part of a file.
      guard source.fileSize == source.byteCount else {
        left += Linter.lint(source, options: options).diagnostics
        continue
      }
      let result = ConfigFixer.fix(source, options: options)
      left += result.remaining.diagnostics
      for (diagnostic, reason) in result.skipped {
        let location = diagnostic.location
        let fix = diagnostic.fixIt.map { "fix not applied (\($0.message))" } ?? "fix not applied"
        StandardError.write("\(location.file):\(location.line):\(location.column): note: \(fix): \(reason)\n")
      }
      guard result.changed else { continue }
      let count = "\(result.applied.count) fix\(result.applied.count == 1 ? "" : "es")"
      if dryRun {
        print(UnifiedDiff.render(old: result.original, new: result.fixed, path: path), terminator: "")
        StandardError.write("trackc: \(path): \(count) (not written: --dry-run)\n")
        continue
      }
      guard FileSystem.writeIfChanged(result.fixed, to: path) else {
        StandardError.write("trackc: error: cannot write '\(path)'\n")
        throw ExitCode(ExitStatus.cannotWrite.rawValue)
      }
      StandardError.write("trackc: \(path): \(count) applied\n")
    }
    if dryRun {
      left.sort(by: Diagnostic.presentationOrder)
      StandardError.write(TextDiagnosticRenderer.render(left))
      if !left.isEmpty { StandardError.write(TextDiagnosticRenderer.summary(left, fileCount: configs.count) + "\n") }
      if unreadable { throw ExitCode(ExitStatus.noInput.rawValue) }
      let fails = left.hasErrors || (strict && left.warningCount > 0)
      throw ExitCode(fails ? ExitStatus.findings.rawValue : ExitStatus.success.rawValue)
    }
  }
}
