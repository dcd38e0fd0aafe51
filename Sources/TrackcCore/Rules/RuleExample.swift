/// An input that a rule must flag (at every `1️⃣`, `2️⃣`... marker, with the severity and message it
/// states) or must leave alone.
///
/// Examples are the rule's documentation (`trackc rules --markdown` prints them with what trackc reports)
/// and its tests (`RuleExampleTests` runs every one), so the two cannot drift apart.
public struct RuleExample: Sendable {
  public enum Expectation: Sendable {
    case triggers
    case passes
  }

  /// What a triggering example must report at one marker.
  public struct Finding: Sendable, Equatable {
    public var severity: Diagnostic.Severity
    public var message: String

    public init(severity: Diagnostic.Severity, message: String) {
      self.severity = severity
      self.message = message
    }

    public static func error(_ message: String) -> Finding { Finding(severity: .error, message: message) }
    public static func warning(_ message: String) -> Finding { Finding(severity: .warning, message: message) }
  }

  public var expectation: Expectation
  /// Config text; markers are removed before linting and give the expected diagnostic positions.
  public var source: String
  /// Raw bytes to lint instead of `source`, for inputs a Swift string cannot hold (bad encodings).
  /// Positions are then given by `expectedPositions`.
  public var bytes: [UInt8]?
  public var expectedPositions: [SourcePosition]
  public var options: LintOptions
  /// Swift files the config is checked against (path and text; markers allowed), sorted by path.
  public var swiftFiles: [(path: String, text: String)]
  /// A handler registry (JSON) the config is checked against instead of sources.
  public var registry: String? = nil
  /// For a triggering example, the finding expected at each marker, in the order of `run`'s `expected`:
  /// the config's markers by number, then each Swift file's, then the registry's.
  public var findings: [Finding] = []

  public static func triggers(
    _ source: String, swift: [String: String] = [:], options: LintOptions = LintOptions(), expecting findings: [Finding] = []
  ) -> RuleExample {
    RuleExample(
      expectation: .triggers, source: source, bytes: nil, expectedPositions: [], options: options,
      swiftFiles: swift.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, findings: findings)
  }

  public static func passes(
    _ source: String, swift: [String: String] = [:], options: LintOptions = LintOptions()
  ) -> RuleExample {
    RuleExample(
      expectation: .passes, source: source, bytes: nil, expectedPositions: [], options: options,
      swiftFiles: swift.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
  }

  /// An example checked against a handler registry (JSON, markers allowed) instead of sources.
  public static func triggers(_ source: String, registry: String, expecting findings: [Finding] = []) -> RuleExample {
    RuleExample(
      expectation: .triggers, source: source, bytes: nil, expectedPositions: [], options: LintOptions(), swiftFiles: [],
      registry: registry, findings: findings)
  }

  public static func passes(_ source: String, registry: String) -> RuleExample {
    RuleExample(
      expectation: .passes, source: source, bytes: nil, expectedPositions: [], options: LintOptions(), swiftFiles: [],
      registry: registry)
  }

  public static func triggers(bytes: [UInt8], at positions: [SourcePosition], expecting findings: [Finding] = []) -> RuleExample {
    RuleExample(
      expectation: .triggers, source: "", bytes: bytes, expectedPositions: positions, options: LintOptions(), swiftFiles: [],
      findings: findings)
  }
}

extension RuleExample {
  /// The file name an example's config is linted under.
  public static let configFileName = "example.yaml"
  /// The file name an example's registry is read under.
  public static let registryFileName = "handlers.json"

  /// What running an example gives: where its markers say findings belong, and what trackc reported.
  public struct Outcome: Sendable {
    /// The config as linted (markers removed), or nil for an example of raw bytes.
    public var config: String?
    /// The Swift files as scanned (markers removed).
    public var swiftFiles: [(path: String, text: String)]
    /// The registry as read (markers removed).
    public var registry: String?
    /// Where the markers are: the config's by number, then each Swift file's, then the registry's.
    public var expected: [SourceLocation]
    /// Every finding, of any rule, in presentation order.
    public var diagnostics: [Diagnostic]
  }

  /// Lints the example as `trackc lint` would (and generates, for a rule of the generation phase, since
  /// such rules apply on top of a clean lint).
  public func run(phase: RulePhase.Kind) -> Outcome {
    var options = options
    var expected: [SourceLocation] = []
    let configSource: ConfigSource
    var config: String?
    if let bytes {
      configSource = ConfigSource(path: Self.configFileName, bytes: bytes)
      expected = expectedPositions.map { SourceLocation(file: Self.configFileName, range: SourceRange(at: $0)) }
    } else {
      let (text, positions) = ExampleMarkers.extract(from: source)
      configSource = ConfigSource(path: Self.configFileName, text: text)
      config = text
      expected = positions.map { SourceLocation(file: Self.configFileName, range: SourceRange(at: $0)) }
    }
    var files: [(path: String, text: String)] = []
    if !swiftFiles.isEmpty {
      for file in swiftFiles {
        let (text, positions) = ExampleMarkers.extract(from: file.text)
        files.append((file.path, text))
        expected += positions.map { SourceLocation(file: file.path, range: SourceRange(at: $0)) }
      }
      options.code = .sources(.files(files))
      options.scan.useCache = false
    }
    var registryText: String?
    if let registry {
      let (text, positions) = ExampleMarkers.extract(from: registry)
      registryText = text
      options.code = .registry(path: Self.registryFileName, bytes: InputBytes(Array(text.utf8)))
      expected += positions.map { SourceLocation(file: Self.registryFileName, range: SourceRange(at: $0)) }
    }
    var result = Linter.lint(configSource, options: options)
    if phase == .generation {
      result.diagnostics = Generator.generate(result, options: Generator.Options(configFileName: Self.configFileName)).diagnostics
    }
    return Outcome(
      config: config, swiftFiles: files, registry: registryText, expected: expected,
      diagnostics: result.diagnostics.sorted(by: Diagnostic.presentationOrder))
  }
}

/// swift-format-style position markers: `1️⃣`...`9️⃣` in an example stand for the positions where a
/// finding is expected, and are removed before the text is linted.
public enum ExampleMarkers {
  public static let symbols = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

  /// The text without markers, and the positions of the markers in order of their number.
  public static func extract(from marked: String) -> (text: String, positions: [SourcePosition]) {
    var text = ""
    var found: [(number: Int, position: SourcePosition)] = []
    var line = 1
    var column = 1
    var rest = Substring(marked)
    outer: while let character = rest.first {
      for (index, symbol) in symbols.enumerated() where rest.hasPrefix(symbol) {
        found.append((index, SourcePosition(line: line, column: column)))
        rest = rest.dropFirst(symbol.count)
        continue outer
      }
      text.append(character)
      for scalar in character.unicodeScalars {
        if scalar == "\n" {
          line += 1
          column = 1
        } else {
          column += 1
        }
      }
      rest = rest.dropFirst()
    }
    return (text, found.sorted { $0.number < $1.number }.map(\.position))
  }
}

extension RuleExample {
  /// The config of an example about one handler's properties, the setting most binding rules are shown
  /// in: `screen` maps `handler` to `event` with `properties` (a YAML flow mapping, markers allowed), under
  /// `interception` when given. The rules' page shows the config in full.
  public static func handlerConfig(
    _ screen: String, _ handler: String, event: String, properties: String, interception: String? = nil
  ) -> String {
    """
    version: 1\(interception.map { "\ninterception: \($0)" } ?? "")
    screens:
      \(screen):
        control_events:
          \(handler): {event: \(event), properties: \(properties)}
    """
  }
}
