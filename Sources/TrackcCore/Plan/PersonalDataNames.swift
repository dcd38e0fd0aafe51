/// Which names look like personal data: a property key, a binding's path or a Swift type name, split
/// into words (`emailAddress`, `email_address`, `CLLocationCoordinate2D`) and matched against word
/// sequences people use for Apple's data types. A guess for a warning, never a classification: the
/// plan's `data:` decides.
enum PersonalDataNames {
  /// The data type a name most likely holds, or nil when none of its words suggests one.
  static func guess(_ name: String) -> PersonalDataType? {
    let words = self.words(name)
    guard !words.isEmpty else { return nil }
    for (sequence, type) in patterns where contains(words, sequence) {
      // `email_address`, `ip_address`, `web_address`: an address that is not a place.
      if type == .physicalAddress, sequence == ["address"],
        words.contains(where: { ["email", "mail", "ip", "mac", "web", "url", "wallet", "bluetooth"].contains($0) })
      {
        continue
      }
      return type
    }
    return nil
  }

  /// Word sequences, the first match wins: specific before general (`email address` before `address`).
  private static let patterns: [([String], PersonalDataType)] = [
    (["email"], .emailAddress), (["e", "mail"], .emailAddress),
    (["phone"], .phoneNumber), (["telephone"], .phoneNumber), (["msisdn"], .phoneNumber), (["mobile", "number"], .phoneNumber),
    (["idfa"], .deviceID), (["idfv"], .deviceID), (["gaid"], .deviceID), (["udid"], .deviceID),
    (["advertising", "identifier"], .deviceID), (["advertising", "id"], .deviceID), (["ad", "id"], .deviceID),
    (["device", "id"], .deviceID), (["device", "identifier"], .deviceID), (["vendor", "id"], .deviceID),
    (["identifier", "for", "vendor"], .deviceID), (["identifier", "for", "advertising"], .deviceID),
    (["user", "id"], .userID), (["userid"], .userID), (["account", "id"], .userID), (["customer", "id"], .userID),
    (["member", "id"], .userID), (["username"], .userID), (["user", "name"], .userID),
    (["first", "name"], .name), (["last", "name"], .name), (["full", "name"], .name), (["given", "name"], .name),
    (["family", "name"], .name), (["middle", "name"], .name), (["surname"], .name), (["person", "name"], .name),
    (["latitude"], .preciseLocation), (["longitude"], .preciseLocation), (["lat"], .preciseLocation), (["lng"], .preciseLocation),
    (["lon"], .preciseLocation), (["coordinate"], .preciseLocation), (["coordinates"], .preciseLocation),
    (["geolocation"], .preciseLocation), (["location", "degrees"], .preciseLocation), (["cl", "location"], .preciseLocation),
    (["ip"], .coarseLocation),
    (["street"], .physicalAddress), (["postal", "code"], .physicalAddress), (["postcode"], .physicalAddress),
    (["zip", "code"], .physicalAddress), (["zipcode"], .physicalAddress), (["postal", "address"], .physicalAddress),
    (["address"], .physicalAddress),
    (["card", "number"], .paymentInfo), (["credit", "card"], .paymentInfo), (["iban"], .paymentInfo), (["bank", "account"], .paymentInfo),
    (["credit", "score"], .creditInfo),
    (["search", "query"], .searchHistory), (["search", "term"], .searchHistory), (["search", "text"], .searchHistory),
    (["ethnicity"], .sensitiveInfo), (["religion"], .sensitiveInfo), (["sexual", "orientation"], .sensitiveInfo),
    (["pregnancy"], .sensitiveInfo), (["disability"], .sensitiveInfo), (["biometric"], .sensitiveInfo),
    (["heart", "rate"], .health), (["blood"], .health), (["diagnosis"], .health),
  ]

  /// Whether `sequence` occurs in `words`, word for word.
  private static func contains(_ words: [String], _ sequence: [String]) -> Bool {
    guard sequence.count <= words.count else { return false }
    for start in 0...(words.count - sequence.count) where words[start..<start + sequence.count].elementsEqual(sequence) {
      return true
    }
    return false
  }

  /// The lowercase words of an identifier, a path or a type name: split at `_`, `-`, `.`, spaces,
  /// digits and case changes (`URLHost` is `url host`, `CLLocationCoordinate2D` is `cl location
  /// coordinate d`).
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current: [Character] = []
    let characters = Array(name.prefix(200))
    func flush() {
      if !current.isEmpty { words.append(String(current).lowercased()) }
      current.removeAll()
    }
    for (index, character) in characters.enumerated() {
      guard character.isLetter else {
        flush()
        continue
      }
      if character.isUppercase, let last = current.last {
        let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
        // `fooBar` and the `B` of `URLBar` (an upper case letter before a lower case one) start a word.
        if last.isLowercase || (last.isUppercase && nextIsLower) { flush() }
      }
      current.append(character)
    }
    flush()
    return words
  }
}
