import ArgumentParser
import TrackcCore

struct ExportCommand: ParsableCommand {
  enum Format: String, ExpressibleByArgument, CaseIterable {
    case jsonschema, csv
  }

  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export the tracking plan as JSON Schemas (one per event) or as CSV.",
    discussion: """
      jsonschema: one JSON Schema (draft 2020-12) per event ID, <EVENT_ID>.schema.json, describing the event's properties (each static property as its type and value), for collectors that validate events against a plan (RudderStack tracking plans, Snowplow Iglu, Segment Protocols). Properties the plan does not list are rejected ('additionalProperties: false') unless --allow-additional-properties. Written into the --output directory; other *.schema.json files there are removed.

      csv: one row per event (screen, trigger, event ID, destinations, properties as JSON, config line, Swift declaration), RFC 4180, for spreadsheets. A cell that starts with =, +, -, @, a tab or CR gets a ' in front so that no spreadsheet runs it as a formula.

      Examples:
        trackc export --format jsonschema tracking.yaml --output schemas/
        trackc export --format csv tracking.yaml --output plan.csv
        trackc export --format csv tracking.yaml --sources Sources/App > plan.csv
      """
  )

  @Option(help: "What to export: jsonschema or csv.")
  var format: Format

  @Argument(help: ArgumentHelp("The tracking config.", valueName: "config"))
  var config: String

  @Option(
    name: .shortAndLong,
    help: ArgumentHelp("jsonschema: the directory to write into (required). csv: the file (default: standard output).", valueName: "path"))
  var output: String?

  @Flag(help: "jsonschema: allow properties the plan does not list.")
  var allowAdditionalProperties = false

  @Option(help: ArgumentHelp("jsonschema: a URI prefix for each schema's $id (the file name is appended).", valueName: "uri"))
  var idBase: String?

  @OptionGroup(title: "Code")
  var code: SourceOptions

  func validate() throws {
    if format == .jsonschema && output == nil { throw ValidationError("Give the directory to write the schemas into with --output.") }
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
      let destination = GeneratedOutput(directory: output!, owning: PlanExport.isSchemaFile)
      switch destination.write(files) {
      case .failure(let failure):
        StandardError.write("trackc: error: cannot write '\(failure.path)'\n")
        throw ExitCode(ExitStatus.cannotWrite.rawValue)
      case .success(let changes):
        StandardError.write("trackc: \(files.count) schemas, \(changes.count) changed\n")
      }
    }
  }
}
