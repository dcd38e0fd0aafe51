/// Punycode (RFC 3492), for writing an internationalised host in the ASCII form links carry
/// (`bücher.example` is `xn--bcher-kva.example`): what `link-origin` suggests for a host written in
/// Unicode. Lower-casing stands in for IDNA's full mapping, which is enough for a suggestion.
enum Punycode {
  /// The host with each non-ASCII label encoded; nil when a label cannot be (it overflows).
  static func asciiHost(_ host: String) -> String? {
    var labels: [String] = []
    for label in host.lowercased().split(separator: ".", omittingEmptySubsequences: false) {
      if label.unicodeScalars.allSatisfy(\.isASCII) {
        labels.append(String(label))
      } else {
        guard let encoded = encode(Array(label.unicodeScalars)) else { return nil }
        labels.append("xn--" + encoded)
      }
    }
    return labels.joined(separator: ".")
  }

  private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

  static func encode(_ input: [Unicode.Scalar]) -> String? {
    var output = String(String.UnicodeScalarView(input.filter(\.isASCII)))
    let basicCount = output.unicodeScalars.count
    var handled = basicCount
    if basicCount > 0 { output += "-" }
    var n = initialN
    var delta = 0
    var bias = initialBias
    while handled < input.count {
      guard let m = input.map({ Int($0.value) }).filter({ $0 >= n }).min() else { return nil }
      let (product, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
      guard !overflow, delta <= Int(Int32.max) - product else { return nil }
      delta += product
      n = m
      for scalar in input {
        let value = Int(scalar.value)
        if value < n { delta += 1 }
        if value == n {
          var q = delta
          var k = base
          while true {
            let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
            if q < t { break }
            output.unicodeScalars.append(digit(t + (q - t) % (base - t)))
            q = (q - t) / (base - t)
            k += base
          }
          output.unicodeScalars.append(digit(q))
          bias = adapt(delta, handled + 1, handled == basicCount)
          delta = 0
          handled += 1
        }
      }
      delta += 1
      n += 1
    }
    return output
  }

  private static func digit(_ value: Int) -> Unicode.Scalar {
    Unicode.Scalar(UInt8(value < 26 ? value + 97 : value + 22))
  }

  private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
    var delta = first ? delta / damp : delta / 2
    delta += delta / count
    var k = 0
    while delta > ((base - tMin) * tMax) / 2 {
      delta /= base - tMin
      k += base
    }
    return k + (base - tMin + 1) * delta / (delta + skew)
  }
}
