#!/usr/bin/env python3
"""Benchmark: what the build plugin costs an app's build, with the tool SwiftPM builds for it (debug).

    python3 Benchmarks/plugin/bench.py [--products trackc-plugin-tool,trackc] [--runs N] [--skip-build DIR]

SwiftPM builds a plugin's tool from source, in debug, in the first build of every app that uses the
plugin, and runs that debug build at every build that regenerates. For each product (default: the
plugins' tool `trackc-plugin-tool` and, beside it, the whole command line `trackc`, which the plugins ran
before they had a tool of their own) it reports:

- the Swift modules its debug build compiles (the `.swiftmodule`s of the build);
- its cold debug build: wall and CPU time (user + system of every compiler process) of
  `swift build --product <product>` in a fresh scratch directory, from a copy of the committed tree, the
  dependencies' checkouts copied in (resolving is not timed);
- with the debug tool, what the build plugin runs (`generate <plan> --output ... --single-file --cache-dir
  ...`), medians of N runs by hyperfine: on the Shop example and on a generated app of 1,000 Swift files
  (Benchmarks/scan/generate_tree.py), with an empty scan cache (a first build, or a clean one) and with
  the cache in place (a build after an edit to the plan);
- the load average beside each figure: the machine is shared, and wall times follow its load; CPU time
  moves less.

`--skip-build DIR` measures the generate runs with the debug tools in DIR (a build's `--show-bin-path`).
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


def load():
    with open("/proc/loadavg") as file:
        return " ".join(file.read().split()[:3])


def cold_build(product):
    """A copy of the committed tree and a fresh scratch path: (modules, wall s, CPU s, load before, load after, bin path)."""
    source = os.path.join(WORK, f"source-{product}")
    scratch = os.path.join(WORK, f"build-{product}")
    for directory in (source, scratch):
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True, capture_output=True).stdout
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
    run(["swift", "build", "--product", product, "--scratch-path", scratch], cwd=source, stdout=subprocess.DEVNULL)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic() - started
    cpu = (usage.ru_utime - usage_before.ru_utime) + (usage.ru_stime - usage_before.ru_stime)
    after = load()
    modules = sorted(name[: -len(".swiftmodule")] for name in os.listdir(os.path.join(scratch, "debug", "Modules")) if name.endswith(".swiftmodule"))
    return modules, wall, cpu, before, after, os.path.join(scratch, "debug")


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
    parser.add_argument("--products", default="trackc-plugin-tool,trackc")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--skip-build", metavar="DIR")
    options = parser.parse_args()
    products = options.products.split(",")
    os.makedirs(WORK, exist_ok=True)

    tools = {}
    for product in products:
        if options.skip_build:
            tools[product] = os.path.join(options.skip_build, product)
            continue
        modules, wall, cpu, before, after, binaries = cold_build(product)
        tools[product] = os.path.join(binaries, product)
        nio = [name for name in modules if "NIO" in name]
        print(f"{product}: {len(modules)} Swift modules ({len(nio)} of NIO); cold debug build {wall:.0f} s wall, {cpu:.0f} s CPU; "
              f"load {before} -> {after}")
        print(f"  modules: {' '.join(modules)}")

    tree = os.path.join(WORK, f"generated-{options.files}")
    if not os.path.exists(os.path.join(tree, "tracking.yaml")):
        run([sys.executable, os.path.join(ROOT, "Benchmarks", "scan", "generate_tree.py"), tree, "--files", str(options.files), "--seed", "1"])
    plans = {"Shop": os.path.join(ROOT, "Examples", "Shop", "tracking.yaml"), f"{options.files} files": os.path.join(tree, "tracking.yaml")}
    for product, tool in tools.items():
        for name, plan in plans.items():
            out = os.path.join(WORK, f"out-{product}")
            cache = os.path.join(out, "cache")
            # What TrackcBuildPlugin runs.
            command = f"'{tool}' generate '{plan}' --output '{out}/Generated' --single-file --cache-dir '{cache}'"
            cold = hyperfine(command, options.runs, prepare=f"rm -rf '{cache}'")
            warm = hyperfine(command, options.runs)
            print(f"{product} (debug) generate, {name}: empty cache {cold[0]:.2f} s (min {cold[1]:.2f}, max {cold[2]:.2f}; load {cold[3]} -> {cold[4]}), "
                  f"cache in place {warm[0]:.2f} s (min {warm[1]:.2f}, max {warm[2]:.2f}; load {warm[3]} -> {warm[4]})")


if __name__ == "__main__":
    main()
