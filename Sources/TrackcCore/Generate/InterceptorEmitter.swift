/// A file of dynamic replacements for one feature module: each mapped handler and each lifecycle method
/// carrying page events reports to `Interception` and runs the original.
struct InterceptorEmitter {
  let module: String?
  let items: [GenerationModel.Replacement]
  let options: Generator.Options
  let header: String

  /// For the file name: the module, or `Sources` when the code gave none.
  var moduleFileStem: String { module.flatMap { SwiftSource.isTypeName($0) ? $0 : nil } ?? "Sources" }

  func emit(asPartOfRegistryFile: Bool) -> String {
    var out = SwiftWriter()
    if !asPartOfRegistryFile {
      out.line(header)
      out.line("//")
    }
    let moduleText = module.map { "module \(SwiftSource.commentText($0))" } ?? "the sources"
    out.line("// Dynamic replacements for \(moduleText):")
    out.line("// each method the config maps reports to Interception, then runs as before. That module is compiled")
    out.line("// with -Xfrontend -enable-implicit-dynamic (and -enable-testing, for release builds, when its handlers")
    out.line("// are internal); the module holding this file with -Xfrontend -enable-dynamic-replacement-chaining.")
    if !asPartOfRegistryFile {
      out.line()
      for line in imports() { out.line(line) }
    }
    var owners: [String] = []
    for item in items where !owners.contains(item.ownerReference) { owners.append(item.ownerReference) }
    for owner in owners {
      out.line()
      out.block("extension \(owner)") { out in
        for (index, item) in items.filter({ $0.ownerReference == owner }).enumerated() {
          if index > 0 { out.line() }
          replacement(item, &out)
        }
      }
    }
    return out.text
  }

  /// The feature module (`@testable` when a replaced method is internal), the modules its files import,
  /// and the runtime; sorted.
  func imports() -> [String] {
    var modules = Set<String>()
    for item in items { modules.formUnion((item.owner.imports ?? []).filter(SwiftSource.isTypeName)) }
    modules.insert(options.runtimeModule)
    var lines: [String] = []
    if let module, SwiftSource.isTypeName(module) {
      modules.remove(module)
      let testable = items.contains { $0.method.access < .public || $0.owner.access < .public }
      lines.append((testable ? "@testable import " : "import ") + module)
    }
    lines += modules.map { "import " + $0 }
    func importedModule(_ line: String) -> String { String(line.split(separator: " ").last ?? Substring(line)) }
    return lines.sorted { UTF8Order.less(importedModule($0), importedModule($1)) }
  }

  private func replacement(_ item: GenerationModel.Replacement, _ out: inout SwiftWriter) {
    let method = item.method
    let signature = method.signature ?? MethodSignature(parameters: [], returnType: nil, effects: nil)
    let base = SwiftSource.escapedIdentifier(method.baseName)
    let labels = labels(of: method.name)
    let parameters = zip(labels, signature.parameters).enumerated().map { index, pair in
      "\(argumentLabel(pair.0)) p\(index): \(pair.1.type)"
    }
    let arguments = zip(labels, signature.parameters).enumerated().map { index, pair in
      (pair.0.map { "\(argumentLabel($0)): " } ?? "") + (pair.1.isInout ? "&p\(index)" : "p\(index)")
    }
    let throwing = signature.effects.map { $0.contains("throws") } ?? false
    let tryPrefix = throwing ? "try " : ""
    var modifiers: [String] = []
    if method.attributes.contains("@MainActor") { modifiers.append("@MainActor") }
    modifiers.append("private")
    if method.attributes.contains("nonisolated") { modifiers.append("nonisolated") }
    if method.attributes.contains("mutating") { modifiers.append("mutating") }
    let effects = signature.effects.map { " " + $0 } ?? ""
    let result = signature.returnType.map { " -> " + $0 } ?? ""

    out.line("@_dynamicReplacement(for: \(base)(\(labels.map { ($0 ?? "_") + ":" }.joined())))")
    out.block("\(modifiers.joined(separator: " ")) func __trackc_\(method.baseName)(\(parameters.joined(separator: ", ")))\(effects)\(result)") { out in
      // Scopes, then the original called directly: a call from inside a closure would reach this
      // replacement again.
      var scopes: [String] = []
      for phase in item.phases {
        scopes.append("let \(phase.rawValue) = Interception.beginPage(self, .\(phase.rawValue))")
      }
      if let identifier = item.handlerIdentifier {
        scopes.append("let call = Interception.beginControl(self, \(options.name).Handler.\(identifier))")
      }
      for scope in scopes {
        out.line(scope)
        out.line("defer { \(scope.dropFirst(4).prefix { $0 != " " }).end() }")
      }
      out.line((signature.returnType != nil ? "return " : "") + "\(tryPrefix)\(base)(\(arguments.joined(separator: ", ")))")
    }
  }

  /// The argument labels of a Swift full name: `open(item:at:)` → `["item", "at"]`, `_` → nil.
  private func labels(of name: String) -> [String?] {
    guard let open = name.firstIndex(of: "(") else { return [] }
    return name[name.index(after: open)...].dropLast().split(separator: ":", omittingEmptySubsequences: false).dropLast().map {
      $0 == "_" ? nil : String($0)
    }
  }

  /// Labels that would read as keywords in a parameter list need backticks.
  private func argumentLabel(_ label: String?) -> String {
    guard let label else { return "_" }
    return ["inout", "var", "let"].contains(label) ? "`\(label)`" : label
  }
}
