import Foundation
import Testing
import TrackcCore
import TrackcTestSupport

/// `trackc export`: JSON Schemas that Python's jsonschema accepts as draft 2020-12 and that accept the
/// plan's events and reject others; CSV by RFC 4180 with the formula guard; both deterministic.
@Suite struct PlanExportTests {
  static let config = """
    version: 1
    destinations: {firebase: {}, mixpanel: {}}
    screens:
      Home:
        page_events: {enter: HOME_ENTER}
        control_events:
          onFav(_:): {event: HOME_FAV, destinations: [firebase], properties: {source: home, position: 2, ratio: 0.5, promoted: true}}
          onShare(_:): {event: SHARE, properties: {source: home}}
      Cart:
        control_events:
          onShare(_:): {event: SHARE, properties: {source: cart}}
          onNote(_:): {event: "=HYPERLINK(\\"http://x\\")", properties: {note: "a, \\"quoted\\"\\nline", sum: "+1"}}
    """

  func outline(_ text: String = config) throws -> PlanOutline {
    try #require(PlanOutline(Linter.lint(ConfigSource(path: "tracking.yaml", text: text))))
  }

  @Test func oneSchemaPerEventID() throws {
    let files = PlanExport.jsonSchemas(try outline())
    #expect(
      files.map(\.name) == [
        "%3DHYPERLINK%28%22http%3A%2F%2Fx%22%29.schema.json", "HOME_ENTER.schema.json", "HOME_FAV.schema.json", "SHARE.schema.json",
      ])
    let fav = try JSONSerialization.jsonObject(with: Data(files[2].contents.utf8)) as! [String: Any]
    #expect(fav["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    #expect(fav["title"] as? String == "HOME_FAV")
    #expect(fav["additionalProperties"] as? Bool == false)
    #expect(fav["required"] as? [String] == ["position", "promoted", "ratio", "source"])
    let properties = try #require(fav["properties"] as? [String: [String: Any]])
    #expect(properties["position"]?["type"] as? String == "integer")
    #expect(properties["ratio"]?["type"] as? String == "number")
    #expect(properties["promoted"]?["type"] as? String == "boolean")
    #expect(properties["source"]?["const"] as? String == "home")
    // An ID mapped from two places with different properties accepts either.
    let share = try JSONSerialization.jsonObject(with: Data(files[3].contents.utf8)) as! [String: Any]
    #expect((share["anyOf"] as? [Any])?.count == 2)
    let open = PlanExport.jsonSchemas(try outline(), options: .init(allowAdditionalProperties: true, idBase: "https://example.com/s/"))
    #expect(open[1].contents.contains("\"additionalProperties\" : true"))
    #expect(open[1].contents.contains("\"$id\" : \"https://example.com/s/HOME_ENTER.schema.json\""))
  }

  /// File names are safe (no path separators, no leading dot) and never collide, even without case.
  @Test func schemaFileNamesAreSafeAndDistinct() throws {
    let text = """
      version: 1
      conventions: {event_id_pattern: '.*'}
      screens:
        A: {control_events: {a(): ../../etc/passwd, b(): home, c(): HOME, d(): .hidden, e(): "a/b"}}
      """
    let names = PlanExport.jsonSchemas(try outline(text)).map(\.name)
    #expect(names.count == 5)
    #expect(Set(names.map { $0.lowercased() }).count == 5)
    #expect(names.allSatisfy { !$0.contains("/") && !$0.hasPrefix(".") && $0.hasSuffix(".schema.json") })
  }

  @Test(.requires(.jsonSchema)) func schemasValidateWithPythonJSONSchema() throws {
    let scratch = try ScratchDirectory("schemas")
    defer { scratch.remove() }
    var schemas: [String: String] = [:]
    for file in PlanExport.jsonSchemas(try outline()) {
      schemas[file.name] = try scratch.write(file.name, file.contents)
    }
    let events: [[String: Any]] = [
      ["schema": "HOME_FAV.schema.json", "properties": ["source": "home", "position": 2, "ratio": 0.5, "promoted": true]],  // valid
      ["schema": "HOME_FAV.schema.json", "properties": ["source": "home", "position": "2", "ratio": 0.5, "promoted": true]],  // retyped
      ["schema": "HOME_FAV.schema.json", "properties": ["source": "home", "position": 2, "ratio": 0.5]],  // missing
      ["schema": "HOME_FAV.schema.json", "properties": ["source": "home", "position": 2, "ratio": 0.5, "promoted": true, "x": 1]],  // extra
      ["schema": "HOME_FAV.schema.json", "properties": ["source": "feed", "position": 2, "ratio": 0.5, "promoted": true]],  // other value
      ["schema": "HOME_ENTER.schema.json", "properties": [:]],  // valid
      ["schema": "SHARE.schema.json", "properties": ["source": "cart"]],  // valid (second variant)
      ["schema": "SHARE.schema.json", "properties": ["source": "checkout"]],  // neither variant
    ]
    let cases = try JSONSerialization.data(withJSONObject: ["schemas": schemas, "events": events])
    let casesPath = try scratch.write("cases.json", bytes: Array(cases))
    let output = try PythonEnvironment.run(
      PythonPackages.jsonSchema, [Fixtures.repositoryRoot.appendingPathComponent("Tests/Schema/validate_events.py").path, casesPath])
    try #require(output.status == 0, "validate_events.py failed: \(output.standardError)")
    let report = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as! [String: Any]
    let schemaErrors = try #require(report["schemaErrors"] as? [String: [String]])
    #expect(schemaErrors.count == 4 && schemaErrors.values.allSatisfy(\.isEmpty), "\(schemaErrors)")
    #expect(report["valid"] as? [Bool] == [true, false, false, false, false, true, true, false])
  }

  @Test func csvQuotesAndGuardsFormulas() throws {
    let csv = PlanExport.csv(try outline())
    let rows = csv.components(separatedBy: "\r\n")
    #expect(rows[0] == "screen,trigger_kind,trigger,event_id,destinations,properties,config_line,swift_declaration,call,wire_name")
    #expect(rows[1] == "Home,page,enter,HOME_ENTER,\"firebase, mixpanel\",,5,,screen,Home")
    #expect(
      rows[2] == #"Home,control,onFav(_:),HOME_FAV,firebase,"{""source"":""home"",""position"":2,""ratio"":0.5,""promoted"":true}",7,,track,HOME_FAV"#
    )
    // A formula is defused with a leading apostrophe, then quoted as RFC 4180 requires.
    #expect(
      rows[5].hasPrefix(
        #"Cart,control,onNote(_:),"'=HYPERLINK(""http://x"")","firebase, mixpanel","{""note"":""a, \""quoted\""\nline"",""sum"":""+1""}""#))
    #expect(rows[5].hasSuffix(#",track,"'=HYPERLINK(""http://x"")""#), "the wire name is defused too")
    #expect(csv.hasSuffix("\r\n") && rows.count == 7)
  }

  @Test func csvCells() {
    #expect(PlanExport.csvCell("plain") == "plain")
    #expect(PlanExport.csvCell("a,b") == "\"a,b\"")
    #expect(PlanExport.csvCell("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(PlanExport.csvCell("two\nlines") == "\"two\nlines\"")
    for dangerous in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
      #expect(PlanExport.csvCell(dangerous).hasPrefix("'") || PlanExport.csvCell(dangerous).hasPrefix("\"'"), "\(dangerous)")
    }
    #expect(PlanExport.csvCell("a=1") == "a=1")
  }
}
