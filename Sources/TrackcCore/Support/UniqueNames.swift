/// Hands out names so that none is given twice: a name already given gets `_2`, `_3`, ... (or whatever
/// `variant` makes of it).
struct UniqueNames {
  private var used = Set<String>()
  private let variant: (String, Int) -> String

  init(variant: @escaping (String, Int) -> String = { "\($0)_\($1)" }) {
    self.variant = variant
  }

  mutating func claim(_ name: String) -> String {
    var candidate = name
    var number = 2
    while !used.insert(candidate).inserted {
      candidate = variant(name, number)
      number += 1
    }
    return candidate
  }
}
