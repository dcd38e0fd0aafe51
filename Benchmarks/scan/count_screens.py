#!/usr/bin/env python3
"""An independent count of an app's screens, to check `trackc init` against.

    python3 Benchmarks/scan/count_screens.py <app directory> [--json] [--list]

It shares no code and no table with trackc: it reads the Swift files as text (comments and string
literals blanked out, braces matched), with its own rules for what a screen is:

- a view controller is a class whose superclass, followed through the app's own classes (generic
  arguments and module prefixes dropped), ends in a class the app does not declare that is Apple's view
  controller: its name ends in `Controller` (or is `EKCalendarChooser`) and starts with an Apple
  framework's prefix (UI, NS, AV, QL, SF, SL, AS, MF, CN, PH, EK, GK, PK, SK, MP, VN, INUI, MS, RP), or is
  `DataScannerViewController`; a class other app classes inherit from is a base class, not a screen
  (counted apart);
- a SwiftUI screen is a type that conforms to `View` (in its declaration or an extension) and that the
  code shows as a screen: the root view of a `UIHostingController`/`NSHostingController` (its generic
  argument, or the first app view constructed in, or assigned to the local passed as, `rootView:`), the
  first app view constructed in the content of `.sheet`, `.fullScreenCover`, `.popover`,
  `.navigationDestination`, `.inspector`, a `NavigationLink`'s destination, a `WindowGroup`/`Window`/
  `DocumentGroup`/`Tab`, or the view a `.tabItem` is applied to; or a view whose own code sets up
  navigation (`NavigationStack`, `NavigationView`, `NavigationSplitView`, `.navigationTitle`,
  `.navigationBarTitle`). A view that only a hosting controller subclass hosts (`class Settings:
  UIHostingController<SettingsView>`) is that controller's screen, not one of its own;
- a view model is a class marked `@Observable` or conforming to `ObservableObject` (or inheriting from
  one) that a view holds through `@StateObject`, `@ObservedObject`, `@EnvironmentObject`, `@State`,
  `@Bindable` or `@Environment(Type.self)`.
"""
import argparse
import json
import os
import re
import sys

APPLE_PREFIXES = ("UI", "NS", "AV", "QL", "SF", "SL", "AS", "MF", "CN", "PH", "EK", "GK", "PK", "SK", "MP", "VN", "INUI", "MS", "RP")
PRESENTING_MODIFIERS = ("sheet", "fullScreenCover", "popover", "navigationDestination", "inspector")
PRESENTING_VIEWS = ("NavigationLink", "WindowGroup", "Window", "DocumentGroup", "UtilityWindow", "Tab")
NAVIGATION = re.compile(r"\b(NavigationStack|NavigationView|NavigationSplitView)\b|\.\s*(navigationTitle|navigationBarTitle)\s*\(")
WRAPPERS = ("StateObject", "ObservedObject", "EnvironmentObject", "State", "Bindable")


def blank(text):
    """Comments and string literals replaced by spaces (newlines kept), so that braces and names in them
    are not read as code. Multi-line strings, raw strings and interpolations are handled well enough."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif text[i] == '"' or (text[i] == "#" and text.startswith('#"', i)):
            hashes = 0
            while i + hashes < n and text[i + hashes] == "#":
                hashes += 1
            start = i + hashes
            triple = text.startswith('"""', start)
            close = ('"""' if triple else '"') + "#" * hashes
            j = start + (3 if triple else 1)
            while j < n:
                if text[j] == "\\" and hashes == 0:
                    if j + 1 < n and text[j + 1] == "(":
                        # Keep the interpolation's code; skip to its matching parenthesis.
                        depth, j = 1, j + 2
                        while j < n and depth:
                            depth += {"(": 1, ")": -1}.get(text[j], 0)
                            j += 1
                        continue
                    j += 2
                    continue
                if text.startswith(close, j):
                    j += len(close)
                    break
                if text[j] == "\n" and not triple:
                    break
                j += 1
            for k in range(i, min(j, n)):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        else:
            i += 1
    return "".join(out)


def matching(text, open_index, opening="{", closing="}"):
    """The index of the bracket that closes the one at open_index."""
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == opening:
            depth += 1
        elif text[i] == closing:
            depth -= 1
            if depth == 0:
                return i
    return len(text) - 1


def base_name(written):
    written = re.sub(r"<.*", "", written.strip())
    return written.split(".")[-1].strip()


def split_top_level(text):
    """Comma-separated parts, commas inside brackets kept."""
    parts, depth, current = [], 0, ""
    for c in text or "":
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    if current.strip():
        parts.append(current.strip())
    return parts


def generic_arguments(written):
    m = re.search(r"<(.*)>", written)
    return split_top_level(m.group(1)) if m else []


DECLARATION = re.compile(
    r"(?P<attrs>(?:@\w+(?:\([^)]*\))?\s+)*)(?:(?:public|private|fileprivate|internal|open|final|package|indirect|nonisolated)\s+)*"
    r"(?P<kind>class|struct|enum|actor|extension|protocol)\s+(?P<name>[A-Za-z_][\w.]*)\s*(?P<generics><[^{]*?>)?\s*"
    r"(?::\s*(?P<inherits>[^{]*?))?\s*(?:where\s[^{]*)?\{")


class Declaration:
    def __init__(self, kind, name, inherits, attrs, start, end, path):
        self.kind, self.name, self.inherits, self.attrs = kind, name, inherits, attrs
        self.start, self.end, self.path = start, end, path


def read_app(root):
    files = []
    for directory, subdirectories, names in os.walk(root):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
        files += [os.path.join(directory, n) for n in sorted(names) if n.endswith(".swift")]
    sources, declarations = {}, []
    for path in files:
        try:
            text = blank(open(path, encoding="utf-8").read())
        except (UnicodeDecodeError, OSError):
            continue
        sources[path] = text
        for m in DECLARATION.finditer(text):
            open_brace = m.end() - 1
            name = m.group("name")
            if m.group("kind") != "extension":
                # A nested type is named by its enclosing types.
                enclosing = [d for d in declarations if d.path == path and d.start < m.start() < d.end and d.kind != "protocol"]
                if enclosing:
                    name = max(enclosing, key=lambda d: d.start).name + "." + name
            declarations.append(Declaration(
                m.group("kind"), name, split_top_level(m.group("inherits")), m.group("attrs") or "", m.start(),
                matching(text, open_brace), path))
    return files, sources, declarations


def count(root):
    files, sources, declarations = read_app(root)
    types = [d for d in declarations if d.kind not in ("extension", "protocol")]
    by_name = {}
    for d in types:
        by_name.setdefault(d.name.split(".")[-1], []).append(d)
        by_name.setdefault(d.name, []).append(d)
    classes = {d.name: d for d in types if d.kind == "class"}
    short_classes = {}
    for d in classes.values():
        short_classes.setdefault(d.name.split(".")[-1], d)

    def superclass(d):
        return base_name(d.inherits[0]) if d.inherits else None

    def reaches_view_controller(d, seen=()):
        first = superclass(d)
        if not first or d.name in seen:
            return False
        if first in short_classes:
            return reaches_view_controller(short_classes[first], seen + (d.name,))
        if first in by_name:  # a protocol or a struct of the app
            return False
        apple = first.startswith(APPLE_PREFIXES) and first.endswith("Controller")
        return apple or first in ("EKCalendarChooser", "DataScannerViewController")

    controllers = [d for d in classes.values() if reaches_view_controller(d)]
    inherited = {superclass(d) for d in classes.values()}
    view_controllers = [d for d in controllers if d.name.split(".")[-1] not in inherited]
    base_controllers = [d for d in controllers if d.name.split(".")[-1] in inherited]
    hosting = [d for d in view_controllers if base_name(ancestry_root(d, short_classes)) in ("UIHostingController", "NSHostingController")]

    # Views: declared conforming to View, or given the conformance by an extension.
    conforming = {d.name for d in types if any(base_name(i) == "View" and not i.startswith("UI") for i in d.inherits)}
    for d in declarations:
        if d.kind == "extension" and any(base_name(i) == "View" for i in d.inherits):
            conforming.add(d.name)
    views = {name for name in conforming if name in by_name}
    short_views = {name.split(".")[-1] for name in views}

    def owner(path, index):
        inside = [d for d in declarations if d.path == path and d.start < index < d.end and d.kind != "protocol"]
        return max(inside, key=lambda d: d.start).name if inside else None

    def first_view(fragment, path, at):
        """The first app view constructed in a piece of code, or assigned to a local it reads."""
        for m in re.finditer(r"\b([A-Z][\w]*(?:\.[A-Z]\w*)*)\s*(?:<[^>(]*>)?\s*\(|\b([a-z_]\w*)\b", fragment):
            if m.group(1):
                name = m.group(1).split(".")[-1]
                if name in short_views:
                    return name
            elif m.group(2) and m.group(2) not in ("let", "var", "self", "return", "in", "true", "false", "nil", "try", "await"):
                local = re.findall(r"\b(?:let|var)\s+" + re.escape(m.group(2)) + r"\s*(?::\s*([A-Z]\w*))?\s*(?:=\s*([A-Z]\w*))?",
                                   sources[path][max(0, at - 4000):at])
                for declared, assigned in reversed(local):
                    for candidate in (declared, assigned):
                        if candidate in short_views:
                            return candidate
        return None

    screens = {}  # view -> the reasons it is a screen
    held = []

    def add(view, why):
        screens.setdefault(view, set()).add(why)
    for path, text in sources.items():
        for m in re.finditer(r"\b(?:UI|NS)HostingController\s*(<[^>]*>)?\s*(\()?", text):
            arguments = generic_arguments(m.group(1) or "")
            found = next((base_name(a) for a in arguments if base_name(a) in short_views), None)
            if not found and m.group(2):
                close = matching(text, m.end() - 1, "(", ")")
                call = text[m.end():close]
                root = re.search(r"\brootView\s*:", call)
                if root:
                    found = first_view(call[root.end():], path, m.start())
            if found:
                # Written in a class's inheritance clause: that class hosts it (decided below).
                line_start = text.rfind("\n", 0, m.start()) + 1
                subclass = re.match(r"[^\n]*\bclass\s+\w+\s*(<[^>]*>)?\s*:\s*$", text[line_start:m.start()])
                add(found, "subclass" if subclass else "hosted")
        for m in re.finditer(r"\.\s*(" + "|".join(PRESENTING_MODIFIERS) + r")\s*\(", text):
            close = matching(text, m.end() - 1, "(", ")")
            after = text[close + 1:close + 400]
            content = None
            trailing = re.match(r"\s*\{", after)
            if trailing:
                brace = close + 1 + trailing.end() - 1
                content = text[brace:matching(text, brace)]
            else:
                inside = text[m.end():close]
                label = re.search(r"\b(content|destination)\s*:", inside)
                content = inside[label.end():] if label else None
            found = first_view(content, path, m.start()) if content else None
            if found:
                add(found, "presented")
        for m in re.finditer(r"\b(" + "|".join(PRESENTING_VIEWS) + r")\s*\(", text):
            close = matching(text, m.end() - 1, "(", ")")
            inside = text[m.end():close]
            if m.group(1) == "NavigationLink" and re.search(r"\bvalue\s*:", inside):
                continue  # the destination is a .navigationDestination's
            destination = re.search(r"\bdestination\s*:", inside)
            content = inside[destination.end():] if destination else None
            if content is None:
                trailing = re.match(r"\s*\{", text[close + 1:close + 400])
                if trailing:
                    brace = close + 1 + trailing.end() - 1
                    content = text[brace:matching(text, brace)]
            found = first_view(content, path, m.start()) if content else None
            if found:
                add(found, "presented")
        for m in re.finditer(r"\b(" + "|".join(PRESENTING_VIEWS) + r")\s*\{", text):
            brace = m.end() - 1
            found = first_view(text[brace:matching(text, brace)], path, m.start())
            if found:
                add(found, "presented")
        for m in re.finditer(r"\b([A-Z]\w*)\s*\([^()]*\)\s*\.\s*tabItem\b", text):
            if m.group(1) in short_views:
                add(m.group(1), "presented")
        for m in NAVIGATION.finditer(text):
            name = owner(path, m.start())
            if name and name.split(".")[-1] in short_views:
                add(name.split(".")[-1], "navigation")
        for m in re.finditer(
                r"@(?:(" + "|".join(WRAPPERS) + r")|Environment\s*\(\s*([A-Z]\w*)\.self\s*\))\s+(?:(?:private|public|fileprivate|internal)(?:\(set\))?\s+)*"
                r"var\s+\w+\s*(?::\s*([A-Z]\w*))?\s*(?:=\s*([A-Z]\w*)\s*\()?", text):
            name = owner(path, m.start())
            model = m.group(2) or m.group(3) or m.group(4)
            if name and name.split(".")[-1] in short_views and model:
                held.append(model)

    observable = {d.name.split(".")[-1] for d in classes.values()
                  if "@Observable" in d.attrs or any(base_name(i) == "ObservableObject" for i in d.inherits)}
    changed = True
    while changed:
        changed = False
        for d in classes.values():
            short = d.name.split(".")[-1]
            if short not in observable and superclass(d) in observable:
                observable.add(short)
                changed = True
    view_models = sorted(set(held) & observable)

    # A view hosted by a hosting controller subclass (itself a screen) is that screen, unless it is also
    # hosted by a call or presented.
    swiftui = {name: why for name, why in screens.items() if why & {"hosted", "presented"} or "subclass" not in why}
    return {
        "files": len(files),
        "lines": sum(t.count("\n") for t in sources.values()),
        "view controllers": len(view_controllers),
        "hosting controllers": len(hosting),
        "base view controller classes": len(base_controllers),
        "SwiftUI views": len(views),
        "SwiftUI screens": len(swiftui),
        "view models": len(view_models),
        "screens (view controllers + SwiftUI screens)": len(view_controllers) + len(swiftui),
        "lists": {
            "view controllers": sorted(d.name for d in view_controllers),
            "SwiftUI screens": sorted(swiftui),
            "view models": view_models,
        },
    }


def ancestry_root(d, short_classes):
    """The first class outside the app a class's chain ends in, as written."""
    seen = set()
    while d.inherits and base_name(d.inherits[0]) in short_classes and d.name not in seen:
        seen.add(d.name)
        d = short_classes[base_name(d.inherits[0])]
    return d.inherits[0] if d.inherits else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("app")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--list", action="store_true", help="list the screens found")
    args = parser.parse_args()
    result = count(args.app)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for key, value in result.items():
        if key != "lists":
            print(f"{key:46} {value}")
    if args.list:
        for kind, names in result["lists"].items():
            print(f"\n{kind}:")
            for name in names:
                print(f"  {name}")


if __name__ == "__main__":
    sys.exit(main())
