/// A call shape `trackc adopt` looks for: an analytics SDK's tracking method, or a wrapper the app
/// declares. Matched on the call's base name and argument labels, as written; the receiver is matched
/// only when the pattern names one (`Analytics.track(_:properties:)` matches `Analytics.track(...)` and
/// `Analytics.shared.track(...)`, not `tracker.track(...)`).
public struct CallPattern: Sendable, Hashable {
  /// What the pattern is, in reports: `analytics-swift`, `Firebase`, or the wrapper as written.
  public var origin: String
  /// The receiver the call must be made on, as written; nil for any receiver (the SDKs' instances have
  /// names of the app's choosing: `analytics`, `amplitude`, `Mixpanel.mainInstance()`).
  public var receiver: String?
  public var baseName: String
  /// The labels of the arguments the call must have, in order (`nil` for `_`); other arguments (with a
  /// default value in the declaration) may follow or sit between them.
  public var labels: [String?]
  /// Which argument gives the event's name (an index into `labels`); nil when the pattern has a fixed name.
  public var nameArgument: Int?
  /// Which argument gives the properties (a dictionary literal), if any.
  public var propertiesArgument: Int?
  /// Arguments the wrapper sends as properties named by their labels (`source` of
  /// `Analytics.track(_:source:properties:)`), as indices into `labels`.
  public var labelledProperties: [Int] = []
  /// The event's name when every call sends the same one (`trackCheckoutTapped(total:)`): then the
  /// arguments are the properties, keyed by their labels.
  public var fixedName: String?
  /// A Segment `screen` call, not a `track` call.
  public var isScreenCall = false

  public init(
    origin: String, receiver: String?, baseName: String, labels: [String?], nameArgument: Int?, propertiesArgument: Int?,
    fixedName: String? = nil, isScreenCall: Bool = false
  ) {
    self.origin = origin
    self.receiver = receiver
    self.baseName = baseName
    self.labels = labels
    self.nameArgument = nameArgument
    self.propertiesArgument = propertiesArgument
    self.fixedName = fixedName
    self.isScreenCall = isScreenCall
  }

  /// The SDKs' tracking calls: Segment's analytics-swift (`track(name:properties:)`, `screen(title:...)`),
  /// Amplitude-Swift (`track(eventType:eventProperties:)`; `track(event: BaseEvent(...))` is read by the
  /// finder), Firebase (`Analytics.logEvent(_:parameters:)`) and Mixpanel (`track(event:properties:)`).
  public static let sdks: [CallPattern] = [
    CallPattern(origin: "analytics-swift", receiver: nil, baseName: "track", labels: ["name", "properties"], nameArgument: 0, propertiesArgument: 1),
    CallPattern(
      origin: "analytics-swift", receiver: nil, baseName: "screen", labels: ["title", "properties"], nameArgument: 0, propertiesArgument: 1,
      isScreenCall: true),
    CallPattern(
      origin: "Amplitude-Swift", receiver: nil, baseName: "track", labels: ["eventType", "eventProperties"], nameArgument: 0,
      propertiesArgument: 1),
    CallPattern(
      origin: "Firebase", receiver: "Analytics", baseName: "logEvent", labels: [nil, "parameters"], nameArgument: 0, propertiesArgument: 1),
    CallPattern(origin: "Mixpanel", receiver: nil, baseName: "track", labels: ["event", "properties"], nameArgument: 0, propertiesArgument: 1),
  ]

  /// Labels of an argument that holds a wrapper's properties, when the wrapper's spelling does not say.
  static let propertiesLabels: Set<String> = [
    "properties", "parameters", "params", "eventProperties", "withAdditionalParameters", "extras", "attributes",
  ]

  /// Reads a wrapper as the command line writes it:
  /// - `Analytics.track(_:properties:)`: the first argument names the event, the one labelled like
  ///   properties (`properties`, `parameters`, `withAdditionalParameters`, ...) holds them, and any other
  ///   labelled argument is a property of its label's name (`Analytics.track(_:source:properties:)`);
  /// - `Pixel.fire(pixel:)`: the event alone (a call may add arguments with default values);
  /// - `trackCheckoutTapped(total:)=Checkout Tapped`: every call sends that name, with its arguments as
  ///   properties keyed by their labels.
  /// A prefix before the last `.` is the receiver the call is made on.
  public static func wrapper(_ text: String) -> Result<CallPattern, WrapperSyntaxError> {
    var spelling = Substring(text)
    var fixedName: String?
    if let equals = text.firstIndex(of: "=") {
      spelling = text[..<equals]
      fixedName = String(text[text.index(after: equals)...])
      if fixedName?.isEmpty == true { return .failure(WrapperSyntaxError(text: text, reason: "the name after '=' is empty")) }
    }
    spelling = Substring(spelling.filter { $0 != " " })
    guard let open = spelling.firstIndex(of: "("), spelling.hasSuffix(")") else {
      return .failure(WrapperSyntaxError(text: text, reason: "write it as a Swift name with its labels, like 'Analytics.track(_:properties:)'"))
    }
    let callee = spelling[..<open]
    let labelText = spelling[spelling.index(after: open)..<spelling.index(before: spelling.endIndex)]
    let labels: [String?] = labelText.split(separator: ":", omittingEmptySubsequences: false).dropLast().map {
      $0 == "_" ? nil : String($0)
    }
    guard labelText.isEmpty || labelText.hasSuffix(":"),
      labels.allSatisfy({ $0.map(isIdentifier) ?? true })
    else { return .failure(WrapperSyntaxError(text: text, reason: "its labels are not Swift argument labels")) }
    let parts = callee.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard let baseName = parts.last, parts.allSatisfy(isIdentifier) else {
      return .failure(WrapperSyntaxError(text: text, reason: "'\(callee)' is not a Swift name"))
    }
    let receiver = parts.count > 1 ? parts.dropLast().joined(separator: ".") : nil
    if fixedName != nil {
      return .success(
        CallPattern(
          origin: text, receiver: receiver, baseName: baseName, labels: labels, nameArgument: nil, propertiesArgument: nil, fixedName: fixedName))
    }
    guard !labels.isEmpty else {
      return .failure(WrapperSyntaxError(text: text, reason: "give the argument that names the event, or a fixed name after '='"))
    }
    let properties = labels.indices.dropFirst().first { labels[$0].map(propertiesLabels.contains) ?? false }
    var pattern = CallPattern(origin: text, receiver: receiver, baseName: baseName, labels: labels, nameArgument: 0, propertiesArgument: properties)
    pattern.labelledProperties = labels.indices.dropFirst().filter { $0 != properties }
    guard pattern.labelledProperties.allSatisfy({ labels[$0] != nil }) else {
      return .failure(
        WrapperSyntaxError(text: text, reason: "an argument other than the event's and the properties' needs a label, its property's name"))
    }
    return .success(pattern)
  }

  private static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
    return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
  }
}

public struct WrapperSyntaxError: Error, Sendable, CustomStringConvertible {
  public var text: String
  public var reason: String
  public var description: String { "cannot read the wrapper '\(text)': \(reason)" }
}
