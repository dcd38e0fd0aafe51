import ArgumentParser
import TrackcCore

/// A parsing worker (see `ParseIsolation`): started by trackc itself, never by hand.
package struct ScanWorkerCommand: ParsableCommand {
  package static let configuration = CommandConfiguration(
    commandName: ScanWorker.commandName,
    abstract: "Parse Swift files for another trackc process (internal).",
    shouldDisplay: false
  )

  package init() {}

  package func run() throws {
    let status = ScanWorker.serve()
    if status != 0 { throw ExitCode(status) }
  }
}
