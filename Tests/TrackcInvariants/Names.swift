import TrackcCore

extension Invariants {
  /// The names a config writes: each line of `text` as a handler name and as a screen type name; the first
  /// line also as an event ID pattern, matched against the second.
  public static func namesViolations(_ text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var violations: [String] = []
    for line in lines {
      violations += handlerNameViolations(line)
      violations += typeNameViolations(line)
    }
    violations += eventIDPatternViolations(pattern: lines[0], id: lines.count > 1 ? lines[1] : "")
    return violations
  }

  /// A handler name's canonical spelling is a fixed point: parsing it gives the same name, and building
  /// the name again from its parts (base name and labels, or selector pieces) gives it too.
  public static func handlerNameViolations(_ text: String) -> [String] {
    guard case .success(let name) = HandlerName.parse(text) else {
      if case .failure(let error) = HandlerName.parse(text), error.message.isEmpty {
        return ["\(text.debugDescription) is rejected without a reason"]
      }
      return []
    }
    var violations: [String] = []
    let canonical = name.canonical
    if canonical.contains(" ") || canonical.contains("`") {
      violations.append("\(text.debugDescription): the canonical spelling \(canonical.debugDescription) has spaces or backticks")
    }
    switch HandlerName.parse(canonical) {
    case .success(let again) where again == name:
      break
    case .success(let again):
      violations.append(
        "\(text.debugDescription) is \(name.form) \(canonical.debugDescription), whose parse is \(again.form) \(again.canonical.debugDescription)")
    case .failure(let error):
      violations.append("\(text.debugDescription): its canonical spelling \(canonical.debugDescription) does not parse: \(error.message)")
    }
    let rebuilt: HandlerName
    switch name.form {
    case .swiftName: rebuilt = .swiftName(base: name.baseName, labels: name.labels)
    case .baseName: rebuilt = .baseName(name.baseName)
    case .selector: rebuilt = .selector(name.selectorPieces)
    }
    if rebuilt != name {
      violations.append(
        "\(text.debugDescription): built again from its parts, \(canonical.debugDescription) is \(rebuilt.canonical.debugDescription)")
    }
    return violations
  }

  /// A screen name's components, each written back (in backticks where Swift needs them), parse to the
  /// same components.
  public static func typeNameViolations(_ text: String) -> [String] {
    guard case .success(let name) = SwiftTypeName.parse(text) else { return [] }
    if name.components.isEmpty || name.components.contains(where: \.isEmpty) {
      return ["\(text.debugDescription) parses to the components \(name.components), one of them empty"]
    }
    let written = name.components.map { SwiftSource.isIdentifier($0) ? $0 : "`\($0)`" }.joined(separator: ".")
    switch SwiftTypeName.parse(written) {
    case .success(let again) where again == name:
      return []
    case .success(let again):
      return ["\(text.debugDescription) is \(name.components); written back as \(written.debugDescription), it is \(again.components)"]
    case .failure(let error):
      return ["\(text.debugDescription) is \(name.components); written back as \(written.debugDescription), it does not parse: \(error.message)"]
    }
  }

  /// A pattern compiles or is rejected with a reason, and matching it never traps or hangs (the fuzzer's
  /// time limit catches a hang); where `Regex` surely finishes, a pattern trackc accepts is one `Regex`
  /// accepts too and answers the same for the ID. The default pattern's fast path answers as `Regex` does.
  public static func eventIDPatternViolations(pattern: String, id: String) -> [String] {
    var violations: [String] = []
    let range = SourceRange(at: .start)
    switch EventIDPattern.compile(Located(pattern, at: range)) {
    case .success(let compiled):
      let answer = compiled.matches(id)
      if RegexReference.isSafe(pattern: pattern, id: id) && !RegexReference.isKnownDifference(pattern: pattern, id: id) {
        switch RegexReference.matches(id, pattern: pattern) {
        case nil:
          violations.append("\(pattern.debugDescription) compiles, but Regex refuses it")
        case let regex? where regex != answer:
          violations.append("\(pattern.debugDescription) says \(answer) for \(id.debugDescription), Regex says \(regex)")
        default:
          break
        }
      }
    case .failure(let error) where error.message.isEmpty: violations.append("\(pattern.debugDescription) is rejected without a reason")
    case .failure: break
    }
    let fast = (try? EventIDPattern.compile(nil).get())?.matches(id)
    let regex = RegexReference.matches(id, pattern: TrackingConfig.defaultEventIDPattern)
    if fast != regex {
      violations.append(
        "the default pattern's fast path says \(String(describing: fast)) for \(id.debugDescription), Regex says \(String(describing: regex))")
    }
    return violations
  }
}
