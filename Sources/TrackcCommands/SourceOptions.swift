import ArgumentParser
import TrackcCore

/// How Swift sources are scanned, for every command that scans them.
package struct ScanSettings: ParsableArguments {
  @Option(help: ArgumentHelp("The module of every scanned file (default: from the SwiftPM layout Sources/<Module>/).", valueName: "name"))
  var module: String?

  @Option(help: ArgumentHelp("Where scans are cached (default: .build/trackc-cache, or $XDG_CACHE_HOME/trackc).", valueName: "directory"))
  var cacheDir: String?

  @Flag(help: "Scan every file, ignoring and not writing the cache.")
  var noCache = false

  @Option(help: ArgumentHelp("Give up parsing a Swift file after this many seconds.", visibility: .hidden))
  var fileTimeLimit: Int?

  @Flag(
    help: ArgumentHelp(
      "Parse in this process, without worker processes (for trusted sources; a crash in the parser then ends the run).", visibility: .hidden))
  var parseInProcess = false

  package init() {}

  /// Parsing runs in worker processes, so that a source file that crashes swift-syntax's parser or
  /// takes it forever costs a warning, not the run.
  package var scanOptions: ScanOptions {
    var options = ScanOptions(module: module, cacheDirectory: cacheDir, useCache: !noCache)
    options.isolation = parseInProcess ? .inProcess : .isolatedIfPossible
    if let fileTimeLimit { options.fileTimeLimit = .seconds(fileTimeLimit) }
    return options
  }

  /// Paths named on the command line must exist: a typo there is a usage problem, not a finding.
  package static func requireExisting(_ paths: [String]) throws {
    let missing = paths.filter { !FileSystem.exists($0) }
    for path in missing { StandardError.write("trackc: error: cannot read '\(path)': No such file or directory\n") }
    guard missing.isEmpty else { throw ExitCode(ExitStatus.noInput.rawValue) }
  }
}

/// Where the Swift code comes from, for `lint`.
package struct SourceOptions: ParsableArguments {
  @Option(
    name: .customLong("sources"), parsing: .upToNextOption,
    help: ArgumentHelp("Swift source files or directories to check against (overrides the config's 'sources').", valueName: "path"))
  var sources: [String] = []

  @Option(help: ArgumentHelp("A handler registry (from 'trackc scan', or made another way) to check against instead.", valueName: "file"))
  var handlers: String?

  @OptionGroup
  var scan: ScanSettings

  package init() {}

  package func validate() throws {
    if !sources.isEmpty && handlers != nil { throw ValidationError("Give --sources or --handlers, not both.") }
  }

  /// Sets what the config is checked against; exits 66 when a named input is missing.
  package func apply(to options: inout LintOptions) throws {
    options.scan = scan.scanOptions
    if !sources.isEmpty {
      try ScanSettings.requireExisting(sources)
      options.code = .sources(.paths(sources))
    } else if let handlers {
      do {
        options.code = try CodeInput.registryFile(path: handlers)
      } catch {
        StandardError.write("trackc: error: \(error)\n")
        throw ExitCode(ExitStatus.noInput.rawValue)
      }
    }
  }
}
