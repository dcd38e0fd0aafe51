/// The names Segment knows its destinations by, for the destinations mobile apps most often send to: what
/// an event's `integrations` must say, exactly, for Segment to forward it there. Segment compares these
/// names case-sensitively ("Destination flags are case sensitive and match the destination's name"):
/// `{"All": false, "mixpanel": true}` reaches no destination at all, silently.
///
/// Taken from Segment's public catalogue, `src/_data/catalog/destinations.yml` in segmentio/segment-docs
/// (commit 747b35d8f, November 2025): for each destination, the names its page says to use in the
/// integrations object (`previous_names`; the page renders them as "refer to it as ... in the
/// Integrations object"), the catalogue's current name first. A small table on purpose: enough to catch
/// the common misspelling (`mixpanel`, `google_analytics_4`, `appsflyer`), not a copy of the catalogue.
/// `destination-wire-name` reads it; nothing else does.
public enum SegmentCatalogue {
  /// One destination: its catalogue name, then every other name Segment accepts for it.
  public struct Entry: Sendable, Hashable {
    public let name: String
    public let alsoAccepted: [String]

    public var accepted: [String] { [name] + alsoAccepted }
  }

  public static let entries: [Entry] = [
    Entry(name: "Adjust", alsoAccepted: []),
    Entry(name: "Airship", alsoAccepted: ["airship"]),
    Entry(name: "Amplitude", alsoAccepted: []),
    Entry(name: "Amplitude (Actions)", alsoAccepted: ["Actions Amplitude"]),
    Entry(name: "Appcues Mobile", alsoAccepted: ["AppCues Mobile"]),
    Entry(name: "AppsFlyer", alsoAccepted: []),
    Entry(name: "Branch Metrics", alsoAccepted: []),
    Entry(name: "Braze", alsoAccepted: ["Appboy"]),
    Entry(name: "Braze Cloud Mode (Actions)", alsoAccepted: []),
    Entry(name: "Bugsnag", alsoAccepted: []),
    Entry(name: "CleverTap", alsoAccepted: []),
    Entry(name: "Customer.io", alsoAccepted: []),
    Entry(name: "Facebook App Events", alsoAccepted: []),
    Entry(name: "Firebase", alsoAccepted: []),
    Entry(
      name: "Google Analytics 4 Cloud", alsoAccepted: ["Google Analytics 4", "Actions Google Analytics 4", "Actions Google Analytic 4"]),
    Entry(name: "Heap", alsoAccepted: []),
    Entry(name: "Intercom", alsoAccepted: []),
    Entry(name: "Iterable", alsoAccepted: []),
    Entry(name: "Kochava", alsoAccepted: []),
    Entry(name: "Leanplum", alsoAccepted: []),
    Entry(name: "Localytics", alsoAccepted: []),
    Entry(name: "Mixpanel (Legacy)", alsoAccepted: ["Mixpanel"]),
    Entry(name: "Mixpanel (Actions)", alsoAccepted: []),
    Entry(name: "OneSignal (New)", alsoAccepted: ["OneSignal New"]),
    Entry(name: "Optimizely Full Stack", alsoAccepted: ["Optimizely X"]),
    Entry(name: "PostHog", alsoAccepted: []),
    Entry(name: "Singular", alsoAccepted: []),
    Entry(name: "Webhooks (Actions)", alsoAccepted: ["Webhook"]),
  ]

  /// The names of Amplitude's destinations (classic and Actions): a destination by one of these counts
  /// sessions by the session ID in its `integrations` entry (`{"session_id": …}`), which the runtime
  /// sends it (`TrackingRegistry.sessionDestinations`).
  public static let sessionCountingNames: Set<String> = ["Amplitude", "Amplitude (Actions)", "Actions Amplitude"]

  /// Whether Segment accepts `name` as it is written.
  public static func accepts(_ name: String) -> Bool {
    exact.contains(name)
  }

  /// The accepted name `name` looks like, written differently (another case, spaces or punctuation:
  /// `mixpanel` is `Mixpanel`, `google_analytics_4` is `Google Analytics 4`); nil when it is accepted as
  /// it is, or looks like none.
  public static func spelling(of name: String) -> String? {
    guard !accepts(name) else { return nil }
    return byKey[key(name)]
  }

  /// Letters and digits, lowercased: what two spellings of one name share.
  static func key(_ name: String) -> String {
    String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
  }

  private static let exact = Set(entries.flatMap(\.accepted))
  /// By key, the first accepted name of that key, in table order (the catalogue name before the others).
  private static let byKey: [String: String] = {
    var result: [String: String] = [:]
    for entry in entries {
      for name in entry.accepted where result[key(name)] == nil { result[key(name)] = name }
    }
    return result
  }()
}
