import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A running development collector: a Segment-compatible `POST /v1/batch` endpoint
/// (docs/wire-format.md) that takes every call type of Segment's HTTP API, deduplicates by message ID,
/// checks track and screen calls against the tracking plan and records everything, plus
/// `GET /v1/config` serving a remote configuration document, both with fault injection.
///
///     var configuration = CollectorConfiguration()
///     configuration.plan = try CollectorPlan.load(path: "tracking.yaml")
///     let collector = try await Collector.start(configuration)
///     // ... send to collector.batchURL ...
///     #expect(collector.received.count == 3)
///     await collector.stop()
public final class Collector: Sendable {
  public let host: String
  /// The port it listens on (the one the system chose when the configuration said 0).
  public let port: Int

  private let core: CollectorCore
  private let group: MultiThreadedEventLoopGroup
  private let serverChannel: Channel
  private let connections: ConnectionTracker
  private let stopped = NIOLockedValueBox(false)

  private init(
    host: String, port: Int, core: CollectorCore, group: MultiThreadedEventLoopGroup, serverChannel: Channel, connections: ConnectionTracker
  ) {
    self.host = host
    self.port = port
    self.core = core
    self.group = group
    self.serverChannel = serverChannel
    self.connections = connections
  }

  /// Starts listening; returns once the port is bound.
  public static func start(_ configuration: CollectorConfiguration) async throws -> Collector {
    let core = try CollectorCore(configuration: configuration)
    let limits = configuration.limits
    let connections = ConnectionTracker(limit: limits.maxConnections)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads))
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      .childChannelOption(.maxMessagesPerRead, value: 16)
      .childChannelInitializer { channel in
        guard connections.add(channel) else {
          core.refusedConnection()
          return channel.eventLoop.makeFailedFuture(ConnectionTracker.TooManyConnections())
        }
        core.changes.announce()
        channel.closeFuture.whenComplete { _ in
          connections.remove(channel)
          core.changes.announce()
        }
        return channel.eventLoop.makeCompletedFuture {
          let pipeline = channel.pipeline.syncOperations
          let idle = TimeAmount.seconds(Int64(max(1, limits.idleTimeoutSeconds)))
          try pipeline.addHandler(IdleStateHandler(readTimeout: idle))
          try pipeline.configureHTTPServerPipeline(withErrorHandling: false)
          // Decompressed bodies beyond the batch limit are read on and thrown away, up to the discard
          // limit; a gzip bomb stops at that.
          try pipeline.addHandler(NIOHTTPRequestDecompressor(limit: .size(max(limits.maxBatchBytes, limits.maxDiscardedBytes))))
          try pipeline.addHandler(CollectorHTTPHandler(core: core))
        }
      }
    let channel: Channel
    do {
      channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
    } catch {
      try? await group.shutdownGracefully()
      throw CollectorError.cannotListen(host: configuration.host, port: configuration.port, reason: "\(error)")
    }
    return Collector(
      host: configuration.host, port: channel.localAddress?.port ?? configuration.port, core: core, group: group,
      serverChannel: channel, connections: connections)
  }

  /// Stops listening, lets each connection finish the answer it is writing (2 seconds at most), closes
  /// them and ends the event loop threads. Calling it again does nothing.
  public func stop() async {
    guard
      stopped.withLockedValue({ stopped in
        defer { stopped = true }
        return !stopped
      })
    else { return }
    try? await serverChannel.close()
    let open = connections.closeAll()
    for channel in open {
      channel.eventLoop.execute { channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
    }
    if !open.isEmpty {
      // Answers in flight get two seconds to finish, on top of an injected delay they may be waiting out.
      let loop = group.any()
      let grace = TimeAmount.milliseconds(Int64(2_000 + core.faultSettings.delayMilliseconds))
      let deadline = loop.scheduleTask(in: grace) { for channel in open { channel.close(promise: nil) } }
      try? await EventLoopFuture.andAllComplete(open.map(\.closeFuture), on: loop).get()
      deadline.cancel()
    }
    try? await group.shutdownGracefully()
  }

  // MARK: Where to send

  /// `http://host:port`.
  public var baseURL: URL { URL(string: "http://\(host.contains(":") ? "[\(host)]" : host):\(port)")! }
  /// `POST` batches here.
  public var batchURL: URL { baseURL.appendingPathComponent("v1/batch") }
  /// `GET` the remote configuration here.
  public var remoteConfigurationURL: URL { baseURL.appendingPathComponent("v1/config") }

  // MARK: What was received

  /// The accepted events, deduplicated, oldest first (the most recent `Limits.retainedEvents`).
  public var received: [ReceivedEvent] { core.received }
  /// The violations found, oldest first (the most recent `Limits.retainedViolations`).
  public var violations: [Violation] { core.violations }
  public var statistics: CollectorStatistics { core.statistics }
  /// Connections open now.
  public var openConnections: Int { connections.count }
  /// Requests read whole whose answer is not written yet (a delayed answer, say).
  public var answersPending: Int { core.answersPending }

  /// Forgets every event, violation, deduplication key and count (between the cases of a test).
  public func reset() { core.reset() }

  /// Changes the faults from the next request on (a collector that goes down and comes back, say); the
  /// decisions restart from the new settings' seed.
  public func setFaults(_ faults: CollectorConfiguration.Faults) throws {
    try core.setFaults(faults)
  }

  /// The faults in effect.
  public var faults: CollectorConfiguration.Faults { core.faultSettings }

  /// Replaces what `GET /v1/config` serves (nil: 404).
  public func setRemoteConfiguration(_ source: CollectorConfiguration.RemoteConfiguration?) {
    core.setRemoteConfiguration(source)
  }

  /// Reads a batch body as a collector with this configuration does (the same format checks, limits and
  /// plan), without a server: for a client's tests of what it sends.
  public static func readBatch(_ body: [UInt8], configuration: CollectorConfiguration = CollectorConfiguration()) throws(Rejection) -> [ReceivedEvent]
  {
    guard body.count <= configuration.limits.maxBatchBytes else {
      throw Rejection(
        status: 413, code: "too-large",
        message: "the body is \(body.count) bytes, over the limit of \(configuration.limits.maxBatchBytes) bytes a batch")
    }
    let decoder = BatchDecoder(maxEventBytes: configuration.limits.maxEventBytes)
    return try decoder.decode(body, checkingAgainst: configuration.plan, fillIns: CollectorCore.fillIns())
  }

  /// Waits until `condition` holds for the statistics (or for anything else the collector reports:
  /// `openConnections`, `answersPending`, `received`), asked at once and again after each change of them,
  /// never on a timer; false once `timeout` passes with it still false.
  public func waitUntil(timeout: Duration = .seconds(10), _ condition: (CollectorStatistics) -> Bool) async -> Bool {
    await core.changes.wait(timeout: timeout) { condition(statistics) }
  }
}

/// The open connections, so that `stop()` can close them, and their limit.
final class ConnectionTracker: Sendable {
  struct TooManyConnections: Error {}

  private struct State {
    var channels: [ObjectIdentifier: Channel] = [:]
    var closed = false
  }

  private let limit: Int
  private let state = NIOLockedValueBox(State())

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// False when the limit is reached, or the collector is stopping.
  func add(_ channel: Channel) -> Bool {
    state.withLockedValue { state in
      guard !state.closed, state.channels.count < limit else { return false }
      state.channels[ObjectIdentifier(channel)] = channel
      return true
    }
  }

  func remove(_ channel: Channel) {
    state.withLockedValue { _ = $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
  }

  var count: Int { state.withLockedValue { $0.channels.count } }

  /// Refuses new connections from now on; the open ones.
  func closeAll() -> [Channel] {
    state.withLockedValue { state in
      state.closed = true
      return Array(state.channels.values)
    }
  }
}
