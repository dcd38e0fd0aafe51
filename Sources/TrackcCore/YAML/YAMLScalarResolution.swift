/// Scalar resolution under the YAML 1.2 core schema, the schema trackc configs are read with.
///
/// YAML 1.1's wider booleans (`yes`, `on`, `n`) are deliberately strings here: a handler named `on`
/// or a property value `no` must not turn into a boolean behind the user's back.
extension YAMLScalar {
  public func resolved(tag: String?) -> YAMLValue {
    switch tag {
    case YAMLTag.string?, YAMLTag.nonSpecific?:
      return .string(text)
    case YAMLTag.int?:
      return Self.integer(text).map(YAMLValue.int) ?? .string(text)
    case YAMLTag.float?:
      return Self.float(text).map(YAMLValue.float) ?? Self.integer(text).map { .float(Double($0)) } ?? .string(text)
    case YAMLTag.bool?:
      return Self.boolean(text).map(YAMLValue.bool) ?? .string(text)
    case YAMLTag.null?:
      return Self.isNull(text) ? .null : .string(text)
    default:
      break
    }
    guard style == .plain else { return .string(text) }
    if Self.isNull(text) { return .null }
    if let bool = Self.boolean(text) { return .bool(bool) }
    guard let first = text.utf8.first, Self.mayStartNumber(first) else { return .string(text) }
    if let int = Self.integer(text) { return .int(int) }
    if let float = Self.float(text) { return .float(float) }
    return .string(text)
  }

  /// Whether the text is a well-formed value for an explicit tag (`!!int 12` yes, `!!int twelve` no).
  static func conforms(_ text: String, toTag tag: String) -> Bool {
    switch tag {
    case YAMLTag.int: return integer(text) != nil
    case YAMLTag.float: return float(text) != nil || integer(text) != nil
    case YAMLTag.bool: return boolean(text) != nil
    case YAMLTag.null: return isNull(text)
    default: return true
    }
  }

  /// Whether a plain scalar starting with this byte can resolve to anything but a string: null (`~`, `n`,
  /// `N`, empty), a boolean (`t`, `T`, `f`, `F`) or a number (digit, sign, `.`).
  static func mayResolve(_ first: UInt8) -> Bool {
    switch first {
    case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
      UInt8(ascii: "f"), UInt8(ascii: "F"):
      return true
    default:
      return mayStartNumber(first)
    }
  }

  private static func mayStartNumber(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
  }

  static func isNull(_ text: String) -> Bool {
    switch text {
    case "", "~", "null", "Null", "NULL": return true
    default: return false
    }
  }

  static func boolean(_ text: String) -> Bool? {
    switch text {
    case "true", "True", "TRUE": return true
    case "false", "False", "FALSE": return false
    default: return nil
    }
  }

  /// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`; nil when malformed or out of range.
  static func integer(_ text: String) -> Int? {
    var utf8 = Substring(text).utf8
    if utf8.starts(with: "0o".utf8) {
      utf8 = utf8.dropFirst(2)
      return utf8.isEmpty ? nil : Int(Substring(utf8), radix: 8)
    }
    if utf8.starts(with: "0x".utf8) {
      utf8 = utf8.dropFirst(2)
      return utf8.isEmpty ? nil : Int(Substring(utf8), radix: 16)
    }
    var digits = utf8
    if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      return nil
    }
    return Int(text)
  }

  /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?.inf`, `.nan`.
  static func float(_ text: String) -> Double? {
    switch text {
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
    case "-.inf", "-.Inf", "-.INF": return -.infinity
    case ".nan", ".NaN", ".NAN": return .nan
    default: break
    }
    var bytes = Substring(text).utf8[...]
    if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    let integerDigits = bytes.prefix(while: isDigit).count
    bytes = bytes.dropFirst(integerDigits)
    var fractionDigits = 0
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      fractionDigits = bytes.prefix(while: isDigit).count
      bytes = bytes.dropFirst(fractionDigits)
    }
    guard integerDigits > 0 || fractionDigits > 0 else { return nil }
    if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
      let exponentDigits = bytes.prefix(while: isDigit).count
      guard exponentDigits > 0 else { return nil }
      bytes = bytes.dropFirst(exponentDigits)
    }
    guard bytes.isEmpty else { return nil }
    return Double(text)
  }
}
