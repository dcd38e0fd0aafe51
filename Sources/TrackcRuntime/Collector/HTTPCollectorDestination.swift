import Foundation

/// Uploads batches to a collector that speaks the Segment batch API (`POST /v1/batch`): `trackc
/// collector`, Segment, RudderStack, Jitsu. The body is written from the journal's events when the
/// batch is uploaded (valid JSON by construction) and gzipped; the message ID is the one fixed when the
/// event was accepted, so a retried upload deduplicates at the collector.
///
/// Failure policy (WIRE.md): 2xx delivered; 400 splits the batch to isolate the bad event (a single
/// event answered 400 is dropped as `rejected`); 413 splits it too (a single event: `tooLarge`); another
/// 4xx drops the batch as `clientError <status>` (reported to `onDrop`, so a poison batch never blocks
/// the queue); 429 and 503 wait for `Retry-After`; network errors and 5xx retry with exponential backoff
/// and full jitter. Nothing is discarded for having been retried many times.
public final class HTTPCollectorDestination: BatchTrackingDestination, @unchecked Sendable {
  public let id: String
  public let configuration: CollectorChannelConfiguration
  /// Shared with every destination of the same endpoint and write key.
  public let channel: CollectorChannel

  public var batchLimits: BatchLimits { configuration.batchLimits }

  public init(id: String, configuration: CollectorChannelConfiguration, pool: CollectorChannelPool = .shared) {
    self.id = id
    self.configuration = configuration
    channel = pool.channel(for: configuration)
  }

  public func deliver(_ batch: [TrackingEvent], completion: @escaping @Sendable (BatchOutcome) -> Void) {
    let json = BatchJSON.body(batch, context: BatchJSON.Context(destination: id, anonymousID: configuration.anonymousID), sentAt: Date())
    guard json.count <= configuration.maximumBodyBytes else {
      completion(.split(whenSingle: .tooLarge))
      return
    }
    let body: [UInt8]
    var gzipped = false
    if configuration.gzip, let compressed = Gzip.compress(json) {
      body = compressed
      gzipped = true
    } else {
      body = json
    }
    do {
      try channel.send(CollectorChannel.Upload(body: Data(body), gzipped: gzipped) { result in completion(Self.outcome(result)) })
    } catch {
      // Released: the events stay in the journal for a later process (or a new channel).
      completion(.retry(after: 60))
    }
  }

  static func outcome(_ result: CollectorChannel.UploadResult) -> BatchOutcome {
    switch result {
    case .failed:
      // The channel holds the next attempt until its backoff is over.
      return .retry(after: 0)
    case .response(let status, _):
      switch status {
      case 200..<300: return .delivered
      case 400: return .split(whenSingle: .rejected)
      case 413: return .split(whenSingle: .tooLarge)
      case 429, 500..<600: return .retry(after: 0)
      case 401..<500: return .drop(DropReason.clientError(status))
      default: return .retry(after: 0)
      }
    }
  }
}

extension DropReason {
  /// A batch answered with a 4xx other than 400, 413 and 429.
  public static func clientError(_ status: Int) -> DropReason { DropReason(rawValue: "clientError \(status)") }
}
