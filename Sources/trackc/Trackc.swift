import ArgumentParser
import Dispatch
import TrackcCore

/// The entry point: parses the command line, then runs a synchronous command (`lint`, `generate`, ...) on
/// the main thread and an asynchronous one (`collector`, `diff`) on Swift's concurrent executor.
///
/// ArgumentParser's own `main` for an `AsyncParsableCommand` root runs every command on a thread of the
/// concurrent executor. There, glibc gives the command a heap of its own that grows a page at a time,
/// one system call each, while the main thread's grows in large steps (`ShortRunAllocator`); with both
/// changes a lint of the 6 MB benchmark config takes 8% less CPU (the README's "Performance").
@main
enum TrackcMain {
  static func main() {
    let command: any ParsableCommand
    do {
      command = try Trackc.parseAsRoot()
    } catch {
      Trackc.exit(withError: error)
    }
    if let asynchronous = command as? any AsyncParsableCommand {
      runAsynchronously(asynchronous)
      return
    }
    if !(command is ScanWorkerCommand) { ShortRunAllocator.configure() }
    do {
      var command = command
      try command.run()
    } catch {
      Trackc.exit(withError: error)
    }
  }

  /// Runs an asynchronous command to its end while the main thread waits.
  private static func runAsynchronously(_ command: any AsyncParsableCommand) {
    let run = AsynchronousRun(command)
    Task.detached { await run.start() }
    run.finished.wait()
    if let failure = run.failure { Trackc.exit(withError: failure) }
  }
}

/// An asynchronous command handed to the task that runs it; the main thread reads `failure` only after
/// `finished` is signalled, which orders the accesses.
private final class AsynchronousRun: @unchecked Sendable {
  private var command: any AsyncParsableCommand
  let finished = DispatchSemaphore(value: 0)
  private(set) var failure: (any Error)?

  init(_ command: any AsyncParsableCommand) {
    self.command = command
  }

  func start() async {
    defer { finished.signal() }
    do {
      try await command.run()
    } catch {
      failure = error
    }
  }
}

struct Trackc: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "trackc",
    abstract: "A declarative event-tracking rule compiler for Swift apps.",
    discussion: """
      trackc checks a YAML tracking config (screens -> page events, action handlers -> event IDs, destinations) against itself and against the Swift sources it names, and reports every problem as path:line:column, so that editors and CI point at it.

      Examples:
        trackc lint tracking.yaml
        trackc lint tracking.yaml --sources App/Sources
        trackc lint --strict Examples/Shop/tracking.yaml
        trackc scan Sources --output handlers.json
        trackc init --sources Sources
        trackc lint --format sarif tracking.yaml > trackc.sarif
        trackc rules
        trackc docs tracking.yaml --output plan.html
        trackc diff --git origin/main tracking.yaml --format markdown
        trackc export --format jsonschema tracking.yaml --output schemas/
        trackc collector --config tracking.yaml --port 9000
      """,
    version: TrackcVersion.current,
    subcommands: [
      LintCommand.self, GenerateCommand.self, ScanCommand.self, InitCommand.self, RulesCommand.self, DocsCommand.self, DiffCommand.self,
      ExportCommand.self, CollectorCommand.self, ScanWorkerCommand.self,
    ]
  )
}

extension DiagnosticFormat: ExpressibleByArgument {}
