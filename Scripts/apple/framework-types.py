#!/usr/bin/env python3
"""Writes Sources/TrackcCore/CodeCheck/AppleFrameworkTypes.swift: the kind of every type Apple's iOS SDK
declares in the frameworks whose types app handlers take, as the Swift compiler imports them, so that
trackc tells a handler's argument's Objective-C form from Apple's SDK rather than from the type's name.

    framework-types.py [--kit DIR] [--output FILE]    write the table
    framework-types.py [--kit DIR] --check            fail when the committed table is not what the kit gives

Kinds come from the symbol graph Swift extracts from each framework (`swift-symbolgraph-extract` against
the kit's iOS SDK): a class or an Objective-C protocol is an object; an imported C enum its raw type; an
imported option set (`NS_OPTIONS`) or typed constant (`NS_TYPED_ENUM`) its raw type (a string one is an
`NSString`, an object); an imported C struct its Objective-C type encoding, which clang computes with
`@encode` against the same SDK. Types Swift declares without an Objective-C form (a Swift struct or enum)
are left out: a handler taking one cannot be exposed to Objective-C.

The kit: --kit, else $TRACKC_IOS_SDK, else shared/ios-sdk beside the repository or a folder above it (as
Scripts/typecheck-ios.sh finds it). Without a kit it prints "not run: ..." and exits 0 (2 under CI=true).
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUTPUT = os.path.join(ROOT, "Sources/TrackcCore/CodeCheck/AppleFrameworkTypes.swift")
# The frameworks whose types app handlers take, of those the kit holds. (AVFoundation, AVFAudio and Photos,
# which imports AVFoundation, are in the kit but do not load here: AudioToolbox, below them, imports
# CoreMIDI, which the kit does not hold.)
MODULES = [
    "ObjectiveC", "CoreFoundation", "Foundation", "CoreGraphics", "QuartzCore", "UIKit", "SwiftUI", "CoreLocation", "CoreMedia", "CoreMotion",
    "MapKit", "Contacts", "StoreKit", "WebKit",
]
TARGET = "arm64-apple-ios16.0"


def find_kit(given):
    if given:
        return given
    if os.environ.get("TRACKC_IOS_SDK"):
        return os.environ["TRACKC_IOS_SDK"]
    starts = [ROOT]
    try:
        common = subprocess.run(["git", "-C", ROOT, "rev-parse", "--path-format=absolute", "--git-common-dir"],
                                capture_output=True, text=True, check=True).stdout.strip()
        starts.append(os.path.dirname(common))
    except (OSError, subprocess.CalledProcessError):
        pass
    for start in starts:
        directory = start
        while directory != "/":
            directory = os.path.dirname(directory)
            candidate = os.path.join(directory, "shared/ios-sdk")
            if os.access(os.path.join(candidate, "swiftc-ios"), os.X_OK):
                return candidate
    return None


def ios_work():
    """Where swiftc-ios keeps its resource folder and module caches (shared by every clone)."""
    return os.environ.get("TRACKC_IOS_WORK") or os.path.join(os.environ.get("TMPDIR") or "/tmp", "ios-sdk-work")


def sdk_name(kit):
    return next(name for name in sorted(os.listdir(kit)) if name.endswith(".sdk"))


def extract(kit, work, module):
    """The module's symbol graph files (its own and its extensions of other modules')."""
    sdk = os.path.join(kit, sdk_name(kit))
    # The resource folder swiftc-ios makes (the toolchain's, without Linux's module maps).
    resource = os.path.join(ios_work(), "resource")
    if not os.path.isdir(os.path.join(resource, "shims")):
        probe = os.path.join(work, "probe.swift")
        open(probe, "w").write("")
        subprocess.run([os.path.join(kit, "swiftc-ios"), "-typecheck", probe], check=True)
    output = os.path.join(work, "symbols", module)
    os.makedirs(output, exist_ok=True)
    result = subprocess.run([
        "swift-symbolgraph-extract", "-module-name", module, "-sdk", sdk, "-target", TARGET, "-resource-dir", resource,
        "-module-cache-path", os.path.join(os.path.dirname(resource), "module-cache"), "-output-dir", output,
        "-minimum-access-level", "public"], capture_output=True, text=True)
    if result.returncode != 0:
        errors = [line for line in (result.stdout + result.stderr).splitlines() if "error:" in line]
        raise SystemExit(f"framework-types: swift-symbolgraph-extract {module} failed:\n" + "\n".join(errors[:20]))
    return [os.path.join(output, name) for name in sorted(os.listdir(output)) if name.endswith(".symbols.json")]


def kinds(files):
    """{(module, swift path): (kind, detail, usr)} from symbol graph files."""
    found = {}
    for path in files:
        graph = json.load(open(path))
        module = graph["module"]["name"]
        symbols = graph["symbols"]
        raw = {}
        option_sets = set()
        for symbol in symbols:
            path_components = symbol["pathComponents"]
            if symbol["kind"]["identifier"] == "swift.init" and path_components[-1] == "init(rawValue:)":
                declaration = "".join(fragment["spelling"] for fragment in symbol["declarationFragments"])
                match = re.search(r"rawValue: ([A-Za-z0-9_.]+)\)", declaration)
                if match:
                    raw[tuple(path_components[:-1])] = match.group(1).split(".")[-1]
        for relationship in graph["relationships"]:
            if relationship["kind"] == "conformsTo" and relationship["target"] == "s:s9OptionSetP":
                option_sets.add(relationship["source"])
        for symbol in symbols:
            kind = symbol["kind"]["identifier"]
            usr = symbol["identifier"]["precise"]
            name = ".".join(symbol["pathComponents"])
            key = (module, name)
            if kind == "swift.class" and usr.startswith(("c:objc(cs)", "s:")):
                # (A Core Foundation type, which Swift also imports as a class, is a C pointer to Objective-C:
                # left out.)
                found[key] = ("class", "", usr)
            elif kind == "swift.protocol" and usr.startswith("c:objc(pl)"):
                found[key] = ("protocol", "", usr)
            elif kind == "swift.enum" and usr.startswith("c:@E@"):
                if tuple(symbol["pathComponents"]) in raw:
                    found[key] = ("enum", raw[tuple(symbol["pathComponents"])], usr)
            elif kind == "swift.struct" and usr.startswith(("c:@E@", "c:@T@", "c:@EA@")):
                if tuple(symbol["pathComponents"]) in raw:
                    found[key] = ("options" if usr in option_sets else "typed", raw[tuple(symbol["pathComponents"])], usr)
            elif kind == "swift.struct" and usr.startswith(("c:@S@", "c:@SA@")):
                found[key] = ("struct", None, usr)
    return found


def encodings(kit, work, structs):
    """{usr: Objective-C type encoding} of C structs, by clang's @encode against the kit's SDK."""
    sdk = os.path.join(kit, sdk_name(kit))
    pending = sorted(structs)
    for _ in range(4):
        source = os.path.join(work, "encodings.m")
        lines = [f"@import {module};" for module in MODULES if module not in ("SwiftUI",)]
        first = len(lines) + 1
        for index, usr in enumerate(pending):
            spelling = ("struct " + usr[len("c:@S@"):]) if usr.startswith("c:@S@") else usr[len("c:@SA@"):]
            lines.append(f"const char *trackc_encoding_{index} = @encode({spelling});")
        open(source, "w").write("\n".join(lines) + "\n")
        result = subprocess.run([
            "clang", "-target", TARGET, "-isysroot", sdk, "-fmodules", f"-fmodules-cache-path={os.path.join(ios_work(), 'clang-module-cache')}",
            "-Wno-everything", "-S", "-emit-llvm", "-o", os.path.join(work, "encodings.ll"), source], capture_output=True, text=True)
        if result.returncode == 0:
            ir = open(os.path.join(work, "encodings.ll")).read()
            strings = dict(re.findall(r'^(@\.str(?:\.\d+)?) = .*?c"(.*?)\\00"', ir, re.M))
            found = {}
            for index, symbol in re.findall(r"^@trackc_encoding_(\d+) = .*?global ptr (@\.str(?:\.\d+)?)", ir, re.M):
                found[pending[int(index)]] = strings[symbol]
            return found
        # A struct clang cannot encode here (unavailable on iOS, incomplete): left out, and tried again.
        bad = {int(line) - first for line in re.findall(r"encodings\.m:(\d+):\d+: error", result.stderr)}
        if not bad or any(index < 0 for index in bad):
            raise SystemExit(f"framework-types: clang failed:\n{result.stderr[-4000:]}")
        pending = [usr for index, usr in enumerate(pending) if index not in bad]
    raise SystemExit("framework-types: clang could not encode the structs")


def render(kit, table):
    lines = [
        f"// Generated by Scripts/apple/framework-types.py from the iOS SDK kit's {sdk_name(kit)}. Do not edit: run the",
        "// script to write it again (Scripts/typecheck-ios.sh checks that it is what the kit gives).",
        "",
        "extension FrameworkTypes {",
        "  /// One type a line: its module, its Swift name, its kind and the kind's detail (a C struct's Objective-C",
        "  /// type encoding; a C enum's, option set's or typed constant's raw type).",
        '  static let appleTable = #"""',
    ]
    for (module, name), (kind, detail, _) in sorted(table.items(), key=lambda item: (item[0][0], item[0][1])):
        lines.append(f"    {module} {name} {kind}" + (f" {detail}" if detail else ""))
    lines += ['    """#', "}", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kit")
    parser.add_argument("--output", default=OUTPUT)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    arguments = parser.parse_args()
    kit = find_kit(arguments.kit)
    if not kit or not os.path.isdir(kit):
        if os.environ.get("CI") == "true":
            print("framework-types: error: no iOS SDK kit (under CI=true this fails the run)", file=sys.stderr)
            sys.exit(2)
        print("framework-types: not run: no iOS SDK kit at $TRACKC_IOS_SDK or shared/ios-sdk beside the repository")
        return
    work = tempfile.mkdtemp(prefix="trackc-framework-types-")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
            files = [path for paths in pool.map(lambda module: extract(kit, work, module), MODULES) for path in paths]
        table = kinds(files)
        structs = {usr for kind, _, usr in table.values() if kind == "struct"}
        encoded = encodings(kit, work, structs)
        table = {key: (kind, encoded.get(usr) if kind == "struct" else detail, usr) for key, (kind, detail, usr) in table.items()}
        table = {key: value for key, value in table.items() if value[0] != "struct" or value[1]}
        text = render(kit, table)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if arguments.check:
        committed = open(arguments.output).read() if os.path.exists(arguments.output) else ""
        if committed != text:
            print(f"framework-types: error: {os.path.relpath(arguments.output, ROOT)} is not what the kit gives; run Scripts/apple/framework-types.py")
            sys.exit(1)
        print(f"framework-types: {os.path.relpath(arguments.output, ROOT)} is what the kit gives ({len(table)} types)")
        return
    if not os.path.exists(arguments.output) or open(arguments.output).read() != text:
        open(arguments.output, "w").write(text)
    print(f"framework-types: {len(table)} types in {os.path.relpath(arguments.output, ROOT)}")


if __name__ == "__main__":
    main()
