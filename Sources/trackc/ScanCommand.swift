import ArgumentParser
import TrackcCommands
import TrackcCore

struct ScanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan",
    abstract: "Read Swift sources and write the registry of declared handlers as JSON.",
    discussion: """
      The registry lists every type (classes, structs, enums, actors, protocols; nested types qualified, extensions merged) with its methods: Swift name, Objective-C selector where exposed, access, attributes, location. It is sorted, so the same sources always give the same file. Schemas/handlers.schema.json describes it; 'trackc lint --handlers' reads it.

      Examples:
        trackc scan Sources --output handlers.json
        trackc scan App/Sources --module App > handlers.json
      """
  )

  @Argument(help: ArgumentHelp("Swift source files or directories.", valueName: "path"))
  var paths: [String]

  @Option(
    name: .shortAndLong, help: ArgumentHelp("Write the registry here (default: standard output); written only when it changes.", valueName: "file"))
  var output: String?

  @OptionGroup
  var settings: ScanSettings

  @Flag(help: "Print how long each phase took to standard error.")
  var timings = false

  func validate() throws {
    guard !paths.isEmpty else { throw ValidationError("Give at least one source file or directory.") }
  }

  func run() throws {
    try ScanSettings.requireExisting(paths)
    var options = settings.scanOptions
    if timings { options.phaseObserver = { StandardError.write(Timings.line($0, $1)) } }
    let result = SourceScanner.scan(.paths(paths), options: options)
    let findings = TextDiagnosticRenderer.render(result.diagnostics)
    if !findings.isEmpty { StandardError.write(findings) }
    let started = ContinuousClock.now
    let json = result.registry.jsonBytes()
    if let output {
      guard FileSystem.writeIfChanged(json, to: output) else {
        StandardError.write("trackc: error: cannot write '\(output)'\n")
        throw ExitCode(ExitStatus.cannotWrite.rawValue)
      }
    } else {
      print(String(decoding: json, as: UTF8.self), terminator: "")
    }
    if timings { StandardError.write(Timings.line("write the registry", ContinuousClock.now - started)) }
    StandardError.write(
      "trackc: \(result.fileCount) files, \(result.registry.types.count) types, \(result.registry.types.reduce(0) { $0 + $1.methods.count }) methods (\(result.cachedCount) files from the cache)\n"
    )
  }
}
