import ArgumentParser
import TrackcCommands
import TrackcCore

struct AdoptCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "adopt",
    abstract: "Write a tracking plan from an app's existing analytics calls, and take the calls it maps out.",
    discussion: """
      Finds the calls of analytics-swift (track(name:properties:), screen(title:)), Amplitude-Swift (track(eventType:eventProperties:), track(event: BaseEvent(...))), Firebase (Analytics.logEvent(_:parameters:)), Mixpanel (track(event:properties:)) and of the app's own wrappers (--wrapper). A call in a screen's handler becomes the handler's control event, a call in viewDidAppear(_:) or viewDidDisappear(_:) a page event; a property that is a handler's parameter or the screen's state becomes a binding, a literal a static property; each event keeps the name the call sent (wire_name). Every call left in the code is reported with its reason (a rule ID) and line. The plan passes 'trackc lint' as written.

      A plan that exists at --output is added to: its entries, comments and layout stay, the events it lacks go in, and a call whose event it already has (the same name, call and properties) is mapped to it. --force replaces it instead.

      A wrapper is a Swift name with its labels: the first argument names the event, the one labelled like properties (properties, parameters, withAdditionalParameters, ...) or else the second holds them. A prefix names the receiver. A wrapper that always sends one name takes it after '='; its arguments are then the properties, by label.

      Examples:
        trackc adopt --sources App
        trackc adopt --sources App --wrapper 'Analytics.track(_:properties:)' --name-case snake_case
        trackc adopt --sources DuckDuckGo Core --wrapper 'Pixel.fire(pixel:withAdditionalParameters:)' --event-enum Pixel.Event
        trackc adopt --sources App --wrapper 'trackCheckoutTapped(total:)=Checkout Tapped' --fix
      """
  )

  @OptionGroup
  var plan: PlanSourceOptions

  @Option(name: .customLong("wrapper"), help: ArgumentHelp("A function or method of the app that tracks an event (repeatable).", valueName: "name"))
  var wrappers: [String] = []

  @Option(help: ArgumentHelp("The enum whose cases name the events (default: the only enum with the case a call names).", valueName: "type"))
  var eventEnum: String?

  @Option(
    help: ArgumentHelp(
      "The enum's String property whose switch gives each case's name (default: name or eventName when it has one, else the raw value).",
      valueName: "property"))
  var nameProperty: String?

  @Option(help: ArgumentHelp("How a wrapper sends a raw value or case name: as-written or snake_case.", valueName: "case"))
  var nameCase: String = EventNameTable.NameCase.asWritten.rawValue

  @Flag(help: "Replace an existing plan, rather than add to it.")
  var force = false

  @Flag(help: "Take the calls the plan maps out of the sources (a file changed since the scan is left as it is).")
  var fix = false

  @Option(help: "Report format: text, json, sarif (SARIF 2.1.0) or github (GitHub Actions annotations).")
  var format: DiagnosticFormat = .text

  @Flag(help: "Print how long each phase took to standard error.")
  var timings = false

  func validate() throws {
    guard EventNameTable.NameCase(rawValue: nameCase) != nil else {
      let cases = EventNameTable.NameCase.allCases.map(\.rawValue)
      let suggestion = Suggestions.closest(to: nameCase, in: cases).map { "; did you mean '\($0)'?" } ?? ""
      throw ValidationError("--name-case must be \(cases.joined(separator: " or ")), not '\(nameCase)'\(suggestion)")
    }
    for wrapper in wrappers {
      if case .failure(let error) = CallPattern.wrapper(wrapper) { throw ValidationError(error.description) }
    }
  }

  func run() throws {
    let sources = plan.sources
    let output = plan.output
    try ScanSettings.requireExisting(sources)
    var options = Adopter.Options()
    // A plan that exists is added to (its entries, comments and layout stay), unless --force replaces it.
    if !force && FileSystem.exists(output) {
      let existing: ConfigSource
      do {
        existing = try ConfigSource.read(path: output)
      } catch {
        StandardError.write("trackc: error: \(error)\n")
        throw ExitCode(ExitStatus.noInput.rawValue)
      }
      switch AdoptExistingPlan.read(existing) {
      case .success(let plan): options.existingPlan = plan
      case .failure(let unreadable):
        StandardError.write(TextDiagnosticRenderer.render(unreadable.diagnostics))
        StandardError.write("trackc: error: cannot add to '\(output)' (nothing was written); fix it, or replace it with --force\n")
        throw ExitCode(ExitStatus.dataError.rawValue)
      }
    }
    options.patterns = wrappers.compactMap { try? CallPattern.wrapper($0).get() } + CallPattern.sdks
    options.eventEnum = eventEnum
    options.nameProperty = nameProperty
    options.nameCase = EventNameTable.NameCase(rawValue: nameCase) ?? .asWritten
    options.bases = plan.bases
    options.interception = options.existingPlan?.interception ?? plan.interceptionMode
    options.planSources = plan.sourcesFromPlan
    options.planPath = output
    options.scan = plan.settings.scanOptions
    if timings { options.phaseObserver = { StandardError.write(Timings.line($0, $1)) } }
    let clock = ContinuousClock()
    let started = clock.now
    let result = Adopter.adopt(.paths(sources), options: options)
    guard FileSystem.writeIfChanged(result.plan, to: output) else {
      StandardError.write("trackc: error: cannot write '\(output)'\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    }
    let report = format.render(result.diagnostics, adoption: result.counts)
    if !report.isEmpty { print(report, terminator: "") }
    if format == .text {
      for file in result.perFile {
        StandardError.write("\(file.file): \(file.found) found, \(file.mapped) mapped, \(file.found - file.mapped) left\n")
      }
    }
    let elapsed = clock.now - started
    StandardError.write(
      "trackc: \(result.summary), in \(result.fileCount) Swift files (\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000) ms); \(options.existingPlan == nil ? "wrote" : "added to") \(output)\n"
    )
    for source in result.sourcesNotAdded {
      StandardError.write(
        "trackc: warning: the plan's 'sources' do not name '\(source)'; add it, so that 'trackc lint' checks the new entries against it\n")
    }
    if fix { try removeMappedCalls(result) }
  }

  private func removeMappedCalls(_ result: Adopter.Result) throws {
    let byFile = Dictionary(grouping: result.events.compactMap { event in event.call.removal.map { (event.call.location.file, $0) } }, by: \.0)
    var removed = 0
    var refused = 0
    for file in byFile.keys.sorted() {
      guard let expected = result.fileHashes[file] else { continue }
      let bytes = (try? ConfigSource.read(path: file, maxBytes: 256 << 20)).map { Array($0.input.buffer) } ?? []
      switch CallRemover.remove(byFile[file]!.map(\.1), from: bytes, file: file, expectedHash: expected) {
      case .success(let rewritten):
        guard FileSystem.writeIfChanged(rewritten, to: file) else {
          StandardError.write("trackc: error: cannot write '\(file)'\n")
          throw ExitCode(ExitStatus.cannotWrite.rawValue)
        }
        removed += byFile[file]!.count
      case .failure(let refusal):
        StandardError.write("trackc: error: \(refusal); its calls were not taken out\n")
        refused += 1
      }
    }
    StandardError.write("trackc: took \(removed) mapped call\(removed == 1 ? "" : "s") out of \(byFile.count - refused) files\n")
    if refused > 0 { throw ExitCode(ExitStatus.findings.rawValue) }
  }
}
