#!/usr/bin/env python3
"""Gathers the fuzz targets' seeds from the repository: `Fuzz/seeds.py OUT TRACKC`.

Writes OUT/<target>/ for every target: the configs of the test fixtures, the example and the rule
examples (lint, generate); the names they use (names); registries and scan caches `trackc scan` makes of
the fixtures' sources (registry, scan-cache); journal records and segments in the runtime's layout
(journal); the remote configuration documents of the tests (remote-config); the collector's batch
fixtures and the JSON reader's test texts (collector-request). Fuzz/merge.sh minimises them into the
committed corpus.
"""
import glob
import hashlib
import os
import re
import subprocess
import sys
import struct
import tempfile
import uuid
import zlib

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

    adopt_seeds(out)
    journal_seeds(out)
    remote_config_seeds(out)
    collector_request_seeds(out)

    sources = [
        "Tests/Fixtures/app/Sources",
        # SwiftUI views, view models, hosting controllers: scans with references and type attributes.
        "Tests/Fixtures/app/Kinds/Sources",
        "Tests/GenerateFixtures/SwiftUI/Sources",
        "Tests/GenerateFixtures/ObjCApp/Sources",
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


def adopt_seeds(out):
    """The adopt tests' fixture files (the shapes of the measured apps' calls), each alone, and all in one."""
    text = open(os.path.join(ROOT, "Tests/TrackcCoreTests/Adopt/AdoptFixtures.swift"), encoding="utf-8").read()
    files = []
    for body, indent in re.findall(r'static let \w+ = """\n(.*?)\n( *)"""', text, re.S):
        body = "\n".join(line[len(indent):] for line in body.split("\n")) + "\n"
        body = re.sub(r'\\u\{([0-9A-Fa-f]+)\}|\\\\|\\"|\\n|\\t|\\r|\\0|\\\'',
                      lambda m: chr(int(m.group(1), 16)) if m.group(1) else SWIFT_ESCAPES[m.group(0)], body)
        files.append(body)
        write(out, "adopt", body)
        write(out, "adopt", "// snake_case\n" + body)
    write(out, "adopt", "".join(files))


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def string(text):
    data = text.encode("utf-8")
    return varint(len(data)) + data


def values(pairs):
    """Properties or traits in EventCoding's layout: a count, then key, tag and value each."""
    out = varint(len(pairs))
    for key, value in pairs:
        out += string(key)
        if isinstance(value, bool):
            out += bytes([4 if value else 3])
        elif isinstance(value, int):
            out += b"\x01" + struct.pack("<q", value)
        elif isinstance(value, float):
            out += b"\x02" + struct.pack("<d", value)
        else:
            out += b"\x00" + string(value)
    return out


def event_payload(mask, event_id, source=3, screen=None, handler=None, properties=(), snapshot=0, forwarded=None, version=2):
    """An event in EventCoding's layout (Sources/TrackcRuntime/Journal/EventCoding.swift): of version 2
    (a snapshot number; the plan's destinations a collector forwards it to), or of version 1."""
    out = struct.pack("<Q", mask) + uuid.UUID(int=mask * 7919 + len(event_id)).bytes + struct.pack("<q", 1_700_000_000_000_000)
    flags = (1 if screen is not None else 0) | (2 if forwarded is not None and version >= 2 else 0)
    out += bytes([source, flags])
    if version >= 2:
        out += varint(snapshot)
    out += string(event_id)
    if screen is not None:
        out += string(screen)
    if source == 2:
        out += string(handler or "onFav(_:)")
    if forwarded is not None and version >= 2:
        out += varint(len(forwarded)) + b"".join(string(name) for name in forwarded)
    return out + values(properties)


def snapshot_payload(number=0, anonymous_id="3f2c5d1e-8a7b-4c6d-9e0f-112233445566", user_id="", traits=(), fields=()):
    """A snapshot record (SnapshotCoding in Sources/TrackcRuntime/Identity/EventSnapshot.swift): routed
    nowhere, the marker, its number, the identity, then the context's fields as strings."""
    out = struct.pack("<Q", 0) + b"\xa5" + varint(number) + string(anonymous_id) + string(user_id) + values(traits)
    return out + varint(len(fields)) + b"".join(string(field) for field in fields)


def record_checksum(payload):
    """RecordChecksum.of (Segment.swift): a multiply-rotate hash over 8-byte words, folded to 32 bits."""
    mask = (1 << 64) - 1
    count = len(payload)
    h = 0x9E3779B97F4A7C15 ^ ((count * 0xC2B2AE3D27D4EB4F) & mask)
    offset = 0
    while offset + 8 <= count:
        word = struct.unpack_from("<Q", payload, offset)[0]
        h ^= (word * 0x87C37B91114253D5) & mask
        h = ((((h << 27) | (h >> 37)) & mask) * 0x4CF5AD432745937F) & mask
        offset += 8
    tail = 0
    for shift, byte in enumerate(payload[offset:]):
        tail |= byte << (8 * shift)
    mixed = h ^ ((tail * 0x87C37B91114253D5) & mask)
    h = ((((mixed << 31) | (mixed >> 33)) & mask) * 0x4CF5AD432745937F) & mask
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & mask
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & mask
    h ^= h >> 33
    return (h ^ (h >> 32)) & 0xFFFFFFFF


def record(payload, checksum=0):
    return struct.pack("<II", len(payload), checksum) + payload


def segment(payloads, ids=("firebase", "mixpanel"), version=2):
    """A whole segment file as the journal writes it: header (with its CRC-32), records, zeros."""
    header = b"TRKJ" + struct.pack("<HHQH", version, 0, 1, len(ids))
    for identifier in ids:
        header += struct.pack("<H", len(identifier)) + identifier.encode()
    header = header[:6] + struct.pack("<H", len(header) + 4) + header[8:]
    header += struct.pack("<I", zlib.crc32(header))
    header += bytes((-len(header)) % 8)
    body = b"".join(record(p, record_checksum(p)) for p in payloads)
    return header + body + bytes(256)


def journal_seeds(out):
    context = ("Shop", "2.1", "210", "com.example.shop", "x86_64", "", "linux", "Linux", "6.1", "en-GB", "Europe/Paris", "390", "844", "3.0")
    events = [
        snapshot_payload(0, fields=context),
        event_payload(1, "PAGE_HOME_ENTER", source=0, screen="HomeViewController", forwarded=["firebase", "mixpanel"]),
        event_payload(2, "CTRL_HOME_FAV", source=2, screen="HomeViewController", handler="onFavBtnPressed(_:)",
                      properties=[("source", "home"), ("n", 7), ("price", 9.5), ("express", False)]),
        snapshot_payload(1, user_id="user-42", traits=[("plan", "pro"), ("seats", 3)], fields=context),
        event_payload(3, "", source=4, snapshot=1, properties=[("plan", "pro")]),  # identify
        event_payload(3, "MANUAL_ONLY", properties=[("flag", True)], snapshot=1),
        event_payload(1, "anonymous-1", source=5, snapshot=1),  # alias, its previous ID in the event ID's place
        event_payload(1, "PAGE_CART_LEAVE", source=1, screen="CartView", snapshot=1, forwarded=[]),
    ]
    version1 = [
        event_payload(1, "PAGE_HOME_ENTER", source=0, screen="HomeViewController", version=1),
        event_payload(3, "MANUAL_ONLY", properties=[("flag", True)], version=1),
    ]
    write(out, "journal", b"\x20" + b"".join(record(p) for p in version1))  # an earlier release's segment
    write(out, "journal", b"\x21" + segment(version1, version=1))
    records = b"".join(record(p) for p in events)
    write(out, "journal", b"\x00" + records)
    write(out, "journal", b"\x00" + records + b"\xff\xee")  # a dirty tail
    write(out, "journal", b"\x08" + records)  # the header's destinations shuffled
    write(out, "journal", b"\x10" + records[: len(records) - 5])  # truncated in the last record
    write(out, "journal", b"\x02" + struct.pack("<QQ", 1, 48 + 16 + len(events[0]) + len(events[1])) + records)  # a cursor after the first event
    write(out, "journal", b"\x04" + bytes(range(64)) + records)  # a cursor file of garbage
    write(out, "journal", b"\x01" + segment(events))  # a whole segment, checksums and all
    write(out, "journal", b"\x01" + segment(events, ids=("mixpanel",)))


def remote_config_seeds(out):
    found = set()
    for path in glob.glob(os.path.join(ROOT, "Tests", "**", "*.swift"), recursive=True):
        found.update(re.findall(r'#"(\{"version.*?)"#', open(path, encoding="utf-8").read()))
    for document in sorted(found):
        write(out, "remote-config", document)


def collector_request_seeds(out):
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "collector", "*", "*.json"))):
        write(out, "collector-request", open(path, "rb").read())
    text = open(os.path.join(ROOT, "Tests", "TrackcCollectorTests", "JSONDocumentTests.swift"), encoding="utf-8").read()
    for literal in re.findall(r'#"(.*?)"#', text):
        write(out, "collector-request", literal.replace('\\#(', '('))


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
