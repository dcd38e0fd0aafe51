import ArgumentParser
import TrackcCommands
import TrackcCore

struct ExportCommand: ParsableCommand {
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case jsonschema, csv, privacy
  }

  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export the tracking plan as JSON Schemas (one per event), as CSV, or its privacy (App Store label answers).",
    discussion: """
      jsonschema: one JSON Schema (draft 2020-12) per event ID, <EVENT_ID>.schema.json, describing the event's properties (each static property as its type and value), for collectors that validate events against a plan (RudderStack tracking plans, Snowplow Iglu, Segment Protocols). Properties the plan does not list are rejected ('additionalProperties: false') unless --allow-additional-properties. Written into the --output directory; other *.schema.json files there are removed.

      csv: one row per event (screen, trigger, event ID, destinations, properties as JSON, config line, Swift declaration), RFC 4180, for spreadsheets. A cell that starts with =, +, -, @, a tab or CR gets a ' in front so that no spreadsheet runs it as a formula.

      privacy: privacy.json and privacy.md in the --output directory: each data type the plan collects (linked, used to track, purposes, destinations, what sends it), the destinations' purposes, consent categories and tracking domains, and the answers to App Store Connect's App Privacy questions.

      Examples:
        trackc export --format jsonschema tracking.yaml --output schemas/
        trackc export --format csv tracking.yaml --output plan.csv
        trackc export --format csv tracking.yaml --sources Sources/App > plan.csv
        trackc export --format privacy tracking.yaml --output privacy/
      """
  )

  @Option(help: "What to export: jsonschema, csv or privacy.")
  var format: Format

  @Argument(help: ArgumentHelp("The tracking config.", valueName: "config"))
  var config: String

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp(
      "jsonschema, privacy: the directory to write into (required). csv: the file (default: standard output).", valueName: "path"))
  var output: String?

  @Flag(help: "jsonschema: allow properties the plan does not list.")
  var allowAdditionalProperties = false

  @Option(help: ArgumentHelp("jsonschema: a URI prefix for each schema's $id (the file name is appended).", valueName: "uri"))
  var idBase: String?

  @OptionGroup(title: "Code")
  var code: SourceOptions

  func validate() throws {
    if format == .jsonschema && output == nil { throw ValidationError("Give the directory to write the schemas into with --output.") }
    if format == .privacy && output == nil { throw ValidationError("Give the directory to write privacy.json and privacy.md into with --output.") }
  }

  func run() throws {
    var options = LintOptions()
    try code.apply(to: &options)
    let outline = try PlanToolInput.outline(of: config, options: options)
    switch format {
    case .csv:
      try PlanToolInput.write(PlanExport.csv(outline), to: output)
    case .jsonschema:
      let files = PlanExport.jsonSchemas(
        outline, options: PlanExport.SchemaOptions(allowAdditionalProperties: allowAdditionalProperties, idBase: idBase))
      let changes = try write(files, owning: PlanExport.isSchemaFile)
      StandardError.write("trackc: \(files.count) schemas, \(changes) changed\n")
    case .privacy:
      let changes = try write(PlanExport.privacy(outline), owning: PlanExport.isPrivacyFile)
      StandardError.write("trackc: privacy.json and privacy.md, \(changes) changed\n")
    }
  }

  /// Writes `files` into the --output directory, which they own as `owns` says; the number changed.
  private func write(_ files: [Generator.File], owning owns: @escaping @Sendable (String) -> Bool) throws -> Int {
    switch GeneratedOutput(directory: output!, owning: owns).write(files) {
    case .failure(let failure):
      StandardError.write("trackc: error: cannot write '\(failure.path)'\n")
      throw ExitCode(ExitStatus.cannotWrite.rawValue)
    case .success(let changes):
      return changes.count
    }
  }
}
