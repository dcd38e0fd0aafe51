import ArgumentParser
import TrackcCore

package struct GenerateCommand: ParsableCommand {
  package static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Generate the Swift registry (and, for dynamic replacement, the interceptors) from a tracking config.",
    discussion: """
      Lints the config first, against the code like 'trackc lint'; any error stops generation. Writes <name>.swift (event IDs, handlers, rules, the registry), under 'interception: dynamic-replacement' <name>+<Module>.swift for each feature module, and, when the plan has SwiftUI screens, <name>+SwiftUI.swift (their enum and the .tracked(_:) modifier; --swiftui-output puts it in a module the views import). Files are written only when they change; files of this name it no longer generates are removed.

      The plan's privacy manifest (PrivacyInfo.xcprivacy: what the runtime sends, and what the plan classifies) goes where 'privacy.manifest' says, else beside the Swift files (declare it as a resource of the module); with --single-file always beside them.

      With --check nothing is written: the run fails (exit 1), naming each file, when what it would write differs from what is there (the Swift files, the privacy manifest, and the apple-app-site-association file and Android manifest the config's 'links' asks for). Use it in CI and pre-commit.

      Examples:
        trackc generate tracking.yaml --output Sources/AppTracking
        trackc generate tracking.yaml --sources Sources/Home Sources/Cart --output Sources/AppTracking --name AppTracking
        trackc generate tracking.yaml --output Sources/AppTracking --check
      """
  )

  @Argument(help: ArgumentHelp("The tracking config.", valueName: "config"))
  var config: String

  @Option(name: .shortAndLong, help: ArgumentHelp("The directory to write into.", valueName: "directory"))
  var output: String

  @Option(
    help: ArgumentHelp(
      "Write <name>+SwiftUI.swift (the SwiftUI screens and their .tracked(_:) modifier) here instead: a module the views import.",
      valueName: "directory"))
  var swiftuiOutput: String?

  @Option(help: ArgumentHelp("The namespace of the generated code and the stem of its file names.", valueName: "name"))
  var name = "Tracking"

  @Flag(help: "Write nothing; fail when the generated files are not up to date.")
  var check = false

  @Flag(help: "Put everything in <name>.swift (for build plugins, which name their outputs up front).")
  var singleFile = false

  @Option(help: ArgumentHelp("The module that provides the runtime.", valueName: "module"))
  var runtimeModule = "TrackcRuntime"

  @OptionGroup(title: "Code")
  var code: SourceOptions

  package init() {}

  package func validate() throws {
    guard SwiftSource.isIdentifier(name) else { throw ValidationError("--name must be a Swift identifier, not '\(name)'.") }
    guard SwiftSource.isIdentifier(runtimeModule) else { throw ValidationError("--runtime-module must be a module name, not '\(runtimeModule)'.") }
  }

  package func run() throws {
    var options = LintOptions()
    try code.apply(to: &options)
    let session = LintSession.run(paths: [config], options: options)
    for error in session.unreadable { StandardError.write("trackc: error: \(error)\n") }
    guard let lint = session.results.first else { throw ExitCode(ExitStatus.noInput.rawValue) }

    let configFileName = RelativePath.fileName(of: config)
    let generated = Generator.generate(
      lint, options: Generator.Options(name: name, configFileName: configFileName, singleFile: singleFile, runtimeModule: runtimeModule))
    let findings = TextDiagnosticRenderer.render(generated.diagnostics)
    if !findings.isEmpty { print(findings, terminator: "") }
    guard !generated.diagnostics.hasErrors else {
      StandardError.write(TextDiagnosticRenderer.summary(generated.diagnostics, fileCount: 1) + "; nothing was generated\n")
      throw ExitCode(ExitStatus.findings.rawValue)
    }

    var files = generated.files + generated.resources
    var outputs: [(GeneratedOutput, [Generator.File])] = []
    if let swiftuiOutput {
      // The SwiftUI screens' file goes to a module the views import; trackc owns only that file there.
      let swiftUIName = "\(name)+SwiftUI.swift"
      files.removeAll { $0.name == generated.swiftUIFile?.name }
      outputs.append((GeneratedOutput(directory: swiftuiOutput, owning: { $0 == swiftUIName }), generated.swiftUIFile.map { [$0] } ?? []))
    }
    // The privacy manifest is the output's when trackc writes it beside the code (no `privacy.manifest`).
    let destination = GeneratedOutput(directory: output, name: name, ownsPrivacyManifest: !generated.resources.isEmpty)
    // Files for other platforms (`links.apple.site_association`, `links.android.manifest`), where the config
    // says, relative to its directory; trackc owns only those paths there.
    let platformNames = Set(generated.platformFiles.map(\.name))
    let platform = GeneratedOutput(directory: RelativePath.directory(of: config), owning: { platformNames.contains($0) })
    outputs = [(destination, files), (platform, generated.platformFiles)] + outputs
    // A privacy manifest written by hand where trackc would write the plan's is the app's own: never
    // overwritten.
    if let foreign = destination.foreignFile(among: files) {
      StandardError.write(
        "trackc: error: \(foreign) was not written by trackc; set 'privacy.manifest' to write the plan's privacy manifest elsewhere, or remove it\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }
    if check {
      let changes = outputs.flatMap { $0.0.changes(for: $0.1) }
      for change in changes {
        switch change {
        case .create(let path): StandardError.write("trackc: error: \(path) is missing; run 'trackc generate' without --check\n")
        case .update(let path): StandardError.write("trackc: error: \(path) is out of date; run 'trackc generate' without --check\n")
        case .remove(let path): StandardError.write("trackc: error: \(path) is no longer generated; run 'trackc generate' without --check\n")
        }
      }
      if !changes.isEmpty { throw ExitCode(ExitStatus.findings.rawValue) }
      return
    }
    var changed = 0
    for (output, files) in outputs {
      for file in files where file.name.contains("/") {
        let path = output.directory.isEmpty ? file.name : output.directory + "/" + file.name
        _ = FileSystem.makeDirectories(RelativePath.directory(of: path))
      }
      switch output.write(files) {
      case .failure(let failure):
        StandardError.write("trackc: error: cannot write '\(failure.path)'\n")
        throw ExitCode(ExitStatus.cannotWrite.rawValue)
      case .success(let changes):
        changed += changes.count
      }
    }
    StandardError.write(
      "trackc: \(generated.files.count + generated.resources.count + generated.platformFiles.count) files generated, \(changed) changed\n")
  }
}
