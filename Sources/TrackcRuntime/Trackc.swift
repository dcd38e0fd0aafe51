import Foundation

/// trackc as most apps start it: the generated registry, a collector (Segment's HTTP API) with a write
/// key, and a journal in the app's support directory, in one call at launch.
///
///     try Trackc.start(Tracking.registry, endpoint: URL(string: "https://api.segment.io")!, writeKey: "WRITE_KEY")
///
/// From then on every handler and screen the plan maps reports its event, stamped with the identity and
/// context, journaled before the call returns, and uploaded in batches; on Apple platforms the runtime
/// uploads when the app goes to the background and tracks the application events the plan declares,
/// without app code. Everything else is `Settings`, each default stated in `Defaults`.
public enum Trackc {
  /// What `start` can be told besides the collector. Every default is `Defaults`'.
  public struct Settings: Sendable {
    /// The collector's base URL (`/v1/batch` is added) or its batch endpoint.
    public var endpoint: URL
    /// Sent as HTTP Basic, as Segment expects.
    public var writeKey: String?
    /// In-process destinations beside the collector (an SDK wrapper): each stands for the plan's
    /// destination of its ID, which the collector then does not forward to.
    public var destinations: [any TrackingDestination] = []
    /// Where events wait: the app's Application Support directory (`trackc/`).
    public var journal: JournalConfiguration = .applicationSupport()
    /// When a batch goes, and its largest body.
    public var batch: BatchLimits = .default
    /// The backoff between retries.
    public var retry: RetryPolicy = .default
    public var requestTimeout: TimeInterval = Defaults.requestTimeout
    /// A remote configuration document (`docs/wire-format.md`): fetched at start, cached beside the journal.
    public var remoteConfiguration: URL?
    /// Track the application events the plan declares (installed, updated, opened, backgrounded).
    public var applicationEvents = true
    /// The analytics SDKs the app used before trackc (`.segment(writeKey:)`, `.amplitude(apiKey:)`): at
    /// trackc's first start, the first that left an identity on the device hands it over (anonymous ID,
    /// user ID, traits), and the version and build it last saw make this launch an update, not an
    /// install. None by default.
    public var migration: [Migration] = []
    /// How long the app may stay in the background before coming back starts a new session
    /// (`Tracker.sessionID`).
    public var sessionTimeout: TimeInterval = Defaults.sessionTimeout

    public init(endpoint: URL, writeKey: String? = nil) {
      self.endpoint = endpoint
      self.writeKey = writeKey
    }
  }

  /// Starts tracking and installs the tracker that interceptions report to (the one `tracker` returns).
  /// Call it once, at launch (on Apple platforms, on the main thread: under `interception: objc-runtime`
  /// the UIKit hooks are installed there before it returns; called from another thread, they are installed
  /// when the main thread next runs, a handler called before then is not tracked, and a debug build says
  /// so on the console). Apart from opening the journal
  /// (0.6 ms with 100,000 events waiting), nothing here waits for the disk or the network.
  /// - Throws: when the endpoint is not an http or https URL.
  @discardableResult
  public static func start(
    _ registry: any TrackingRegistry, endpoint: URL, writeKey: String? = nil, _ configure: (inout Settings) -> Void = { _ in }
  ) throws(HTTPCollectorDestination.InvalidEndpoint) -> Tracker {
    var settings = Settings(endpoint: endpoint, writeKey: writeKey)
    configure(&settings)
    return try start(registry, settings)
  }

  @discardableResult
  public static func start(_ registry: any TrackingRegistry, _ settings: Settings) throws(HTTPCollectorDestination.InvalidEndpoint) -> Tracker {
    let collector = try HTTPCollectorDestination(
      endpoint: settings.endpoint, writeKey: settings.writeKey, batch: settings.batch, requestTimeout: settings.requestTimeout)
    var configuration: any DestinationConfiguration = AllDestinationsEnabled()
    if let url = settings.remoteConfiguration {
      let remote = RemoteDestinationConfiguration(
        url: url, cacheFile: settings.journal.directory?.appendingPathComponent("remote-configuration.json"))
      remote.refresh()
      configuration = remote
    }
    let tracker = Tracker(
      registry: registry, destinations: settings.destinations + [collector], configuration: configuration, journal: settings.journal,
      retry: settings.retry, migration: settings.migration, sessionTimeout: settings.sessionTimeout)
    install(tracker, applicationEvents: settings.applicationEvents)
    return tracker
  }

  /// Installs a tracker built by hand (several collectors, in-process destinations only, a journal
  /// elsewhere) as `start` installs its own: the interceptions report to it (`tracker` returns it),
  /// `interception: objc-runtime`'s UIKit hooks are in place, and the runtime follows the app's lifecycle:
  /// the application events the plan declares (unless `applicationEvents` is false), an upload when the
  /// app goes to the background, the context again when the locale or time zone changes. Call it once, at
  /// launch (on Apple platforms, on the main thread).
  public static func install(_ tracker: Tracker, applicationEvents: Bool = true) {
    Interception.install(tracker)
    if tracker.registry.hooksUIKit { AppleLifecycle.installUIKitHooks(tracker.registry) }
    tracker.observeLifecycle(applicationEvents: applicationEvents)
  }

  /// The tracker `start` installed (nil before).
  public static var tracker: Tracker? { Interception.tracker }

  /// Under `interception: objc-runtime`, the handler hooks that could not be installed, with why (a class
  /// the app does not have, a method no class declares, a method another registry hooked first): their
  /// handlers' events are not tracked. Each is printed as it is found in a debug build; read them here
  /// from a test or a debug screen. Empty when every hook is in place.
  public static var handlerHookProblems: [HandlerHookProblem] { Interception.hookProblems.all }
}

extension Tracker {
  /// Follows the app's lifecycle from now on: a launch now, then (on Apple platforms) the background
  /// and the foreground, and locale and time zone changes (the context).
  func observeLifecycle(applicationEvents: Bool) {
    if applicationEvents { applicationDidLaunch() }
    let center = NotificationCenter.default
    var observers = [NSLocale.currentLocaleDidChangeNotification, Notification.Name.NSSystemTimeZoneDidChange].map { name in
      center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in self?.refreshContext() }
    }
    observers += AppleLifecycle.observe(self, applicationEvents: applicationEvents)
    keep(observers)
  }
}
