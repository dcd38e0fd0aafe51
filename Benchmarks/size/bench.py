#!/usr/bin/env python3
"""What an analytics library adds to an arm64 iOS app, and what trackc's generated code weighs.

    Benchmarks/size/bench.py [--only libraries|generated] [--events 10,100,1000]

1. The same tiny UIKit app (Apps/: an app delegate that starts the library and identifies the user, a
   screen whose button tracks one event) built four ways: without analytics, with TrackcRuntime (and the
   registry `trackc generate` writes for Apps/Trackc/tracking.yaml), with analytics-swift 1.10 (Segment,
   with Sovran and JSONSafeEncoding at the versions its Package.resolved pins) and with Amplitude-Swift
   (with AnalyticsConnector and AmplitudeCore). Every module is compiled by the iOS SDK kit's swiftc-ios
   with -Osize -wmo for arm64-apple-ios16.0 and linked by its ld-ios with -dead_strip, as Xcode's release
   build of an app does (before the App Store's thinning). Reported: the __TEXT and __DATA* segments (their
   sections added up, not rounded to pages), the file with its symbols stripped (as Xcode archives an app),
   and what each library adds to the app without one.
   Then trackc's share broken down by the runtime's parts, from the linked binary's symbols.
2. trackc's generated code: plans of 10, 100 and 1,000 events (one control event per handler, ten handlers
   a screen, a static property each) on synthetic view controllers, generated with this checkout's trackc
   and linked into the same app: bytes per event (and so per hooked handler), and the registry's and the
   hooks' parts of it.

The libraries' sources are never in this repository: each is read from a git repository of it, by tag,
into Benchmarks/.work/size/src (git-ignored). The repositories are looked for in $TRACKC_SIZE_MIRROR,
else in a `.mirror` folder beside the repository (or a folder above it), as `owner+name/repo` (a bare
repository) or `owner+name` (a clone). A library that the kit cannot compile or link is reported with
the compiler's or the linker's first error, and the run goes on.
Where a library imports what the kit's SDK lacks (Amplitude-Swift: CoreTelephony, libsqlite3), it is
compiled against a stand-in module of declarations only (STAND_INS, written under .work, no code of its
own), and the symbols only the real libraries define stay undefined, each named with -U and listed in the
output: the bytes measured are the library's own.

The kit: $TRACKC_IOS_SDK, else `shared/ios-sdk` beside the repository or a folder above it. trackc:
$TRACKC, else this checkout's (`swift build --product trackc`).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
WORK = ROOT / "Benchmarks" / ".work" / "size"
IOS = "16.0"

# Each library: its git repository (owner/name), the tag, and its modules in build order, each with the
# folder of its sources in that repository. Amplitude-Swift names no versions of its dependencies beyond
# `from:`; the newest tags that satisfy them are used (AmplitudeCore is its source target, which its
# binary framework is built from).
LIBRARIES = {
    "analytics-swift": {
        "title": "analytics-swift 1.10.0",
        "app": "Segment",
        "repositories": {"segmentio/analytics-swift": "1.10.0"},
        # Its dependencies' tags come from its Package.resolved (identity -> repository).
        "resolved": ("segmentio/analytics-swift", {"sovran-swift": "segmentio/Sovran-Swift", "jsonsafeencoding-swift": "segmentio/JSONSafeEncoding-Swift"}),
        "modules": [
            ("Sovran", "segmentio/Sovran-Swift", "Sources/Sovran"),
            ("JSONSafeEncoding", "segmentio/JSONSafeEncoding-Swift", "Sources/JSONSafeEncoding"),
            ("Segment", "segmentio/analytics-swift", "Sources/Segment"),
        ],
    },
    "Amplitude-Swift": {
        "title": "Amplitude-Swift 1.18.6",
        "app": "Amplitude",
        "repositories": {"amplitude/Amplitude-Swift": "v1.18.6", "amplitude/analytics-connector-ios": "v1.3.2", "amplitude/AmplitudeCore-Swift": "v1.4.9"},
        "modules": [
            ("AnalyticsConnector", "amplitude/analytics-connector-ios", "Sources/AnalyticsConnector"),
            ("AmplitudeCore", "amplitude/AmplitudeCore-Swift", "Sources/AmplitudeCore"),
            ("AmplitudeSwift", "amplitude/Amplitude-Swift", "Sources/Amplitude"),
        ],
        # The kit's SDK has no CoreTelephony: AmplitudeSwift is compiled against STAND_INS' declarations
        # of what ContextPlugin.swift calls (headers only: no code of their own). These symbols, which
        # only the real CoreTelephony and libsqlite3 define, stay undefined in the link (`-U`): the code
        # measured is the library's own, only its imports are missing.
        "stand_ins": {"AmplitudeSwift": ["CoreTelephony"]},
        # The SDK's SQLite3 module asks the linker for libsqlite3, whose stub the kit lacks: that request
        # is dropped from the object, and its symbols stay undefined below.
        "no_autolink": {"AmplitudeSwift": ["sqlite3"]},
        "undefined": {
            # CoreTelephony's classes, as ContextPlugin.swift's carrier lookup refers to them.
            "_OBJC_CLASS_$_CTTelephonyNetworkInfo": "CoreTelephony",
            "_OBJC_CLASS_$_CTCarrier": "CoreTelephony",
            # libsqlite3 (the SDK's SQLite3 module; the kit has its header, not its stub): the legacy
            # database migration (Migration/LegacyDatabaseStorage.swift).
            **{f"_sqlite3_{name}": "libsqlite3" for name in (
                "bind_int64", "bind_text", "close", "column_int64", "column_text", "column_type", "finalize",
                "open", "prepare", "step")},
        },
    },
}

# Stand-in Clang modules for SDK frameworks the kit lacks: declarations only, exactly the API a library
# calls (an Objective-C header declares classes and methods; it compiles to no code). Written under
# .work, never into the kit; the module map names no library to link.
STAND_INS = {
    "CoreTelephony": """\
// A stand-in for CoreTelephony's declarations that Amplitude-Swift's ContextPlugin.swift uses, written
// by Benchmarks/size/bench.py: the kit's iOS SDK has no CoreTelephony. Declarations only.
#import <Foundation/Foundation.h>

NS_ASSUME_NONNULL_BEGIN

@interface CTCarrier : NSObject
@property (nonatomic, readonly, retain, nullable) NSString *carrierName;
@property (nonatomic, readonly, retain, nullable) NSString *mobileNetworkCode;
@end

@interface CTTelephonyNetworkInfo : NSObject
@property (nonatomic, readonly, retain, nullable) NSDictionary<NSString *, CTCarrier *> *serviceSubscriberCellularProviders;
@end

NS_ASSUME_NONNULL_END
""",
}

# trackc's runtime, by part: the folders (or files) of Sources/ whose types make it up. A symbol belongs to
# the part that declares the first trackc type its name mentions.
PARTS = [
    ("the link matcher (TrackcLinks, Links/)", ["TrackcLinks", "TrackcRuntime/Links", "TrackcRuntime/Apple/PendingRoute+UIKit.swift"]),
    ("the journal (Journal/)", ["TrackcRuntime/Journal"]),
    ("the consent book (Consent/)", ["TrackcRuntime/Consent"]),
    ("delivery and HTTP (Delivery/, HTTP/, Destination*)", ["TrackcRuntime/Delivery", "TrackcRuntime/HTTP", "TrackcRuntime/Destination", "TrackcRuntime/RemoteDestinationConfiguration.swift"]),
    ("identity and context (Identity/, Apple/AppleContext)", ["TrackcRuntime/Identity", "TrackcRuntime/Apple/AppleContext.swift"]),
    ("interception (hooks, UIKit adapters)", ["TrackcRuntime/Apple", "TrackcRuntime/HandlerHooks.swift", "TrackcRuntime/Interception.swift", "TrackcRuntime/KeyPathBinding.swift", "TrackcRuntime/CapturedProperties.swift", "TrackcRuntime/HostedRootView.swift"]),
    ("the tracker and the rest", ["TrackcRuntime"]),
]


def fail(message: str) -> None:
    print(f"size: error: {message}", file=sys.stderr)
    sys.exit(1)


def run(arguments, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in arguments], text=True, capture_output=True, **kwargs)


def starts() -> list:
    """The repository, and the main worktree when this is a git worktree: where kits and mirrors are looked for."""
    found = [ROOT]
    common = run(["git", "-C", ROOT, "rev-parse", "--path-format=absolute", "--git-common-dir"])
    if common.returncode == 0:
        found.append(Path(common.stdout.strip()).parent)
    return found


def beside(name: str) -> Path | None:
    for start in starts():
        for folder in start.parents:
            if (folder / name).exists():
                return folder / name
    return None


def find_kit() -> Path:
    if os.environ.get("TRACKC_IOS_SDK"):
        kit = Path(os.environ["TRACKC_IOS_SDK"])
    else:
        kit = beside("shared/ios-sdk")
    if kit is None or not (kit / "swiftc-ios").exists():
        fail("no iOS SDK kit (TRACKC_IOS_SDK, or shared/ios-sdk beside the repository)")
    return kit


def git_dir(repository: str) -> Path:
    owner_name = repository.replace("/", "+")
    mirror = Path(os.environ["TRACKC_SIZE_MIRROR"]) if os.environ.get("TRACKC_SIZE_MIRROR") else beside(".mirror")
    if mirror is not None:
        for candidate in (mirror / owner_name / "repo", mirror / owner_name / ".git", mirror / owner_name):
            if (candidate / "HEAD").exists():
                return candidate
    fail(f"no git repository of {repository} (git clone https://github.com/{repository} into $TRACKC_SIZE_MIRROR/{owner_name})")


def checkout(repository: str, tag: str, folder: str) -> Path:
    """The folder of that tag of the repository, extracted once under .work."""
    target = WORK / "src" / f"{repository.replace('/', '+')}@{tag}"
    if not (target / folder).exists():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "--git-dir", str(git_dir(repository)), "archive", tag, folder], capture_output=True)
        if archive.returncode:
            fail(f"git archive {repository} {tag} {folder}: {archive.stderr.decode().strip()}")
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target / folder


def resolved_tags(library: dict) -> dict:
    """The tags of a library's repositories: its own, and its dependencies' from its Package.resolved."""
    tags = dict(library["repositories"])
    if "resolved" in library:
        repository, identities = library["resolved"]
        text = run(["git", "--git-dir", git_dir(repository), "show", f"{tags[repository]}:Package.resolved"])
        if text.returncode:
            fail(f"{repository} {tags[repository]} has no Package.resolved")
        for pin in json.loads(text.stdout)["pins"]:
            if pin["identity"] in identities:
                tags[identities[pin["identity"]]] = pin["state"]["version"]
    return tags


class Kit:
    def __init__(self, path: Path):
        self.path = path
        self.shims = path / "Swift6Shims.swift"

    def compile(self, name: str, files: list, out: Path, swift_version: str, flags=()) -> str | None:
        """Compiles a module to out/NAME.o and out/NAME.swiftmodule; the compiler's errors, or None. An
        object newer than its sources, compiled with the same files and flags, is kept."""
        object_file = out / f"{name}.o"
        if object_file.exists() and (out / f"{name}.flags").exists() and (out / f"{name}.flags").read_text() == repr((list(files), list(flags))):
            built = object_file.stat().st_mtime
            if all(Path(f).stat().st_mtime < built for f in files):
                return None
        result = run([
            self.path / "swiftc-ios", "--os", IOS, "-c", "-emit-module", "-emit-module-path", out / f"{name}.swiftmodule",
            "-Osize", "-wmo", "-parse-as-library", "-swift-version", swift_version, "-runtime-compatibility-version", "none",
            "-module-name", name, "-I", out, "-I", ROOT / "Sources" / "CZlib", *flags, *files, "-o", out / f"{name}.o"])
        if result.returncode:
            errors = [line for line in result.stdout.splitlines() + result.stderr.splitlines() if "error:" in line]
            return "\n".join(errors[:3]) or result.stderr.strip()[-2000:]
        (out / f"{name}.flags").write_text(repr((list(files), list(flags))))
        return None

    def link(self, objects: list, out: Path, undefined=()) -> str | None:
        # This toolchain's compiler calls swift_coroFrameAlloc from some `_modify` accessors through a weak
        # reference (a stub checks it exists at run time); Xcode 26's iOS SDK stubs export it, the kit's
        # iOS 17.4 ones do not, so that one symbol may stay undefined (it changes no size). UNDEFINED: the
        # symbols of a library's imports the kit lacks (LIBRARIES' "undefined").
        allowed = [argument for symbol in ("_swift_coroFrameAlloc", *undefined) for argument in ("-U", symbol)]
        result = run([self.path / "ld-ios", "--os", IOS, "-dead_strip", *allowed, *objects, "-o", out])
        if result.returncode:
            lines = (result.stderr or result.stdout).splitlines()
            return "\n".join(lines[:6])
        return None


def swift_files(folder: Path) -> list:
    return sorted(str(p) for p in folder.rglob("*.swift"))


def segments(binary: Path) -> dict:
    """__TEXT and __DATA* as their sections add up, and the file's size."""
    sizes = {"__TEXT": 0, "__DATA*": 0}
    segment = None
    for line in run(["llvm-size", "-m", binary]).stdout.splitlines():
        if line.startswith("Segment "):
            segment = line.split()[1].rstrip(":")
        elif line.strip().startswith("Section ") and segment:
            size = int(line.split()[-1])
            if segment == "__TEXT":
                sizes["__TEXT"] += size
            elif segment.startswith("__DATA"):
                sizes["__DATA*"] += size
    # The file as an app ships it: Xcode strips an app's symbols when it archives it.
    stripped = binary.with_suffix(".stripped")
    subprocess.run(["llvm-strip", "-o", str(stripped), str(binary)], check=True)
    sizes["file"] = stripped.stat().st_size
    return sizes


def undefined_symbols(binary: Path) -> set:
    """The symbols a linked binary leaves undefined without a library that defines them (`-U`)."""
    found = set()
    for line in run(["llvm-nm", "-m", "--undefined-only", binary]).stdout.splitlines():
        # `(undefined) external _name (dynamically looked up)`: no library given to the link defines it.
        if line.endswith("(dynamically looked up)"):
            found.add(line.split()[-4])
    return found


def symbol_sizes(binary: Path) -> list:
    """(demangled name, bytes) of every symbol in __TEXT and __DATA*: the distance to the next symbol in
    its section, or to the section's end (Mach-O symbols carry no size)."""
    sections = []
    for line in run(["llvm-objdump", "--section-headers", binary]).stdout.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[0].isdigit():
            start = int(fields[3], 16)
            sections.append((start, start + int(fields[2], 16)))
    sections.sort()
    rows = []
    for line in run(["llvm-nm", "-n", "--defined-only", binary]).stdout.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[1] not in "aAU":
            rows.append((int(fields[0], 16), fields[-1]))
    names = run(["swift", "demangle", "--compact"], input="\n".join(name for _, name in rows)).stdout.splitlines()
    sized = []
    for index, (address, name) in enumerate(rows):
        section = next(((a, b) for a, b in sections if a <= address < b), None)
        if section is None:
            continue
        following = rows[index + 1][0] if index + 1 < len(rows) else section[1]
        sized.append((names[index] if index < len(names) else name, max(min(following, section[1]) - address, 0)))
    return sized


def declared_types() -> dict:
    """trackc's type names -> the source path (under Sources/) that declares them."""
    types = {}
    for module in ("TrackcLinks", "TrackcRuntime"):
        for path in sorted((ROOT / "Sources" / module).rglob("*.swift")):
            text = path.read_text(encoding="utf-8")
            for match in re.finditer(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public |internal |fileprivate |private |package |final |open |indirect |nonisolated )*(?:class|struct|enum|actor|protocol) (\w+)", text, re.M):
                types.setdefault((module, match.group(1)), str(path.relative_to(ROOT / "Sources")))
    return types


def part_of(name: str, types: dict) -> str:
    match = re.search(r"\b(TrackcLinks|TrackcRuntime)\.(\w+)", name)
    if not match:
        return "trackc's, of no one type (module metadata, ...)"
    path = types.get((match.group(1), match.group(2)), f"{match.group(1)}/?")
    for part, prefixes in PARTS:
        if any(path == prefix or path.startswith(prefix.rstrip("/") + "/") or path.startswith(prefix) for prefix in prefixes):
            return part
    return PARTS[-1][0]


def trackc_binary() -> Path:
    if os.environ.get("TRACKC"):
        return Path(os.environ["TRACKC"])
    build = run(["swift", "build", "--product", "trackc"], cwd=ROOT)
    if build.returncode:
        fail(f"swift build --product trackc:\n{build.stdout[-3000:]}")
    return Path(run(["swift", "build", "--show-bin-path"], cwd=ROOT).stdout.strip()) / "trackc"


def generate(trackc: Path, plan: Path, output: Path) -> None:
    if output.exists():
        shutil.rmtree(output)
    result = run([trackc, "generate", plan, "--output", output, "--single-file", "--module", "SizeApp"])
    if result.returncode:
        fail(f"trackc generate {plan}:\n{result.stdout}{result.stderr}")


class Runtime:
    """TrackcLinks and TrackcRuntime, compiled once: Swift 6, as the package compiles them."""

    def __init__(self, kit: Kit, out: Path):
        out.mkdir(parents=True, exist_ok=True)
        self.out = out
        for name in ("TrackcLinks", "TrackcRuntime"):
            errors = kit.compile(name, swift_files(ROOT / "Sources" / name) + [str(kit.shims)], out, "6")
            if errors:
                fail(f"{name} does not compile for iOS:\n{errors}")
        self.objects = [out / "TrackcLinks.o", out / "TrackcRuntime.o"]


def stand_in(name: str) -> Path:
    """The folder holding the stand-in module NAME (STAND_INS), for -I."""
    folder = WORK / "stand-ins"
    module = folder / name
    module.mkdir(parents=True, exist_ok=True)
    files = {f"{name}.h": STAND_INS[name], "module.modulemap": f'module {name} {{\n    header "{name}.h"\n    export *\n}}\n'}
    for file, text in files.items():
        if not (module / file).exists() or (module / file).read_text() != text:
            (module / file).write_text(text)
    return module


def no_autolink(libraries: list) -> list:
    """swiftc flags that keep an object from asking the linker for these libraries (a module's `link`)."""
    return [argument for name in libraries for argument in ("-Xfrontend", "-disable-autolink-library", "-Xfrontend", name)]


def build_app(kit: Kit, name: str, files: list, out: Path, modules: Path, objects: list, swift_version="6", more_modules=(), undefined=(), flags=()) -> tuple:
    out.mkdir(parents=True, exist_ok=True)
    includes = [argument for folder in (modules, *more_modules) for argument in ("-I", folder)]
    errors = kit.compile("SizeApp", files, out, swift_version, includes + list(flags))
    if errors:
        return None, f"the app does not compile: {errors}"
    errors = kit.link([*objects, out / "SizeApp.o"], out / name, undefined)
    if errors:
        return None, f"does not link: {errors}"
    return out / name, None


def libraries(kit: Kit, runtime: Runtime, trackc: Path) -> None:
    apps = {}
    problems = {}
    notes = {}
    plain, error = build_app(kit, "Plain", swift_files(HERE / "Apps" / "Plain"), WORK / "apps" / "Plain", WORK, [])
    if error:
        fail(f"the app without analytics: {error}")
    apps["without analytics"] = plain

    generated = WORK / "apps" / "Trackc" / "generated"
    generate(trackc, HERE / "Apps" / "Trackc" / "tracking.yaml", generated)
    binary, error = build_app(
        kit, "Trackc", swift_files(HERE / "Apps" / "Trackc") + swift_files(generated), WORK / "apps" / "Trackc", runtime.out, runtime.objects)
    if error:
        fail(f"the app with trackc: {error}")
    apps["TrackcRuntime"] = binary

    for key, library in LIBRARIES.items():
        out = WORK / "lib" / key
        out.mkdir(parents=True, exist_ok=True)
        tags = resolved_tags(library)
        objects, error = [], None
        for module, repository, folder in library["modules"]:
            sources = checkout(repository, tags[repository], folder)
            flags = [argument for name in library.get("stand_ins", {}).get(module, []) for argument in ("-I", stand_in(name))]
            flags += no_autolink(library.get("no_autolink", {}).get(module, []))
            error = kit.compile(module, swift_files(sources), out, "5", flags)
            if error:
                error = f"{module} ({repository} {tags[repository]}) does not compile for the kit's iOS 17.4 SDK:\n{error}"
                break
            objects.append(out / f"{module}.o")
        main_repository = next(iter(library["repositories"]))
        title = library["title"] + " with " + ", ".join(f"{r.split('/')[1]} {t}" for r, t in tags.items() if r != main_repository)
        if not error:
            binary, error = build_app(
                kit, library["app"], swift_files(HERE / "Apps" / library["app"]), WORK / "apps" / library["app"], out, objects, "5",
                # The app imports the library's module, which names its imports' modules: the stand-ins too.
                [stand_in(name) for names in library.get("stand_ins", {}).values() for name in names], library.get("undefined", {}),
                no_autolink([name for names in library.get("no_autolink", {}).values() for name in names]))
        if error:
            problems[title] = error
        else:
            apps[title] = binary
            if library.get("undefined"):
                notes[title] = library

    sizes = {name: segments(binary) for name, binary in apps.items()}
    floor = sizes["without analytics"]
    print(f"An arm64 iOS app tracking one event with the user identified (-Osize -wmo, -dead_strip, iOS {IOS}), bytes:\n")
    print(f"| app | __TEXT | __DATA* | file | added: __TEXT | __DATA* | file |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, size in sizes.items():
        added = [size[k] - floor[k] for k in ("__TEXT", "__DATA*", "file")]
        print(f"| {name} | {size['__TEXT']:,} | {size['__DATA*']:,} | {size['file']:,} | " + " | ".join(f"{a:+,}" for a in added) + " |")
    trackc_added = sizes["TrackcRuntime"]["__TEXT"] + sizes["TrackcRuntime"]["__DATA*"] - floor["__TEXT"] - floor["__DATA*"]
    for name, size in sizes.items():
        if name not in ("without analytics", "TrackcRuntime"):
            other = size["__TEXT"] + size["__DATA*"] - floor["__TEXT"] - floor["__DATA*"]
            print(f"\ntrackc adds {trackc_added / other:.2f}x what {name} adds (__TEXT + __DATA*)")
    for name, problem in problems.items():
        print(f"\nnot measured: {name}: {problem}")
    for name, library in notes.items():
        print(f"\n{name}: built against stand-ins of what the kit's SDK lacks, declarations only, 0 bytes of code of their own: "
              + ", ".join(f"{n} ({WORK.relative_to(ROOT) / 'stand-ins' / n})" for names in library.get("stand_ins", {}).values() for n in names) + ".")
        unresolved = undefined_symbols(apps[name])
        by_library = {}
        for symbol, owner in library["undefined"].items():
            by_library.setdefault(owner, []).append(symbol + ("" if symbol in unresolved else " (not referenced)"))
        print("Left undefined in its link (-U), defined only by the real libraries:")
        for owner, symbols in by_library.items():
            print(f"  {owner}: " + ", ".join(symbols))
        unexpected = sorted(unresolved - set(library["undefined"]) - {"_swift_coroFrameAlloc"})
        if unexpected:
            print(f"  and, unexpectedly: {', '.join(unexpected)}")

    # trackc's share, by part of the runtime.
    types = declared_types()
    parts = {}
    for symbol, size in symbol_sizes(apps["TrackcRuntime"]):
        if "TrackcRuntime" in symbol or "TrackcLinks" in symbol:
            part = part_of(symbol, types)
        elif "SizeApp." in symbol:
            part = "the app and its generated registry (SizeApp)"
        else:
            part = "the rest: the app's UIKit side, standard library and Foundation code specialized for it"
        parts[part] = parts.get(part, 0) + size
    print("\nThe app with trackc, __TEXT and __DATA* by the part of trackc the symbols belong to, bytes:\n")
    print("| part | bytes |")
    print("| --- | ---: |")
    for part, size in sorted(parts.items(), key=lambda item: -item[1]):
        print(f"| {part} | {size:,} |")
    print(f"| (sections without symbols: strings, unwind tables, ...; and the symbols' alignment) | {sizes['TrackcRuntime']['__TEXT'] + sizes['TrackcRuntime']['__DATA*'] - sum(parts.values()):,} |")


def plan(events: int, interception: str) -> tuple:
    """A plan of EVENTS control events, ten handlers a screen, and the screens' Swift source."""
    screens = max(1, (events + 9) // 10)
    yaml = ["# Written by Benchmarks/size/bench.py.", "version: 1", "sources: [.]", f"interception: {interception}"]
    yaml += ["destinations:", "  warehouse: {}", "screens:"]
    swift = ["// Written by Benchmarks/size/bench.py.", "import UIKit", ""]
    for s in range(screens):
        yaml += [f"  Screen{s:04d}ViewController:", "    control_events:"]
        swift += [f"public final class Screen{s:04d}ViewController: UIViewController {{"]
        for h in range(min(10, events - s * 10)):
            yaml.append(f"      onAction{h}(_:): {{event: CTRL_S{s:04d}_ACTION{h}, properties: {{source: screen_{s}, position: {h}}}}}")
            swift.append(f"  @objc public func onAction{h}(_ sender: Any) {{}}")
        swift += ["}", ""]
    return "\n".join(yaml) + "\n", "\n".join(swift)


def plan_app(tracking_module: str) -> str:
    return f"""// Written by Benchmarks/size/bench.py.
import {tracking_module}
import TrackcRuntime
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {{
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {{
    _ = try? Trackc.start(Tracking.registry, endpoint: URL(string: "https://collector.example.com")!)
    return true
  }}
}}
"""


def build_plan(kit: Kit, runtime: Runtime, trackc: Path, events: int, interception: str) -> dict:
    """The app with a plan of EVENTS events: its screens in a module (SizeScreens), the generated code in
    another (SizeTracking), as a package with either interception compiles them."""
    folder = WORK / "generated" / f"{interception}-{events}"
    screens = folder / "Sources" / "SizeScreens"
    screens.mkdir(parents=True, exist_ok=True)
    yaml, swift = plan(events, interception)
    (screens / "tracking.yaml").write_text(yaml)
    (screens / "Screens.swift").write_text(swift)
    generated = folder / "Sources" / "SizeTracking"
    if generated.exists():
        shutil.rmtree(generated)
    result = run([trackc, "generate", screens / "tracking.yaml", "--output", generated, "--module", "SizeScreens"])
    if result.returncode:
        fail(f"trackc generate, {events} events:\n{result.stdout}{result.stderr}")
    out = folder / "build"
    out.mkdir(parents=True, exist_ok=True)
    replaceable = ["-Xfrontend", "-enable-implicit-dynamic"] if interception == "dynamic-replacement" else []
    replacing = ["-Xfrontend", "-enable-dynamic-replacement-chaining"] if interception == "dynamic-replacement" else []
    for module, files, flags in (
        ("SizeScreens", [str(screens / "Screens.swift")], replaceable),
        ("SizeTracking", swift_files(generated), ["-I", runtime.out, *replacing]),
    ):
        errors = kit.compile(module, files, out, "6", flags)
        if errors:
            fail(f"{module}, {events} events ({interception}):\n{errors}")
    (folder / "App.swift").write_text(plan_app("SizeTracking"))
    binary, error = build_app(
        kit, "App", [str(folder / "App.swift")], folder / "app", out, [*runtime.objects, out / "SizeScreens.o", out / "SizeTracking.o"],
        more_modules=[runtime.out])
    if error:
        fail(f"the app of {events} events ({interception}): {error}")
    # The same screens as the app compiles them without trackc, in an app that does not start it.
    plain = folder / "plain"
    plain.mkdir(parents=True, exist_ok=True)
    errors = kit.compile("SizeScreens", [str(screens / "Screens.swift")], plain, "6")
    if errors:
        fail(f"SizeScreens, {events} events, without trackc:\n{errors}")
    (folder / "PlainApp.swift").write_text(PLAIN_APP)
    without, error = build_app(kit, "App", [str(folder / "PlainApp.swift")], folder / "plain-app", plain, [plain / "SizeScreens.o"])
    if error:
        fail(f"the app of {events} events' screens, without trackc: {error}")
    return segments(binary), segments(without)


PLAIN_APP = """// Written by Benchmarks/size/bench.py.
import SizeScreens
import UIKit

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
  func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
    true
  }
}
"""


def generated_weight(kit: Kit, runtime: Runtime, trackc: Path, counts: list) -> None:
    """The same app with plans of COUNTS events: what the generated code adds per event, over the smallest
    plan, less what the screens themselves grow by (measured in an app without trackc)."""
    print("\nThe code trackc generates for a plan (control events, one a handler, ten a screen, two static")
    print("properties each), linked into the same app beside the screens it hooks, bytes:\n")
    print("| interception | events (= hooked handlers) | app: __TEXT | __DATA* | file | the screens alone: __TEXT + __DATA* | trackc's code per event, over the smallest plan: __TEXT + __DATA* | file |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for interception in ("objc-runtime", "dynamic-replacement"):
        rows = [(events, *build_plan(kit, runtime, trackc, events, interception)) for events in counts]
        base_events, base, base_plain = rows[0]
        for events, size, plain in rows:
            per = ("", "")
            if events != base_events:
                grown = (size["__TEXT"] + size["__DATA*"]) - (base["__TEXT"] + base["__DATA*"])
                screens = (plain["__TEXT"] + plain["__DATA*"]) - (base_plain["__TEXT"] + base_plain["__DATA*"])
                file = (size["file"] - base["file"]) - (plain["file"] - base_plain["file"])
                per = (f"{(grown - screens) / (events - base_events):,.0f}", f"{file / (events - base_events):,.0f}")
            print(
                f"| {interception} | {events:,} | {size['__TEXT']:,} | {size['__DATA*']:,} | {size['file']:,} | "
                f"{plain['__TEXT'] + plain['__DATA*']:,} | {per[0]} | {per[1]} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["libraries", "generated"])
    parser.add_argument("--events", default="10,100,1000")
    arguments = parser.parse_args()
    for tool in ("llvm-size", "llvm-nm", "llvm-objdump"):
        if shutil.which(tool) is None:
            fail(f"no {tool} (apt-get install llvm)")
    kit = Kit(find_kit())
    WORK.mkdir(parents=True, exist_ok=True)
    runtime = Runtime(kit, WORK / "runtime")
    trackc = trackc_binary()
    if arguments.only != "generated":
        libraries(kit, runtime, trackc)
    if arguments.only != "libraries":
        generated_weight(kit, runtime, trackc, [int(n) for n in arguments.events.split(",")])


if __name__ == "__main__":
    main()
