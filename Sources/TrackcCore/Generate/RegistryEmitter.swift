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
        let routing = rule.destinations.map { ".only([\($0.map(SwiftSource.stringLiteral).joined(separator: ", "))])" } ?? ".unrestricted"
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
      // Screens by the names the runtime sees.
      out.block("public func screen(named name: String) -> ScreenID?") { out in
        out.switchBlock("name") { out in
          for (index, screen) in model.screens.enumerated() {
            out.line("case \(screen.runtimeNames.map(SwiftSource.stringLiteral).joined(separator: ", ")): return ScreenID(rawValue: \(index))")
          }
          out.line("default: return nil")
        }
      }
      out.line()
      out.block("public func handler(named name: String) -> HandlerID?") { out in
        out.switchBlock("name") { out in
          for handler in model.handlers {
            out.line("case \(handler.lookupNames.map(SwiftSource.stringLiteral).joined(separator: ", ")): return Handler.\(handler.identifier)")
          }
          out.line("default: return nil")
        }
      }
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
      out.block("public func rule(eventID: String) -> EventRule?") { out in
        out.switchBlock("eventID") { out in
          for first in model.firstRule {
            out.line("case \(SwiftSource.stringLiteral(first.id)): return Rules.\(model.rules[first.rule].identifier)")
          }
          out.line("default: return nil")
        }
      }
      out.line()
      out.block("public func name(of screen: ScreenID) -> String") { out in
        out.switchBlock("screen.rawValue") { out in
          for (index, screen) in model.screens.enumerated() {
            out.line("case \(index): return \(SwiftSource.stringLiteral(screen.name))")
          }
          out.line("default: return \"\"")
        }
      }
      out.line()
      out.block("public func name(of handler: HandlerID) -> String") { out in
        out.switchBlock("handler.rawValue") { out in
          for (index, handler) in model.handlers.enumerated() {
            out.line("case \(index): return \(SwiftSource.stringLiteral(handler.name))")
          }
          out.line("default: return \"\"")
        }
      }
    }
  }
}
