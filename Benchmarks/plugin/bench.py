#!/usr/bin/env python3
"""Benchmark: what the plugins cost an app's build, with the tool SwiftPM builds for them (debug).

    python3 Benchmarks/plugin/bench.py [--baseline REVISION] [--runs N] [--files N] [--tool NAME=PATH]...

SwiftPM builds a plugin's tool from source, in debug, in the first build of every app that uses the
plugin, and runs that debug build at every build that regenerates. For the committed tree (HEAD) and,
with `--baseline`, an earlier revision (before the plugins had a tool of their own, they ran `trackc`,
collector included), it reports:

- the tool's cold debug build, as an app's first build pays it: `swift package trackc lint` (the command
  plugin, whose tool is the build plugin's) in a fresh scratch directory, from a copy of the revision's
  tree, the dependencies' checkouts copied in (resolving is not timed); wall time, CPU time (user +
  system of every compiler process), and the Swift modules it compiled (`.swiftmodule`s of the build),
  those of NIO counted apart;
- with that debug tool, what the build plugin runs (`generate <plan> --output ... --single-file
  --cache-dir ...`), medians of N runs by hyperfine: on the Shop example and on a generated app of 1,000
  Swift files (Benchmarks/scan/generate_tree.py), with an empty scan cache (a first build, or a clean
  one) and with the cache in place (a build after an edit to the plan);
- the load average beside each figure: the machine is shared, and wall times follow its load; CPU time
  moves less.

`--tool NAME=PATH` (repeatable) times the generate runs with the given debug executables instead of
building any.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "Benchmarks", ".work", "plugin")


def run(command, **kwargs):
    print("$", " ".join(command), file=sys.stderr)
    return subprocess.run(command, check=True, **kwargs)


GENERATE_PLAN = """version: 1
sources: [Sources]
interception: objc-runtime
screens:
  Feature000.Feature000Screen4ViewController:
    page_events: {enter: PAGE_SCREEN4_ENTER}
    control_events:
      "didTapItem0:": CTRL_SCREEN4_ITEM0
"""


def load():
    with open("/proc/loadavg") as file:
        return " ".join(file.read().split()[:3])


def cold_build(revision):
    """The plugins' tool of `revision`, built cold: (modules, wall s, CPU s, load before, load after, tool path)."""
    source = os.path.join(WORK, f"source-{revision}")
    scratch = os.path.join(WORK, f"build-{revision}")
    for directory in (source, scratch):
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", source], input=archive, check=True)
    # The dependencies as they are resolved here, so that the build neither fetches nor resolves anew.
    for name in ("repositories", "checkouts", "workspace-state.json"):
        origin = os.path.join(ROOT, ".build", name)
        if os.path.isdir(origin):
            shutil.copytree(origin, os.path.join(scratch, name), symlinks=True)
        elif os.path.exists(origin):
            shutil.copy2(origin, scratch)
    if os.path.exists(os.path.join(ROOT, "Package.resolved")):
        shutil.copy2(os.path.join(ROOT, "Package.resolved"), source)
    run(["swift", "package", "resolve", "--scratch-path", scratch], cwd=source, stdout=subprocess.DEVNULL)
    before = load()
    started = time.monotonic()
    usage_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # The command plugin builds its tool (for the host) and nothing else; the build plugin's is the same.
    run(["swift", "package", "--scratch-path", scratch, "--allow-writing-to-package-directory", "trackc", "lint", "--config", "Examples/Shop/tracking.yaml"],
        cwd=source, stdout=subprocess.DEVNULL)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic() - started
    cpu = (usage.ru_utime - usage_before.ru_utime) + (usage.ru_stime - usage_before.ru_stime)
    after = load()
    modules, tool = set(), None
    for directory, _, files in os.walk(scratch):
        # The compiler's cache of the system's modules (Glibc, _Concurrency, ...) is not the build's.
        if "/checkouts" in directory or "/repositories" in directory or "/ModuleCache" in directory:
            continue
        modules.update(name[: -len(".swiftmodule")] for name in files if name.endswith(".swiftmodule"))
        # The host tool SwiftPM built for the plugin: `<executable>-tool`.
        for name in files:
            if name in ("trackc-tool", "trackc-plugin-tool-tool"):
                tool = os.path.join(directory, name)
    return sorted(modules), wall, cpu, before, after, tool


def hyperfine(command, runs, prepare=None):
    """Median, min and max in seconds of `command` (a shell string), with the load before and after."""
    with tempfile.NamedTemporaryFile(suffix=".json") as export:
        arguments = ["hyperfine", "--runs", str(runs), "--export-json", export.name, "--style", "none", "--shell", "bash"]
        if prepare:
            arguments += ["--prepare", prepare]
        before = load()
        run(arguments + [command], stdout=subprocess.DEVNULL)
        after = load()
        result = json.load(open(export.name))["results"][0]
    return result["median"], min(result["times"]), max(result["times"]), before, after


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", metavar="REVISION")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--plans", default="Shop,files", help="which plans to time: Shop, files (the generated tree), or both")
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--tool", action="append", default=[], metavar="NAME=PATH")
    options = parser.parse_args()
    revisions = ["HEAD"] + ([options.baseline] if options.baseline else [])
    os.makedirs(WORK, exist_ok=True)

    tools = dict(tool.split("=", 1) for tool in options.tool)
    for revision in revisions if not tools else []:
        modules, wall, cpu, before, after, tool = cold_build(revision)
        tools[revision] = tool
        nio = [name for name in modules if "NIO" in name]
        print(f"{revision}: the plugins' tool {os.path.basename(tool)}: {len(modules)} Swift modules ({len(nio)} of NIO); "
              f"cold debug build {wall:.0f} s wall, {cpu:.0f} s CPU; load {before} -> {after}")
        print(f"  modules: {' '.join(modules)}")

    tree = os.path.join(WORK, f"generated-{options.files}")
    if not os.path.exists(os.path.join(tree, "tracking.yaml")):
        run([sys.executable, os.path.join(ROOT, "Benchmarks", "scan", "generate_tree.py"), tree, "--files", str(options.files), "--seed", "1"])
    # The tree's own plan is the lint benchmark's, with findings on purpose, so generate would stop at
    # them: this plan lints clean, and generate still parses every file of the tree to check it.
    with open(os.path.join(tree, "generate.yaml"), "w") as file:
        file.write(GENERATE_PLAN)
    # A copy of the Shop: generate writes the plan's platform files beside it.
    shop = os.path.join(WORK, "shop")
    shutil.rmtree(shop, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "Examples", "Shop"), shop, ignore=shutil.ignore_patterns(".build"))
    plans = {"Shop": os.path.join(shop, "tracking.yaml"), f"{options.files} files": os.path.join(tree, "generate.yaml")}
    chosen = options.plans.split(",")
    plans = {name: plan for name, plan in plans.items() if name.split()[-1] in chosen}
    for label, tool in tools.items():
        for name, plan in plans.items():
            out = os.path.join(WORK, f"out-{label}")
            cache = os.path.join(out, "cache")
            # What TrackcBuildPlugin runs.
            command = f"'{tool}' generate '{plan}' --output '{out}/Generated' --single-file --cache-dir '{cache}'"
            cold = hyperfine(command, options.runs, prepare=f"rm -rf '{cache}'")
            warm = hyperfine(command, options.runs)
            print(f"{label} (debug) generate, {name}: empty cache {cold[0]:.2f} s (min {cold[1]:.2f}, max {cold[2]:.2f}; load {cold[3]} -> {cold[4]}), "
                  f"cache in place {warm[0]:.2f} s (min {warm[1]:.2f}, max {warm[2]:.2f}; load {warm[3]} -> {warm[4]})")


if __name__ == "__main__":
    main()
