import Foundation

/// `trackc collector`, run as its own process on 127.0.0.1, as a developer runs it beside the app: the
/// example links only what an app links (TrackcRuntime), and reads what the collector accepted from the
/// lines it prints (`--format json`, one object a line; docs/collector.md).
///
/// The `trackc` it runs is `$TRACKC` when set, else the one `swift build` made at the repository's root
/// (debug, then release).
public final class CollectorProcess: @unchecked Sendable {
  /// Where the app sends its batches.
  public let baseURL: URL
  private let process: Process
  private let changed = NSCondition()
  private var calls: [ReceivedCall] = []
  private var violationLines: [Violation] = []
  private var duplicateCount = 0
  private var finished = false
  private let messagesFile: FileHandle = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("trackc-collector-\(UUID().uuidString).log")
    FileManager.default.createFile(atPath: url.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: url) }
    return (try? FileHandle(forUpdating: url)) ?? .nullDevice
  }()

  public struct NotStarted: Error, CustomStringConvertible {
    public let description: String
  }

  /// Starts a collector that checks every call against `plan` (a tracking.yaml), or only the wire
  /// format without one, and returns once it listens.
  public init(plan: URL? = nil, arguments: [String] = []) throws {
    let trackc = try Self.trackcExecutable()
    process = Process()
    process.executableURL = trackc
    process.arguments = ["collector", "--port", "0", "--format", "json"] + (plan.map { ["--config", $0.path] } ?? []) + arguments
    let output = Pipe()
    process.standardOutput = output
    // What it says on standard error (its settings, and its statistics when stopped) is kept for
    // `messages`, not mixed into the program's own output.
    process.standardError = messagesFile
    try process.run()
    try output.fileHandleForWriting.close()
    let handle = output.fileHandleForReading
    let firstLine = Self.firstLine(of: handle)
    guard let url = firstLine.flatMap({ $0.split(separator: " ").last }).flatMap({ URL(string: String($0)) }),
      firstLine?.hasPrefix("trackc collector listening on ") == true
    else {
      process.terminate()
      process.waitUntilExit()
      throw NotStarted(description: "\(trackc.path) collector did not start: \(Self.read(messagesFile))")
    }
    baseURL = url
    Thread { [self] in read(handle) }.start()
  }

  deinit {
    if process.isRunning { stop() }
  }

  /// The calls the collector accepted, in order (duplicates not repeated).
  public var received: [ReceivedCall] { locked { calls } }
  /// What the plan says is wrong with them.
  public var violations: [Violation] { locked { violationLines } }
  /// Calls sent again with a message ID the collector had accepted.
  public var duplicates: Int { locked { duplicateCount } }

  /// What the collector said on standard error: its settings, and once stopped its statistics.
  public var messages: String { Self.read(messagesFile) }

  private static func read(_ file: FileHandle) -> String {
    (try? file.seek(toOffset: 0)).flatMap { _ in try? file.readToEnd() }.map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// Waits until the collector has printed `count` accepted calls (its lines reach this process a moment
  /// after it answers the batch), at most `timeout` seconds.
  @discardableResult
  public func waitForCalls(_ count: Int, timeout: TimeInterval = 30) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    changed.lock()
    defer { changed.unlock() }
    while calls.count < count {
      guard !finished, changed.wait(until: deadline) else { return calls.count >= count }
    }
    return true
  }

  /// Interrupts the collector (Ctrl-C, as a developer stops it) and waits for it to exit and for its last line.
  public func stop() {
    if process.isRunning { process.interrupt() }
    process.waitUntilExit()
    changed.lock()
    while !finished { changed.wait() }
    changed.unlock()
  }

  private func locked<T>(_ body: () -> T) -> T {
    changed.lock()
    defer { changed.unlock() }
    return body()
  }

  private static func firstLine(of handle: FileHandle) -> String? {
    var line = Data()
    while true {
      guard let byte = try? handle.read(upToCount: 1), let first = byte.first else { return nil }
      if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
      line.append(first)
    }
  }

  private func read(_ handle: FileHandle) {
    var pending = Data()
    while true {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      pending += chunk
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = pending[pending.startIndex..<newline]
        pending = Data(pending[pending.index(after: newline)...])
        let record = try? JSONDecoder().decode(Line.self, from: line)
        changed.lock()
        switch record?.kind {
        case "event": if let call = record?.event { calls.append(ReceivedCall(call, forwardedTo: record?.forwardedTo)) }
        case "violation": if let record { violationLines.append(Violation(rule: record.rule ?? "", message: record.message ?? "")) }
        case "duplicate": duplicateCount += 1
        default: break
        }
        changed.broadcast()
        changed.unlock()
      }
    }
    changed.lock()
    finished = true
    changed.broadcast()
    changed.unlock()
  }

  /// One line the collector prints: `{"kind":"event","event":{…the call…},"forwardedTo":[…]}`,
  /// `{"kind":"violation","rule":…,"message":…}`, `{"kind":"duplicate",…}`.
  private struct Line: Decodable {
    var kind: String
    var event: JSONValue?
    var forwardedTo: [String]?
    var rule: String?
    var message: String?

    enum CodingKeys: CodingKey { case kind, event, forwardedTo, rule, message }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      kind = try container.decode(String.self, forKey: .kind)
      // A duplicate's `event` is the event's name, a string; an accepted call's, the call itself.
      event = kind == "event" ? try container.decodeIfPresent(JSONValue.self, forKey: .event) : nil
      forwardedTo = try container.decodeIfPresent([String].self, forKey: .forwardedTo)
      rule = try container.decodeIfPresent(String.self, forKey: .rule)
      message = try container.decodeIfPresent(String.self, forKey: .message)
    }
  }

  /// `trackc`: `$TRACKC`, else the repository's own build.
  static func trackcExecutable() throws -> URL {
    if let path = ProcessInfo.processInfo.environment["TRACKC"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    // Examples/Shop/Sources/CollectorProcess/CollectorProcess.swift: the repository is five folders up.
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 { root.deleteLastPathComponent() }
    let candidates = ["debug", "release"].map { root.appendingPathComponent(".build/\($0)/trackc") }
    if let built = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return built }
    throw NotStarted(
      description: "trackc is not built: run `swift build --product trackc` in \(root.path), or set TRACKC to a trackc executable")
  }
}

/// A violation of the plan, as the collector reports it.
public struct Violation: Sendable, Hashable, CustomStringConvertible {
  public var rule: String
  public var message: String
  public var description: String { "\(message) [\(rule)]" }
}

/// One call the collector accepted, read as the collector reads it (its `ReceivedEvent`).
public struct ReceivedCall: Sendable {
  /// `track`, `screen`, `identify`, `alias`, `group` or `page`.
  public var type: String
  /// The plan's event ID: a track call's `event`, a screen call's `context.trackc.event`.
  public var event: String
  /// A screen call's `name`.
  public var name: String?
  public var messageID: String?
  public var anonymousID: String?
  public var userID: String?
  /// The destinations `integrations` names when it turns `All` off (sorted); nil when it does not.
  public var destinations: [String]?
  /// Where a collector would forward it, by the plan (nil without a plan).
  public var forwardedTo: [String]?
  public var properties: [String: JSONValue]
  public var traits: [String: JSONValue]
  /// `context.trackc`: where a trackc event came from.
  public var screen: String?
  public var phase: String?
  public var handler: String?
  /// The call as sent.
  public var json: JSONValue

  /// One line, as `trackc collector` prints an accepted call: kind, event, where it goes, and where it
  /// came from.
  public var line: String {
    let kind = type == "track" || type == "screen" ? "event" : type
    let target = (forwardedTo ?? destinations).map { " -> " + $0.joined(separator: ", ") } ?? ""
    let origin = [screen, handler, phase.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
    let text = "\(kind.padding(toLength: 9, withPad: " ", startingAt: 0)) \(event.isEmpty ? userID ?? "" : event)\(target)  \(origin)"
    return String(text.reversed().drop(while: { $0 == " " }).reversed())
  }

  init(_ call: JSONValue, forwardedTo: [String]?) {
    json = call
    type = call["type"]?.string ?? ""
    let trackc = call["context"]?["trackc"]
    event = (type == "track" ? call["event"]?.string : trackc?["event"]?.string) ?? ""
    name = call["name"]?.string
    messageID = call["messageId"]?.string
    anonymousID = call["anonymousId"]?.string
    userID = call["userId"]?.string
    self.forwardedTo = forwardedTo
    properties = call["properties"]?.object ?? [:]
    traits = call["traits"]?.object ?? [:]
    screen = trackc?["screen"]?.string
    phase = trackc?["phase"]?.string
    handler = trackc?["handler"]?.string
    if case .object(let integrations)? = call["integrations"], integrations["All"] == .bool(false) {
      destinations = integrations.compactMap { name, value in
        switch value {
        case .bool(true), .object: return name == "All" ? nil : name
        default: return nil
        }
      }.sorted()
    }
  }
}

/// A JSON value, as Foundation's decoder reads it (an integer stays an integer).
public enum JSONValue: Sendable, Hashable, Decodable, CustomStringConvertible {
  case string(String)
  case integer(Int)
  case number(Double)
  case bool(Bool)
  case object([String: JSONValue])
  case array([JSONValue])
  case null

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([String: JSONValue].self) {
      self = .object(value)
    } else {
      self = .array(try container.decode([JSONValue].self))
    }
  }

  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var object: [String: JSONValue]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// As the collector prints a property: a string as it is, a number or a boolean as written.
  public var description: String {
    switch self {
    case .string(let value): return value
    case .integer(let value): return String(value)
    case .number(let value): return String(value)
    case .bool(let value): return String(value)
    case .object: return "(an object)"
    case .array: return "(an array)"
    case .null: return "(null)"
    }
  }
}
