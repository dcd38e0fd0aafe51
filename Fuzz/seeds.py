#!/usr/bin/env python3
"""Gathers the fuzz targets' seeds from the repository: `Fuzz/seeds.py OUT TRACKC`.

Writes OUT/<target>/ for every target: the configs of the test fixtures, the example and the rule
examples (lint, generate); the names they use (names); registries and scan caches `trackc scan` makes of
the fixtures' sources (registry, scan-cache). Fuzz/merge.sh minimises them into the committed corpus.
"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(out, target, data):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as file:
        file.write(data)


def configs():
    """Every YAML config in the fixtures, the example and the benchmarks."""
    found = []
    for base in ["Tests", "Examples", "Benchmarks"]:
        for folder, _, names in os.walk(os.path.join(ROOT, base)):
            if "/.build" in folder:
                continue
            found += [os.path.join(folder, n) for n in names if n.endswith(".yaml")]
    return sorted(found)


SWIFT_ESCAPES = {"\\\\": "\\", '\\"': '"', "\\n": "\n", "\\t": "\t", "\\r": "\r", "\\0": "\0", "\\'": "'"}


def rule_examples():
    """The `.triggers` and `.passes` examples beside each rule, markers removed."""
    examples = []
    pattern = re.compile(r'\.(?:triggers|passes)\(\s*"""\n(.*?)\n( *)"""', re.S)
    for folder, _, names in os.walk(os.path.join(ROOT, "Sources/TrackcCore/Rules")):
        for name in names:
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            for body, indent in pattern.findall(text):
                lines = [line[len(indent):] for line in body.split("\n")]
                body = "\n".join(lines) + "\n"
                body = re.sub(r'\\u\{([0-9A-Fa-f]+)\}|\\\\|\\"|\\n|\\t|\\r|\\0|\\\'',
                              lambda m: chr(int(m.group(1), 16)) if m.group(1) else SWIFT_ESCAPES[m.group(0)], body)
                examples.append(re.sub("[0-9]\ufe0f\u20e3", "", body))
    return examples


def names(path):
    """Screen names, handler names, event IDs and patterns of one config (nothing if PyYAML cannot read it)."""
    try:
        document = yaml.safe_load(open(path, encoding="utf-8"))
    except Exception:
        return []
    found = []
    if not isinstance(document, dict):
        return found
    conventions = document.get("conventions")
    if isinstance(conventions, dict) and isinstance(conventions.get("event_id_pattern"), str):
        found.append(conventions["event_id_pattern"] + "\nPAGE_HOME_ENTER")
    screens = document.get("screens")
    for screen, body in (screens.items() if isinstance(screens, dict) else []):
        found.append(str(screen))
        events = body.get("control_events") if isinstance(body, dict) else None
        for handler, event in (events.items() if isinstance(events, dict) else []):
            found.append(str(handler))
            if isinstance(event, str):
                found.append(event)
    return found


def main(out, trackc):
    for path in configs():
        data = open(path, "rb").read()
        write(out, "lint", data)
        write(out, "generate", data)
        for name in names(path):
            write(out, "names", name)
    for example in rule_examples():
        write(out, "lint", example)
        write(out, "generate", example)
    # Nesting past the parser's depth limit (100), in both collection styles.
    write(out, "lint", "version: 1\nscreens: " + "[" * 150 + "]" * 150 + "\n")
    write(out, "lint", "version: 1\nscreens: " + "{a: " * 150 + "x" + "}" * 150 + "\n")

    sources = [
        "Tests/Fixtures/app/Sources",
        "Tests/GenerateFixtures/Sources/GenerateFixtureFeature",
        "Tests/PluginFixture/Sources",
    ] + [os.path.join("Examples/Shop/Sources", m) for m in sorted(os.listdir(os.path.join(ROOT, "Examples/Shop/Sources")))]
    for source in sources:
        with tempfile.TemporaryDirectory() as cache:
            registry = subprocess.run([trackc, "scan", os.path.join(ROOT, source), "--cache-dir", cache],
                                      check=True, capture_output=True).stdout
            write(out, "registry", registry)
            for name in os.listdir(cache):
                data = open(os.path.join(cache, name), "rb").read()
                write(out, "scan-cache", data)
                write(out, "scan-cache", cache_body(data))


def cache_body(data):
    """A cache file without its header (magic line, version string, scanner version, length, checksum)."""
    offset = len(b"trackc scan cache\n")

    def varint():
        nonlocal offset
        value, shift = 0, 0
        while True:
            byte = data[offset]
            offset += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value

    offset += varint()  # the version string's bytes
    for _ in range(4):
        varint()
    return data[offset:]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: seeds.py OUT TRACKC")
    main(sys.argv[1], sys.argv[2])
