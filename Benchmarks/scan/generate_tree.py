#!/usr/bin/env python3
"""Generates a large Swift app's sources for the scan benchmarks: no public app's code, nothing committed.

    python3 Benchmarks/scan/generate_tree.py <directory> --files N [--seed S]

Writes a SwiftPM-shaped tree, `<directory>/Sources/<Module>/...`, of N Swift files in modules of 100
files, and `<directory>/tracking.yaml`, a plan over it. The files look like an iOS app's (about 135 lines
each, as DuckDuckGo's iOS app has): UIKit view controllers with `@objc` handlers, SwiftUI views hosted or
presented, `@Observable` view models, models with stored and computed properties, extensions in other
files, type aliases (the app's own, generic ones, chains of them) and generic types; function bodies with
statements, closures and string interpolation, so that parsing costs what it costs on real code.

The plan maps a screen per module with handlers and bindings (through aliases and generic members),
which makes lint link the types' properties and initializers: the heavier path. The same seed gives the
same bytes.
"""
import argparse
import os
import random

FILES_PER_MODULE = 100


def view_controller(module, index, rng):
    name = f"{module}Screen{index}ViewController"
    handlers = []
    for h in range(rng.randint(3, 6)):
        handlers.append(f"""
  @objc func didTapItem{h}(_ sender: UIButton) {{
    let item = items[sender.tag % max(items.count, 1)]
    model.select(item, at: sender.tag)
    if item.price.cents > {rng.randint(100, 9999)} {{
      analyticsLabel = "expensive \\(item.title)"
    }} else {{
      analyticsLabel = "cheap \\(item.title)"
    }}
    navigationController?.pushViewController(DetailViewController{index % 7}(item: item), animated: true)
  }}
""")
    return f"""
/// The {index}th screen of {module}.
final class {name}: UIViewController {{
  let model = {module}Model{index}()
  var items: [{module}Item{index}] = []
  @objc var analyticsLabel: String = ""
  var itemID: {module}ItemID = ""
  var box = {module}Box<String>(value: "")
  var position: CGFloat = 0
  var elapsed: TimeInterval = 0

  override func viewDidLoad() {{
    super.viewDidLoad()
    title = "{module} {index}"
    view.backgroundColor = .systemBackground
    let button = UIButton(type: .system)
    button.addTarget(self, action: #selector(didTapItem0(_:)), for: .touchUpInside)
    view.addSubview(button)
    items = (0..<{rng.randint(3, 30)}).map {{ {module}Item{index}(id: "\\($0)", title: "Item \\($0)", price: Money(cents: $0 * 100)) }}
  }}

  override func viewDidAppear(_ animated: Bool) {{
    super.viewDidAppear(animated)
    model.load {{ [weak self] result in
      switch result {{
      case .success(let loaded): self?.items = loaded
      case .failure(let error): print("failed: \\(error)")
      }}
    }}
  }}
{''.join(handlers)}}}
"""


def swiftui_view(module, index, rng):
    name = f"{module}Panel{index}View"
    return f"""
struct {name}: View {{
  @State private var model = {module}Model{index}()
  let title: String
  var rows: [{module}Item{index}] = []

  var body: some View {{
    NavigationStack {{
      List(rows, id: \\.id) {{ row in
        HStack {{
          Text(row.title).font(.headline)
          Spacer()
          Text("\\(row.price.cents / 100)").foregroundStyle(.secondary)
        }}
        .onTapGesture {{ model.select(row, at: {rng.randint(0, 9)}) }}
      }}
      .navigationTitle(title)
      .sheet(isPresented: .constant(false)) {{ {module}Detail{index}View(rows: rows) }}
    }}
  }}
}}

struct {module}Detail{index}View: View {{
  var rows: [{module}Item{index}]
  var body: some View {{
    VStack(alignment: .leading, spacing: {rng.randint(2, 16)}) {{
      ForEach(rows, id: \\.id) {{ row in Text(row.title) }}
    }}
  }}
}}

func make{module}Panel{index}() -> UIViewController {{
  UIHostingController(rootView: {name}(title: "{module} {index}"))
}}
"""


def item(module, index, rng):
    defaults = {"Int": "0", "String": '""', "Double": "0", "Bool": "false", "String?": "nil", "Int?": "nil"}
    fields = [rng.choice(list(defaults)) for _ in range(rng.randint(3, 8))]
    lines = [f"  var field{p}: {t}" for p, t in enumerate(fields)]
    fields_text = "\n".join(lines)
    assignments = "\n".join(f"    self.field{p} = {defaults[t]}" for p, t in enumerate(fields))
    return f"""
struct {module}Item{index}: Identifiable, Hashable {{
  var id: {module}ItemID
  var title: String
  var price: Money
{fields_text}

  init(id: {module}ItemID, title: String, price: Money) {{
    self.id = id
    self.title = title
    self.price = price
{assignments}
  }}

  var summary: String {{ "\\(title) for \\(price)" }}

  func matches(_ query: String) -> Bool {{
    guard !query.isEmpty else {{ return true }}
    let words = query.lowercased().split(separator: " ")
    return words.allSatisfy {{ word in
      title.lowercased().contains(word) || summary.lowercased().contains(word)
    }}
  }}

  static func sorted(_ items: [Self], by key: String) -> [Self] {{
    switch key {{
    case "price": return items.sorted {{ $0.price.cents < $1.price.cents }}
    case "title": return items.sorted {{ $0.title < $1.title }}
    default: return items
    }}
  }}
}}
"""


def view_model(module, index, rng):
    return f"""
@Observable final class {module}Model{index} {{
  var selected: {module}Item{index}?
  var position = 0
  var loaded: {module}Box<[{module}Item{index}]> = {module}Box(value: [])

  func select(_ item: {module}Item{index}, at position: Int) {{
    selected = item
    self.position = position
  }}

  func load(_ completion: @escaping (Result<[{module}Item{index}], Error>) -> Void) {{
    DispatchQueue.main.asyncAfter(deadline: .now() + {rng.random():.2f}) {{
      completion(.success(self.loaded.value))
    }}
  }}
}}
"""


def extension(module, index, rng):
    return f"""
extension {module}Screen{index}ViewController {{
  func configure{index}(with item: {module}Item{index}) {{
    analyticsLabel = item.summary
    for (offset, row) in items.enumerated() where row.id == item.id {{
      print("row \\(offset): \\(row.title)")
    }}
  }}

  var selectedTitle: String? {{ model.selected?.title }}
}}
"""


def module_header(module):
    return f"""import UIKit
import SwiftUI

typealias {module}ItemID = String
typealias {module}Identifier = {module}ItemID
typealias {module}Pair<T> = ({module}Box<T>, {module}Box<T>)

struct {module}Box<Value> {{
  var value: Value
  var optional: Value? {{ value }}
}}

struct Money: CustomStringConvertible, Hashable {{
  var cents: Int
  var description: String {{ "\\(cents / 100).\\(cents % 100)" }}
}}
"""


def file_text(module, number, rng):
    # About two types a file, with extensions besides (DuckDuckGo's iOS app has about as many).
    parts = ["import UIKit\nimport SwiftUI\nimport Observation\n"]
    kind = number % 4
    if kind == 0:
        parts.append(view_controller(module, number, rng))
        parts.append(item(module, number, rng))
    elif kind == 1:
        parts.append(swiftui_view(module, number, rng))
    elif kind == 2:
        parts.append(extension(module, number - 2, rng))
        parts.append(view_model(module, number - 2, rng))
    else:
        parts.append(item(module, number - 2, rng).replace(f"Item{number - 2}", f"Item{number - 2}Detail"))
        parts.append(view_model(module, number, rng))
    parts.append(helpers(module, number, rng))
    return "".join(parts)


def helpers(module, number, rng):
    """A free function with a long body: parsed, never walked (function bodies hold no declarations)."""
    cases = "\n".join(
        f'    case {c}: result.append("{module} {number} case {c}: \\(value * {rng.randint(2, 99)})")' for c in range(rng.randint(20, 40)))
    return f"""
func describe{module}{number}(_ values: [Int], scale: Double = {rng.random():.3f}) -> [String] {{
  var result: [String] = []
  for value in values {{
    switch value % 40 {{
{cases}
    default:
      let scaled = Double(value) * scale
      result.append(String(format: "%.2f", scaled))
    }}
  }}
  let filtered = result.filter {{ !$0.isEmpty }}.map {{ $0.uppercased() }}
  guard !filtered.isEmpty else {{ return [] }}
  return filtered.sorted {{ lhs, rhs in lhs.count == rhs.count ? lhs < rhs : lhs.count < rhs.count }}
}}
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory")
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    modules = max(1, (args.files + FILES_PER_MODULE - 1) // FILES_PER_MODULE)
    written = 0
    plan = ["version: 1", "sources: [Sources]", "interception: objc-runtime", "screens:"]
    for m in range(modules):
        module = f"Feature{m:03d}"
        count = min(FILES_PER_MODULE, args.files - written)
        if count <= 0:
            break
        write(os.path.join(args.directory, "Sources", module, "Module.swift"), module_header(module))
        written += 1
        for n in range(count - 1):
            write(os.path.join(args.directory, "Sources", module, f"Screen{n:03d}.swift"), file_text(module, n, rng))
            written += 1
        screen = f"{module}Screen0ViewController"
        plan += [
            f"  {screen}:",
            f"    page_events: {{enter: {module.upper()}_ENTER}}",
            "    control_events:",
            f"      didTapItem0(_:): {{event: {module.upper()}_TAP, properties: {{label: {{from: self.analyticsLabel}}, tag: {{from: sender.tag, type: int}}}}}}",
        ]
    # A few findings, so that cold and warm runs are compared on something: a misspelt handler (with a
    # did-you-mean), a value that cannot be a property, a binding through an alias and a generic member.
    plan += [
        "  Feature000Screen4ViewController:",
        "    control_events:",
        "      didTapItemZero(_:): FEATURE000_TAP_ZERO",
        "      didTapItem1(_:): {event: FEATURE000_TAP_ONE, properties: {items: {from: self.items}, id: {from: self.itemID}, "
        "boxed: {from: self.box.value}, elapsed: {from: self.elapsed}}}",
    ]
    write(os.path.join(args.directory, "tracking.yaml"), "\n".join(plan) + "\n")
    print(f"{written} Swift files in {modules} modules under {args.directory}")


if __name__ == "__main__":
    main()
