import Foundation

/// Writes each event as one line, for development: `[firebase] CTRL_HOME_FAVORITE HomeViewController.onFavBtnPressed(_:) {source: home}`.
public final class LoggingDestination: TrackingDestination, Sendable {
  public let id: String
  private let write: @Sendable (String) -> Void

  /// - Parameter write: where lines go (standard output by default).
  public init(id: String, write: @escaping @Sendable (String) -> Void = { print($0) }) {
    self.id = id
    self.write = write
  }

  public func receive(_ event: TrackingEvent) {
    write(Self.line(for: event, destination: id))
  }

  public static func line(for event: TrackingEvent, destination: String) -> String {
    var place = event.screen ?? "-"
    switch event.source {
    case .page(let phase): place += " " + phase.rawValue
    case .control(let handler): place += "." + handler
    case .manual: break
    case .identify: place = "identify " + (event.identity.userID ?? event.identity.anonymousID)
    case .alias(let previous): place = "alias " + previous + " -> " + (event.identity.userID ?? "")
    }
    let properties = event.properties.keys.sorted().map { "\($0): \(event.properties[$0]!)" }.joined(separator: ", ")
    return "[\(destination)] \(event.id) \(place)" + (properties.isEmpty ? "" : " {\(properties)}")
  }
}
