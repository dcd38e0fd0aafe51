import ArgumentParser
import TrackcCommands
import TrackcCore

/// What TrackcBuildPlugin and TrackcCommandPlugin run: `trackc lint` and `trackc generate`, the same
/// commands as the command line's, without the collector (and so without swift-nio), which SwiftPM would
/// otherwise compile, in debug, in every app's first build that uses a plugin. It answers the parsing
/// workers `generate` and `lint` start as well (they re-run their own executable).
@main
struct TrackcPluginTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trackc-plugin-tool",
    abstract: "trackc's lint and generate, for the SwiftPM and Xcode plugins (the trackc command line has every command).",
    version: TrackcVersion.current,
    subcommands: [LintCommand.self, GenerateCommand.self, ScanWorkerCommand.self]
  )
}
