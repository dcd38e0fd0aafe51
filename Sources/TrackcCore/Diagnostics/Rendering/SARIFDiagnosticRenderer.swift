/// Renders findings as a SARIF 2.1.0 log, the format code-scanning services (GitHub, GitLab, Azure) read.
///
/// Columns are reported with `columnKind: unicodeCodePoints`, which is exactly how trackc counts them.
public enum SARIFDiagnosticRenderer {
  struct Log: Encodable {
    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
      case schema = "$schema"
      case version, runs
    }
  }

  struct Run: Encodable {
    var tool: Tool
    var results: [Result]
    var columnKind = "unicodeCodePoints"
    var properties: RunProperties?
  }

  /// `trackc adopt`'s counts, in the run's property bag.
  struct RunProperties: Encodable {
    var adoption: AdoptionCounts
  }

  struct Tool: Encodable {
    var driver: Driver
  }

  struct Driver: Encodable {
    var name = "trackc"
    var version: String
    var informationUri = "https://github.com/trackc/trackc"
    var rules: [ReportingDescriptor]
  }

  struct ReportingDescriptor: Encodable {
    var id: String
    var shortDescription: Message
    var defaultConfiguration: Configuration
  }

  struct Configuration: Encodable {
    var level: String
  }

  struct Message: Encodable {
    var text: String
  }

  struct Result: Encodable {
    var ruleId: String
    var ruleIndex: Int?
    var level: String
    var message: Message
    var locations: [Location]
    var relatedLocations: [Location]?
    var fixes: [Fix]?
  }

  struct Location: Encodable {
    var id: Int?
    var physicalLocation: PhysicalLocation
    var message: Message?
  }

  struct PhysicalLocation: Encodable {
    var artifactLocation: ArtifactLocation
    var region: Region
  }

  struct ArtifactLocation: Encodable {
    var uri: String
    /// Relative paths are relative to the directory trackc ran in, which code-scanning tools call SRCROOT.
    var uriBaseId: String?

    init(path: String) {
      uri = SARIFDiagnosticRenderer.uri(path)
      uriBaseId = path.hasPrefix("/") ? nil : "%SRCROOT%"
    }
  }

  struct Region: Encodable {
    var startLine: Int
    var startColumn: Int
    var endLine: Int
    var endColumn: Int

    init(_ range: SourceRange) {
      startLine = range.start.line
      startColumn = range.start.column
      endLine = max(range.end.line, range.start.line)
      endColumn = range.end.line > range.start.line ? range.end.column : max(range.end.column, range.start.column)
    }
  }

  struct Fix: Encodable {
    var description: Message
    var artifactChanges: [ArtifactChange]
  }

  struct ArtifactChange: Encodable {
    var artifactLocation: ArtifactLocation
    var replacements: [Replacement]
  }

  struct Replacement: Encodable {
    var deletedRegion: Region
    var insertedContent: Content
  }

  struct Content: Encodable {
    var text: String
  }

  /// With `adoption` (`trackc adopt`), the reasons a call is left are rules of the log too.
  public static func render(_ diagnostics: [Diagnostic], toolVersion: String, adoption: AdoptionCounts? = nil) -> String {
    var descriptors = RuleCatalog.all.map { rule in
      ReportingDescriptor(
        id: rule.id, shortDescription: Message(text: rule.summary),
        defaultConfiguration: Configuration(level: rule.severity.rawValue))
    }
    if adoption != nil {
      descriptors += AdoptReason.allCases.map {
        ReportingDescriptor(id: $0.rawValue, shortDescription: Message(text: $0.summary), defaultConfiguration: Configuration(level: "warning"))
      }
    }
    let ruleIndex = Dictionary(uniqueKeysWithValues: descriptors.enumerated().map { ($0.element.id, $0.offset) })
    let results = diagnostics.map { diagnostic in
      let related = diagnostic.notes.enumerated().map { index, note in
        Location(
          id: index + 1, physicalLocation: physicalLocation(note.location ?? diagnostic.location),
          message: Message(text: note.message))
      }
      let fixes = diagnostic.fixIt.map { fixIt in
        [
          Fix(
            description: Message(text: fixIt.message),
            artifactChanges: [
              ArtifactChange(
                artifactLocation: ArtifactLocation(path: fixIt.range.file),
                replacements: [Replacement(deletedRegion: Region(fixIt.range.range), insertedContent: Content(text: fixIt.replacement))])
            ])
        ]
      }
      return Result(
        ruleId: diagnostic.ruleID, ruleIndex: ruleIndex[diagnostic.ruleID], level: diagnostic.severity.rawValue,
        message: Message(text: diagnostic.message), locations: [Location(physicalLocation: physicalLocation(diagnostic.location))],
        relatedLocations: related.isEmpty ? nil : related, fixes: fixes)
    }
    let log = Log(
      runs: [
        Run(tool: Tool(driver: Driver(version: toolVersion, rules: descriptors)), results: results, properties: adoption.map(RunProperties.init))
      ])
    return JSONOutput.encode(log)
  }

  private static func physicalLocation(_ location: SourceLocation) -> PhysicalLocation {
    PhysicalLocation(artifactLocation: ArtifactLocation(path: location.file), region: Region(location.range))
  }

  /// A relative or `file://` URI reference for a path, percent-encoding what a URI cannot hold.
  static func uri(_ path: String) -> String {
    var encoded = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        encoded.append(Character(Unicode.Scalar(byte)))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return path.hasPrefix("/") ? "file://" + encoded : encoded
  }
}
