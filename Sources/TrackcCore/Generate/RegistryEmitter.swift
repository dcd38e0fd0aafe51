/// The registry file: event IDs, handler IDs, rules, and the `TrackingRegistry` conformance.
struct RegistryEmitter {
  let model: GenerationModel
  let options: Generator.Options
  let header: String

  func emit() -> String {
    var out = SwiftWriter()
    out.line(header)
    out.line()
    out.line("import \(options.runtimeModule)")
    out.line()
    out.line("/// The events of \(SwiftSource.commentText(options.configFileName)), and the rules the tracker reads.")
    out.block("public enum \(options.name)") { out in
      out.line("/// The registry to give `Tracker`.")
      out.line("public static let registry = Registry()")
      out.line()
      eventIDs(&out)
      out.line()
      handlers(&out)
      out.line()
      rules(&out)
      out.line()
      registry(&out)
    }
    return out.text
  }

  private func eventIDs(_ out: inout SwiftWriter) {
    out.line("/// Every event ID of the config, for code that tracks by hand.")
    if model.eventIDs.isEmpty {
      out.line("public enum EventID: String, TrackingEventID, CaseIterable {}")
      return
    }
    out.block("public enum EventID: String, TrackingEventID, CaseIterable") { out in
      for event in model.eventIDs {
        out.line("case \(event.identifier) = \(SwiftSource.stringLiteral(event.id))")
      }
    }
  }

  private func handlers(_ out: inout SwiftWriter) {
    out.line("/// The handlers the config maps, numbered (the generated interceptors pass these).")
    if model.handlers.isEmpty {
      out.line("public enum Handler {}")
      return
    }
    out.block("public enum Handler") { out in
      for (index, handler) in model.handlers.enumerated() {
        out.line("/// \(SwiftSource.commentText(handler.name))")
        out.line("public static let \(handler.identifier) = HandlerID(rawValue: \(index))")
      }
    }
  }

  private func rules(_ out: inout SwiftWriter) {
    out.line("/// One rule per mapping, with its routing resolved.")
    if model.rules.isEmpty {
      out.line("enum Rules {}")
      return
    }
    out.block("enum Rules") { out in
      for rule in model.rules {
        let routing: String
        switch rule.routing {
        case .unrestricted: routing = ".unrestricted"
        case .only(let destinations): routing = ".only([\(destinations.map(SwiftSource.stringLiteral).joined(separator: ", "))])"
        }
        let properties = rule.properties.isEmpty
          ? "[:]" : "[" + rule.properties.map { "\(SwiftSource.stringLiteral($0.key)): \(literal($0.value))" }.joined(separator: ", ") + "]"
        out.line(
          "static let \(rule.identifier) = EventRule(eventID: \(SwiftSource.stringLiteral(rule.eventID)), routing: \(routing), properties: \(properties))")
      }
    }
  }

  private func literal(_ value: PropertyValue) -> String {
    switch value {
    case .string(let string): return ".string(\(SwiftSource.stringLiteral(string)))"
    case .int(let int): return ".int(\(int))"
    case .double(let double): return ".double(\(double.description))"
    case .bool(let bool): return ".bool(\(bool))"
    }
  }

  private func registry(_ out: inout SwiftWriter) {
    out.block("public struct Registry: TrackingRegistry") { out in
      out.line("public init() {}")
      out.line()
      // Screens and handlers by the names the runtime sees.
      lookup(
        "public func screen(named name: String) -> ScreenID?", on: "name",
        model.screens.enumerated().map { (patterns: $0.element.runtimeNames.map(SwiftSource.stringLiteral), value: "ScreenID(rawValue: \($0.offset))") },
        otherwise: "nil", &out)
      out.line()
      lookup(
        "public func handler(named name: String) -> HandlerID?", on: "name",
        model.handlers.map { (patterns: $0.lookupNames.map(SwiftSource.stringLiteral), value: "Handler.\($0.identifier)") },
        otherwise: "nil", &out)
      out.line()
      out.block("public func pageRule(screen: ScreenID, phase: PagePhase) -> EventRule?") { out in
        out.switchBlock("screen.rawValue") { out in
          for (index, screen) in model.screens.enumerated() where !screen.pageRules.isEmpty {
            out.line("case \(index):")
            out.indented { out in
              if screen.pageRules.count == TrackingConfig.PagePhase.allCases.count {
                out.switchBlock("phase") { out in
                  for page in screen.pageRules {
                    out.line("case .\(page.phase.rawValue): return Rules.\(model.rules[page.rule].identifier)")
                  }
                }
              } else {
                let page = screen.pageRules[0]
                out.line("return phase == .\(page.phase.rawValue) ? Rules.\(model.rules[page.rule].identifier) : nil")
              }
            }
          }
          out.line("default: return nil")
        }
      }
      out.line()
      out.block("public func controlRule(screen: ScreenID, handler: HandlerID) -> EventRule?") { out in
        out.switchBlock("screen.rawValue") { out in
          for (index, screen) in model.screens.enumerated() where !screen.controlRules.isEmpty {
            out.line("case \(index):")
            out.indented { out in
              out.switchBlock("handler.rawValue") { out in
                for control in screen.controlRules {
                  out.line("case \(control.handler): return Rules.\(model.rules[control.rule].identifier)")
                }
                out.line("default: return nil")
              }
            }
          }
          out.line("default: return nil")
        }
      }
      out.line()
      lookup(
        "public func rule(eventID: String) -> EventRule?", on: "eventID",
        model.firstRule.map { (patterns: [SwiftSource.stringLiteral($0.id)], value: "Rules.\(model.rules[$0.rule].identifier)") },
        otherwise: "nil", &out)
      out.line()
      lookup(
        "public func name(of screen: ScreenID) -> String", on: "screen.rawValue",
        model.screens.enumerated().map { (patterns: ["\($0.offset)"], value: SwiftSource.stringLiteral($0.element.name)) },
        otherwise: "\"\"", &out)
      out.line()
      lookup(
        "public func name(of handler: HandlerID) -> String", on: "handler.rawValue",
        model.handlers.enumerated().map { (patterns: ["\($0.offset)"], value: SwiftSource.stringLiteral($0.element.name)) },
        otherwise: "\"\"", &out)
    }
  }

  /// A function that is one `switch`: each case returns its value.
  private func lookup(
    _ signature: String, on subject: String, _ cases: [(patterns: [String], value: String)], otherwise: String, _ out: inout SwiftWriter
  ) {
    out.block(signature) { out in
      out.switchBlock(subject) { out in
        for entry in cases where !entry.patterns.isEmpty {
          out.line("case \(entry.patterns.joined(separator: ", ")): return \(entry.value)")
        }
        out.line("default: return \(otherwise)")
      }
    }
  }
}
