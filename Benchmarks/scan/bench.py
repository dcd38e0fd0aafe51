#!/usr/bin/env python3
"""Benchmark: `trackc scan` and `trackc lint` over real Swift code (release build).

    python3 Benchmarks/scan/bench.py [--runs N] [--skip-build]

Builds (release) the benchmark package beside this script, Benchmarks/scan/Package.swift: trackc from the
root package, and the baseline `trackc-parse-bench`, in one build directory.

The tree is four packages from the local mirror, cloned at fixed versions into Benchmarks/.work/scan-tree:
swift-nio 2.101.3, vapor 4.122.3, swift-nio-http2 1.46.0 and swift-nio-ssl 2.37.6 (about 1,050 files,
11 MB of Swift). Measured, each as the median of N runs:

- bare parse: swift-syntax parsing every file once, single-threaded (`trackc-parse-bench`), divided by
  the core count: the floor that a parallel scan can approach;
- cold scan: `trackc scan` with an empty cache (parsing in worker processes, writing the cache and the
  registry), and with `--no-cache`;
- warm scan: `trackc scan` over the unchanged tree, every file from the cache;
- lint: `trackc lint` of a config mapping every class of the tree that has methods (up to three handlers
  each), cold and warm.

Targets (issue 3): warm lint over 1,000+ files under 150 ms end to end; cold scan within 1.5x of the bare
parse divided by the cores. Machine noise is real on a shared 2-core box: read medians and ratios.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "Benchmarks", ".work")
TREE = os.path.join(WORK, "scan-tree")
MIRROR = "/opt/swift-packages"
PACKAGES = [
    ("apple/swift-nio", "2.101.3"),
    ("vapor/vapor", "4.122.3"),
    ("apple/swift-nio-http2", "1.46.0"),
    ("apple/swift-nio-ssl", "2.37.6"),
]


def run(command, **kwargs):
    print("$", " ".join(command), file=sys.stderr)
    return subprocess.run(command, check=True, **kwargs)


def measure(command, allow=(0,)):
    """Wall seconds and peak RSS (KiB, the process and its waited-for workers) of one run."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = process.communicate()
    elapsed = time.perf_counter() - start
    if process.returncode not in allow:
        sys.exit(f"{' '.join(command)} exited {process.returncode}: {stderr.decode(errors='replace')[-2000:]}")
    return elapsed, stdout.decode(errors="replace"), stderr.decode(errors="replace")


def measure_rss(command, allow=(0,)):
    """Like measure, with peak RSS from wait4 (children included once reaped)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in allow:
        sys.exit(f"{' '.join(command)} exited {code}")
    return elapsed, usage.ru_maxrss


def clone_tree():
    os.makedirs(TREE, exist_ok=True)
    for name, version in PACKAGES:
        destination = os.path.join(TREE, name.split("/")[1])
        if os.path.isdir(destination):
            continue
        run(["git", "-c", "advice.detachedHead=false", "clone", "--quiet", "--depth", "1", "--branch", version,
             f"file://{MIRROR}/{name}.git", destination])


def swift_files():
    files = []
    for directory, subdirectories, names in os.walk(TREE):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
        files += [os.path.join(directory, n) for n in sorted(names) if n.endswith(".swift")]
    return files


def make_config(registry_path, config_path):
    """A config over the tree: every class with instance methods, up to three handlers each, named in the
    form the registry gives (module-qualified where a name is declared in several modules)."""
    registry = json.load(open(registry_path))
    declared = {}
    for t in registry["types"]:
        if t["kind"] != "external":
            declared[t["name"]] = declared.get(t["name"], 0) + 1
    lines = ["version: 1", f"sources: [{os.path.relpath(TREE, os.path.dirname(config_path))}]",
             "interception: dynamic-replacement", "screens:"]
    screens = handlers = 0
    for t in registry["types"]:
        if t["kind"] != "class" or t["isGeneric"]:
            continue
        names = [m["name"] for m in t["methods"]
                 if not m["isStatic"] and m["access"] not in ("private", "fileprivate") and not m["inGenericContext"]]
        unique = [n for n in dict.fromkeys(names) if names.count(n) == 1][:3]
        if not unique:
            continue
        if declared[t["name"]] > 1 and "module" not in t:
            continue
        key = t["name"] if declared[t["name"]] == 1 else f"{t['module']}.{t['name']}"
        screens += 1
        lines.append(f"  '{key}':")
        lines.append("    control_events:")
        for index, name in enumerate(unique):
            handlers += 1
            lines.append(f"      '{name}': EVENT_{screens}_{index}")
    open(config_path, "w").write("\n".join(lines) + "\n")
    return screens, handlers


def median(values):
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()

    clone_tree()
    if not args.skip_build:
        run(["swift", "build", "-c", "release", "--product", "trackc"], cwd=HERE)
        run(["swift", "build", "-c", "release", "--product", "trackc-parse-bench"], cwd=HERE)
    binary = run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=HERE,
                 capture_output=True, text=True).stdout.strip()
    trackc = os.path.join(binary, "trackc")
    parse_bench = os.path.join(binary, "trackc-parse-bench")
    cores = os.cpu_count() or 1

    files = swift_files()
    list_path = os.path.join(WORK, "scan-files.txt")
    open(list_path, "w").write("\n".join(files) + "\n")
    total_bytes = sum(os.path.getsize(f) for f in files)
    registry = os.path.join(WORK, "scan-registry.json")
    config = os.path.join(WORK, "scan-config.yaml")
    cache = os.path.join(WORK, "scan-cache")

    # Prime the page cache and produce the registry the config is made from.
    run([trackc, "scan", TREE, "--no-cache", "--output", registry], capture_output=True)
    screens, handlers = make_config(registry, config)

    bare, cold, uncached, warm, lint_cold, lint_warm = [], [], [], [], [], []
    rss = {"cold scan": 0, "warm scan": 0, "warm lint": 0}
    for _ in range(args.runs):
        _, out, _ = measure([parse_bench, list_path])
        bare.append(float(out.split("seconds ")[1].split()[0]))

        shutil.rmtree(cache, ignore_errors=True)
        seconds, peak = measure_rss([trackc, "scan", TREE, "--cache-dir", cache, "--output", registry])
        cold.append(seconds)
        rss["cold scan"] = max(rss["cold scan"], peak)
        seconds, peak = measure_rss([trackc, "scan", TREE, "--cache-dir", cache, "--output", registry])
        warm.append(seconds)
        rss["warm scan"] = max(rss["warm scan"], peak)
        uncached.append(measure([trackc, "scan", TREE, "--no-cache", "--output", registry])[0])

        shutil.rmtree(cache, ignore_errors=True)
        lint_cold.append(measure([trackc, "lint", config, "--cache-dir", cache], allow=(0, 1))[0])
        seconds, peak = measure_rss([trackc, "lint", config, "--cache-dir", cache], allow=(0, 1))
        lint_warm.append(seconds)
        rss["warm lint"] = max(rss["warm lint"], peak)

    _, lint_output, _ = measure([trackc, "lint", config, "--cache-dir", cache], allow=(0, 1))
    findings = len([line for line in lint_output.splitlines() if ": error: " in line or ": warning: " in line])

    floor = median(bare) / cores
    packages = ", ".join(name.split("/")[1] + " " + version for name, version in PACKAGES)
    print(f"\ntree: {len(files)} Swift files, {total_bytes / 1e6:.1f} MB ({packages}); {cores} cores; {args.runs} runs, medians")
    print(f"config: {screens} screens, {handlers} handlers ({findings} findings)\n")
    rows = [
        ("bare swift-syntax parse, 1 thread", median(bare)),
        (f"  / {cores} cores (the floor)", floor),
        ("trackc scan, cold (empty cache)", median(cold)),
        ("trackc scan --no-cache", median(uncached)),
        ("trackc scan, warm (all cached)", median(warm)),
        ("trackc lint, cold", median(lint_cold)),
        ("trackc lint, warm", median(lint_warm)),
    ]
    for name, seconds in rows:
        print(f"{name:38} {seconds * 1000:9.1f} ms  {len(files) / seconds:9.0f} files/s")
    print(f"\ncold scan / floor:   {median(cold) / floor:.2f}x (target <= 1.5x)")
    print(f"--no-cache / floor:  {median(uncached) / floor:.2f}x")
    print(f"warm lint:           {median(lint_warm) * 1000:.1f} ms (target < 150 ms over 1,000+ files)")
    print("peak RSS: " + ", ".join(f"{name} {kib / 1024:.1f} MB" for name, kib in rss.items()))


if __name__ == "__main__":
    main()
