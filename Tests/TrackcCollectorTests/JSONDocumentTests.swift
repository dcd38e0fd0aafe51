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

  // The comparison with Foundation is the `collector-request` fuzz target's too (`CollectorRequestFuzzing`).
  typealias Value = CollectorRequestFuzzing.Value

  static func foundation(_ bytes: [UInt8]) -> Any? { CollectorRequestFuzzing.foundation(bytes) }
  static func comparable(_ value: Value) -> Value { CollectorRequestFuzzing.comparable(value) }

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
      if CollectorRequestFuzzing.isKnownDifference(bytes, ours, nil, foundationAccepts: theirs != nil) { continue }
      #expect((ours != nil) == (theirs != nil), "\(String(decoding: bytes, as: UTF8.self).debugDescription) \(bytes)")
      if let ours, let theirs {
        #expect(
          Self.comparable(Value(ours, ours.root)) == Self.comparable(Value(foundation: theirs)),
          "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
      }
      agreed += 1
    }
    #expect(agreed > 4_000)
  }
}
