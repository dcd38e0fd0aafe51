import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Remote configuration: which destinations are on, and what share of events to
/// sample, fetched as a small JSON document from a URL (docs/wire-format.md; `trackc collector --remote-config`
/// serves one at `GET /v1/config`):
///
///     {"version": 1,
///      "destinations": {"firebase": {"enabled": true}, "mixpanel": {"enabled": false, "sampling": 0.5}},
///      "events": {"CTRL_HOME_FAV": {"sampling": 0.1}}}
///
/// The tracking path asks it from memory (one lock, one dictionary lookup). `refresh()` fetches in the
/// background; a good document replaces the snapshot and is cached on disk (read back, in the
/// background, when the next process starts); a failed fetch or a document that is not this shape keeps
/// the last good one and is counted. Unknown keys are ignored (forward compatible). A destination the
/// document does not name follows `fallback`.
public final class RemoteDestinationConfiguration: DestinationConfiguration, @unchecked Sendable {
  public struct Document: Sendable, Hashable {
    public struct Destination: Sendable, Hashable {
      public var enabled: Bool
      public var sampling: Double
    }

    public var version: Int
    public var destinations: [String: Destination]
    public var eventSampling: [String: Double]
  }

  public struct Statistics: Sendable, Hashable {
    public enum Source: Sendable, Hashable { case fallback, cache, network }
    public var source: Source = .fallback
    public var fetches = 0
    public var applied = 0
    /// The fetch failed (no response, a status other than 200).
    public var fetchFailures = 0
    /// The document was not the agreed shape (not JSON, wrong types, sampling outside 0...1).
    public var badDocuments = 0
    public var lastProblem: String?
  }

  public let url: URL
  public let cacheFile: URL?
  private let fallback: any DestinationConfiguration
  private let session: URLSession
  private let lock = NSLock()
  // Guarded by `lock`.
  private var document: Document?
  private var counts = Statistics()
  /// Broadcast after each change of `counts` (off the tracking path): what `waitUntil` waits on.
  private let changed = NSCondition()

  /// Starts reading the cache in the background; until then (and without one), `fallback` answers.
  public init(
    url: URL, cacheFile: URL? = nil, fallback: any DestinationConfiguration = AllDestinationsEnabled(), session: URLSession = .shared
  ) {
    self.url = url
    self.cacheFile = cacheFile
    self.fallback = fallback
    self.session = session
    if let cacheFile {
      DispatchQueue.global(qos: .utility).async { [self] in loadCache(cacheFile) }
    }
  }

  // MARK: The tracking path

  public func isEnabled(_ destinationID: String) -> Bool {
    lock.lock()
    let setting = document?.destinations[destinationID]
    lock.unlock()
    return setting?.enabled ?? fallback.isEnabled(destinationID)
  }

  public func samplingRate(eventID: String, destinationID: String) -> Double {
    lock.lock()
    let destination = document?.destinations[destinationID]?.sampling ?? 1
    let event = document?.eventSampling[eventID] ?? 1
    lock.unlock()
    return destination * event * fallback.samplingRate(eventID: eventID, destinationID: destinationID)
  }

  /// Those the document switches off (`enabled: false`), and those the fallback does that it does not name.
  public var disabledDestinations: [String] {
    lock.lock()
    let destinations = document?.destinations ?? [:]
    lock.unlock()
    let off = destinations.filter { !$0.value.enabled }.map(\.key) + fallback.disabledDestinations.filter { destinations[$0] == nil }
    return Array(Set(off)).sorted()
  }

  // MARK: Fetching

  public var current: Document? {
    lock.lock()
    defer { lock.unlock() }
    return document
  }

  public var statistics: Statistics {
    lock.lock()
    defer { lock.unlock() }
    return counts
  }

  /// Fetches the document in the background; `completion` (on a background thread) says whether a
  /// new document was applied.
  public func refresh(completion: @escaping @Sendable (Bool) -> Void = { _ in }) {
    var request = URLRequest(url: url)
    request.cachePolicy = .reloadIgnoringLocalCacheData
    lock.lock()
    counts.fetches += 1
    lock.unlock()
    if url.isFileURL {
      // A document shipped with the app (or written by a test): read it the same way, off the caller's thread.
      DispatchQueue.global(qos: .utility).async { [self] in
        // The document is released before `completion` runs, so that when it runs the refresh is over,
        // its memory included: the remote-config fuzz target, which checks for leaks as soon as its
        // completion has run, once caught the document's storage being freed on this thread.
        let applied: Bool
        do {
          applied = received(try Data(contentsOf: url), status: 200, error: nil)
        } catch {
          applied = received(nil, status: 0, error: error)
        }
        completion(applied)
      }
      return
    }
    session.dataTask(with: request) { [self] data, response, error in
      completion(received(data, status: (response as? HTTPURLResponse)?.statusCode ?? 0, error: error))
    }.resume()
  }

  /// Applies a fetched document; whether a new one was applied.
  private func received(_ data: Data?, status: Int, error: (any Error)?) -> Bool {
    guard error == nil, status == 200, let data else {
      record { counts in
        counts.fetchFailures += 1
        counts.lastProblem = error.map { "\($0)" } ?? "status \(status)"
      }
      return false
    }
    guard let parsed = Self.parse(data) else {
      record { counts in
        counts.badDocuments += 1
        counts.lastProblem = "not a remote configuration document"
      }
      return false
    }
    apply(parsed, from: .network)
    if let cacheFile { try? data.write(to: cacheFile, options: .atomic) }
    return true
  }

  private func loadCache(_ file: URL) {
    guard let data = try? Data(contentsOf: file) else { return }
    guard let parsed = Self.parse(data) else {
      record { counts in
        counts.badDocuments += 1
        counts.lastProblem = "the cached document is not a remote configuration document"
      }
      return
    }
    lock.lock()
    // A fetch that finished first wins over the cache.
    if document == nil {
      document = parsed
      counts.source = .cache
      counts.applied += 1
    }
    lock.unlock()
    announceChange()
  }

  private func apply(_ parsed: Document, from source: Statistics.Source) {
    lock.lock()
    document = parsed
    counts.source = source
    counts.applied += 1
    lock.unlock()
    announceChange()
  }

  private func record(_ change: (inout Statistics) -> Void) {
    lock.lock()
    change(&counts)
    lock.unlock()
    announceChange()
  }

  private func announceChange() {
    changed.lock()
    changed.broadcast()
    changed.unlock()
  }

  // MARK: Waiting (tests)

  /// Waits until `condition` holds for the statistics, asking it again at each change of them (a
  /// document applied from the network or the cache, a failure counted), never on a timer; false once
  /// `timeout` passes with it still false. For tests (`@testable`): the cache is read in the background.
  func waitUntil(timeout: TimeInterval, _ condition: (Statistics) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    changed.lock()
    defer { changed.unlock() }
    // A change updates the statistics before it takes `changed`, which this holds from the first look
    // until it waits: none falls between a look and the wait.
    while !condition(statistics) {
      if !changed.wait(until: deadline) && Date() >= deadline { return condition(statistics) }
    }
    return true
  }

  /// The document, if it is the agreed shape.
  public static func parse(_ data: Data) -> Document? {
    guard data.count <= 1 << 20, let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    guard let version = root["version"] as? Int, !isBoolean(root["version"]!), version >= 1 else { return nil }
    var document = Document(version: version, destinations: [:], eventSampling: [:])
    if let destinations = root["destinations"] {
      guard let table = destinations as? [String: Any] else { return nil }
      for (id, value) in table {
        guard let settings = value as? [String: Any] else { return nil }
        var destination = Document.Destination(enabled: true, sampling: 1)
        if let enabled = settings["enabled"] {
          guard let flag = enabled as? Bool, isBoolean(enabled) else { return nil }
          destination.enabled = flag
        }
        if let sampling = settings["sampling"] {
          guard let rate = samplingRate(sampling) else { return nil }
          destination.sampling = rate
        }
        document.destinations[id] = destination
      }
    }
    if let events = root["events"] {
      guard let table = events as? [String: Any] else { return nil }
      for (id, value) in table {
        guard let settings = value as? [String: Any] else { return nil }
        if let sampling = settings["sampling"] {
          guard let rate = samplingRate(sampling) else { return nil }
          document.eventSampling[id] = rate
        }
      }
    }
    return document
  }

  private static func samplingRate(_ value: Any) -> Double? {
    guard !isBoolean(value), let number = value as? NSNumber else { return nil }
    let rate = number.doubleValue
    return rate >= 0 && rate <= 1 ? rate : nil
  }

  /// JSONSerialization gives booleans as NSNumber: tell them from numbers.
  private static func isBoolean(_ value: Any) -> Bool {
    guard let number = value as? NSNumber else { return false }
    #if canImport(Darwin)
      return CFGetTypeID(number) == CFBooleanGetTypeID()
    #else
      return value is Bool && String(cString: number.objCType) == "c"
    #endif
  }
}
