import Foundation
import Testing

@testable import TrackcCollector

/// The collector's JSON reader agrees with Foundation's `JSONSerialization` on what is JSON and what it
/// means: on a corpus of valid and invalid texts, and on thousands of random mutations of valid ones.
@Suite struct JSONDocumentTests {
  static let valid: [String] = [
    "{}", "[]", "0", "-0", "1", "-1", "12.5", "1e3", "1E+3", "1e-3", "-0.0e0", "123456789012345678", "1.7976931348623157e308",
    "true", "false", "null", #""""#, #""a""#, #""é 漢 🙂""#, #""\u00e9\u6f22\ud83d\ude42""#, #""\"\\\/\b\f\n\r\t""#,
    " \t\r\n{ \"a\" : [ 1 , 2 , { \"b\" : null } ] } \n",
    #"{"batch":[{"type":"track","event":"E","properties":{"a":1,"b":"x","c":true,"d":null,"e":[1],"f":{}}}],"sentAt":"2026"}"#,
    #"{"a":{"a":{"a":{"a":[[[[[]]]]]}}}}"#, #"{"":""}"#, #"{"a":1,"a":2}"#, #"["\u0000"]"#,
  ]

  static let invalid: [String] = [
    "", " ", "{", "}", "[", "]", "[1,]", "[,1]", "{,}", #"{"a":1,}"#, #"{"a"}"#, #"{"a":}"#, #"{a:1}"#, "{'a':1}", "[1 2]",
    "01", "-", "+1", "1.", ".5", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity", "tru", "nul", "True", "[true false]",
    #""abc"#, #""\x""#, #""\u12""#, #""\u12G4""#, "\"\t\"", "\"\n\"", "\"\u{01}\"", "[1]]", "{}{}", "1 2", "/* c */ 1",
    #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#,
  ]

  /// Invalid UTF-8 inside a string, byte by byte.
  static let invalidUTF8: [[UInt8]] = [
    [0x22, 0xC3, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xE0, 0x80, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
    [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xFF, 0x22], [0x22, 0x80, 0x22], [0x22, 0xF0, 0x9F, 0x98, 0x22],
  ]

  static func foundation(_ bytes: [UInt8]) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
  }

  /// A value in one canonical form, to compare the two readers' results.
  indirect enum Value: Equatable {
    case object([String: Value])
    case array([Value])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(_ document: JSONDocument, _ node: Int) {
      switch document[node].kind {
      case .object:
        var members: [String: Value] = [:]
        for (key, value) in document.members(of: node) { members[document.string(key)] = Value(document, value) }
        self = .object(members)
      case .array: self = .array(document.elements(of: node).map { Value(document, $0) })
      case .string: self = .string(document.string(node))
      case .number: self = .number(document.number(node))
      case .true: self = .bool(true)
      case .false: self = .bool(false)
      case .null: self = .null
      }
    }

    init(foundation value: Any) {
      switch value {
      case let dictionary as [String: Any]: self = .object(dictionary.mapValues { Value(foundation: $0) })
      case let array as [Any]: self = .array(array.map { Value(foundation: $0) })
      case let string as String: self = .string(string)
      case is NSNull: self = .null
      case let number as NSNumber:
        // Foundation keeps booleans as NSNumber too; its type tells them apart.
        if String(cString: number.objCType) == "c" {
          self = .bool(number.boolValue)
        } else {
          self = .number(number.doubleValue)
        }
      default: self = .null
      }
    }
  }

  @Test(arguments: valid)
  func validTextsAreReadAsFoundationReadsThem(_ text: String) throws {
    let bytes = Array(text.utf8)
    let document = try JSONDocument(bytes)
    let theirs = try #require(Self.foundation(bytes), "Foundation rejects \(text)")
    #expect(Self.comparable(Value(document, document.root)) == Self.comparable(Value(foundation: theirs)), "\(text)")
  }

  @Test(arguments: invalid)
  func invalidTextsAreRefused(_ text: String) {
    #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONDocument(Array(text.utf8)) }
  }

  @Test func invalidUTF8IsRefusedAsSuch() {
    for bytes in Self.invalidUTF8 {
      #expect(throws: JSONSyntaxError.self) { try JSONDocument(bytes) }
      do {
        _ = try JSONDocument(bytes)
      } catch {
        #expect(error.reason == JSONSyntaxError.invalidUTF8, "\(bytes)")
      }
    }
  }

  @Test func nestingIsBounded() throws {
    let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    #expect(throws: JSONSyntaxError.self) { try JSONDocument(Array(deep.utf8)) }
    let allowed = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(try JSONDocument(Array(allowed.utf8)).nodes.count == 64)
    let hostile = String(repeating: "{\"a\":", count: 200_000)
    #expect(throws: JSONSyntaxError.self) { try JSONDocument(Array(hostile.utf8)) }
  }

  @Test func compactTextRemovesOnlyWhitespaceOutsideStrings() throws {
    let value = #"{ "a b" : [ 1 , "c \" d" ] }"#
    let document = try JSONDocument(Array(" \(value)\n".utf8))
    #expect(document.compactText(document.root) == #"{"a b":[1,"c \" d"]}"#)
    #expect(document.byteCount(document.root) == value.utf8.count)
  }

  /// Random mutations (a byte replaced, inserted or removed) of valid texts: both readers agree on
  /// whether each is JSON, and on its value when it is. Foundation's known leniencies are excluded.
  @Test func randomMutationsAgreeWithFoundation() throws {
    var generator = SeededGenerator(seed: 2026)
    let seeds = Self.valid.filter { $0.utf8.count > 2 }.map { Array($0.utf8) }
    let alphabet = Array(#"{}[]:,"\ -+.0123456789eEtrufalsn/bu"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xED, 0xA0, 0x80, 0xFF]
    var agreed = 0
    for _ in 0..<5_000 {
      var bytes = seeds[Int(generator.next() % UInt64(seeds.count))]
      for _ in 0..<(1 + generator.next() % 3) {
        let position = Int(generator.next() % UInt64(bytes.count + 1))
        let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
        switch generator.next() % 3 {
        case 0 where position < bytes.count: bytes[position] = byte
        case 1: bytes.insert(byte, at: position)
        default: if position < bytes.count { bytes.remove(at: position) }
        }
      }
      let ours = try? JSONDocument(bytes)
      let theirs = Self.foundation(bytes)
      if Self.isKnownDifference(bytes, ours, foundationAccepts: theirs != nil) { continue }
      #expect((ours != nil) == (theirs != nil), "\(String(decoding: bytes, as: UTF8.self).debugDescription) \(bytes)")
      if let ours, let theirs {
        #expect(Self.comparable(Value(ours, ours.root)) == Self.comparable(Value(foundation: theirs)), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
      }
      agreed += 1
    }
    #expect(agreed > 4_000)
  }

  /// Where the readers differ on purpose. Foundation refuses numbers beyond Double's range, which RFC
  /// 8259 allows (the collector reads them as "not a finite number"); and Foundation stops reading at
  /// a NUL byte, taking "1\0garbage" for 1.
  static func isKnownDifference(_ bytes: [UInt8], _ ours: JSONDocument?, foundationAccepts: Bool) -> Bool {
    guard let ours else { return foundationAccepts && bytes.contains(0) }
    return ours.nodes.indices.contains { ours[$0].kind == .number && !ours.number($0).isFinite }
  }

  /// Numbers rounded to 14 significant digits: Foundation's reader is not correctly rounded
  /// (1234.5678901234564 for 1234.567890123457), this one is (it uses strtod).
  static func comparable(_ value: Value) -> Value {
    switch value {
    case .object(let members): return .object(members.mapValues(comparable))
    case .array(let elements): return .array(elements.map(comparable))
    case .number(let number) where number != 0:
      let scale = pow(10, 13 - floor(log10(abs(number))))
      return .number((number * scale).rounded() / scale)
    default: return value
    }
  }
}
