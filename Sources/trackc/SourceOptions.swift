import ArgumentParser
import TrackcCore

/// Where the Swift code comes from, for the commands that read it.
struct SourceOptions: ParsableArguments {
  @Option(
    name: .customLong("sources"), parsing: .upToNextOption,
    help: ArgumentHelp("Swift source files or directories to check against (overrides the config's 'sources').", valueName: "path"))
  var sources: [String] = []

  @Option(help: ArgumentHelp("A handler registry (from 'trackc scan', or made another way) to check against instead.", valueName: "file"))
  var handlers: String?

  @Option(help: ArgumentHelp("The module of every scanned file (default: from the SwiftPM layout Sources/<Module>/).", valueName: "name"))
  var module: String?

  @Option(help: ArgumentHelp("Where scans are cached (default: .build/trackc-cache, or $XDG_CACHE_HOME/trackc).", valueName: "directory"))
  var cacheDir: String?

  @Flag(help: "Scan every file, ignoring and not writing the cache.")
  var noCache = false

  func validate() throws {
    if !sources.isEmpty && handlers != nil { throw ValidationError("Give --sources or --handlers, not both.") }
  }

  var scanOptions: ScanOptions {
    ScanOptions(module: module, cacheDirectory: cacheDir, useCache: !noCache)
  }
}
