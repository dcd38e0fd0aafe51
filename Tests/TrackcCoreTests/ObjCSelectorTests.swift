import Testing

@testable import TrackcCore

/// Selectors as the Swift compiler derives them for `@objc` methods, and the scanner's use of them.
@Suite struct ObjCSelectorTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var declaration: String
    var selector: String
    var testDescription: String { declaration }
  }

  /// Each declaration, marked `@objc`, and the selector the compiler gives it (the rules of
  /// `AbstractFunctionDecl::getObjCSelector` in the Swift compiler; Linux has no Objective-C runtime to
  /// ask, so the table is the reference).
  static let cases: [Case] = [
    Case(declaration: "func refresh()", selector: "refresh"),
    Case(declaration: "func onFavBtnPressed(_ sender: Any)", selector: "onFavBtnPressed:"),
    Case(declaration: "func f(with x: Int)", selector: "fWith:"),
    Case(declaration: "func open(item: Int, at index: Int)", selector: "openWithItem:at:"),
    Case(declaration: "func move(to point: Int)", selector: "moveTo:"),
    Case(declaration: "func load(from url: String, using session: Int)", selector: "loadFrom:using:"),
    Case(declaration: "func scrollTo(row: Int)", selector: "scrollToRow:"),
    Case(declaration: "func add(_ a: Int, _ b: Int)", selector: "add::"),
    Case(declaration: "func insert(_ item: Int, at index: Int)", selector: "insert:at:"),
    Case(declaration: "func tableView(_ tableView: Int, didSelectRowAt indexPath: Int)", selector: "tableView:didSelectRowAt:"),
    Case(declaration: "func handle(url: String)", selector: "handleWithUrl:"),
    Case(declaration: "func handle(URL: String)", selector: "handleWithURL:"),
    Case(declaration: "func save() throws", selector: "saveAndReturnError:"),
    Case(declaration: "func save(to path: String) throws", selector: "saveTo:error:"),
    Case(declaration: "func fetch() async", selector: "fetchWithCompletionHandler:"),
    Case(declaration: "func fetch(id: Int) async throws", selector: "fetchWithId:completionHandler:"),
    Case(declaration: "@objc(openProductWithID:) func openProduct(id: String)", selector: "openProductWithID:"),
    Case(declaration: "@objc(reload) func reloadEverything()", selector: "reload"),
  ]

  @Test(arguments: cases)
  func selectorOfAnObjCMethod(_ testCase: Case) throws {
    let declaration = testCase.declaration.hasPrefix("@objc") ? testCase.declaration : "@objc " + testCase.declaration
    let source = "import Foundation\nclass Screen: NSObject {\n  \(declaration) {}\n}\n"
    let result = SourceScanner.scan(.files([("Sources/App/Screen.swift", source)]), options: ScanOptions(useCache: false))
    let type = try #require(result.registry.types.first { $0.name == "Screen" })
    let method = try #require(type.methods.first)
    #expect(method.objcSelector == testCase.selector)
    #expect(result.diagnostics.isEmpty)
  }

  @Test func derivedSelectorWithoutObjC() throws {
    let source = "struct Model {\n  func open(item: Int, at index: Int) {}\n}\n"
    let result = SourceScanner.scan(.files([("Sources/App/Model.swift", source)]), options: ScanOptions(useCache: false))
    let method = try #require(result.registry.types.first?.methods.first)
    #expect(method.objcSelector == nil)
    #expect(method.derivedSelector == "openWithItem:at:")
  }

  @Test func camelCaseWords() {
    #expect(CamelCase.firstWord(of: "URLHandler") == "URL")
    #expect(CamelCase.firstWord(of: "withValue") == "with")
    #expect(CamelCase.firstWord(of: "Handler") == "Handler")
    #expect(CamelCase.lastWord(of: "scrollTo") == "To")
    #expect(CamelCase.lastWord(of: "open") == "open")
    #expect(CamelCase.capitalizingFirst("éclair") == "Éclair")
  }
}
