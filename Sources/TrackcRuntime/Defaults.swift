import Foundation

/// Every default of the runtime, stated once, with why. The settings that take them (`BatchLimits`,
/// `RetryPolicy`, `JournalConfiguration`, `HTTPCollectorDestination`, `Trackc.start`) refer here.
public enum Defaults {
  /// Events in one upload. Segment's libraries flush at 20; every request wakes a phone's radio, so
  /// fewer, larger uploads cost the battery less, and 100 events (about 1 KB of JSON each, context
  /// included) stay far under the body limit.
  public static let batchEvents = 100
  /// The largest upload body, decompressed: Segment's limit (500 KB), which `trackc collector` keeps too.
  public static let batchBytes = 500_000
  /// How long the first event of a partial batch waits before it goes anyway (the app going to the
  /// background sends it at once).
  public static let batchAge: TimeInterval = 30
  /// The first retry's backoff ceiling, doubled each failure up to `retryMaximum` (with full jitter).
  public static let retryInitial: TimeInterval = 0.5
  /// The longest backoff between two tries: five minutes, so a collector that comes back is found soon.
  public static let retryMaximum: TimeInterval = 300
  /// How long a request may wait for the collector's next bytes before it fails (and is retried).
  public static let requestTimeout: TimeInterval = 30
  /// The most the journal keeps on disk: the oldest segment goes (counted as `journalFull`) beyond it.
  public static let journalBytes = 64 << 20
  /// One segment file of the journal.
  public static let segmentBytes = 4 << 20
  /// The journal's folder under the app's Application Support directory (on Linux, `XDG_DATA_HOME` or
  /// `~/.local/share`).
  public static let journalFolder = "trackc"
  /// Events that may wait for a pending consent category, per destination, when the plan does not say
  /// (`privacy.pending.events`): about a day of a busy app, a few megabytes of the journal.
  public static let pendingConsentEvents = 10_000
  /// How long an event may wait for a pending consent category when the plan does not say
  /// (`privacy.pending.hours`): three days, the shortest a destination of Segment's catalogue accepts an
  /// event after it happened (Google Analytics 4's Measurement Protocol takes events backdated 72 hours
  /// at most); a destination that takes longer says so (`pending_hours`).
  public static let pendingConsentAge: TimeInterval = 72 * 3600
  /// How long the app may stay in the background before coming back to the foreground starts a new
  /// session (`Tracker`'s `sessionTimeout`): five minutes, Amplitude's `minTimeBetweenSessionsMillis`
  /// (300 000 ms) and the Amplitude plugin's of analytics-swift, so that sessions count the same after a
  /// move from either.
  public static let sessionTimeout: TimeInterval = 300
}
