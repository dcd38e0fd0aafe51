#!/usr/bin/env python3
"""Benchmark: `trackc init` and `trackc lint --sources` over a real app's sources (release build).

    python3 Benchmarks/scan/app.py <app directory> [--runs N] [--skip-build]

The app is not part of this repository: clone one first, for example DuckDuckGo's iOS browser
(1,202 Swift files, 164,000 lines; measured at commit 7b3f6010d):

    git clone https://github.com/duckduckgo/iOS /tmp/duckduckgo-ios

Builds trackc in release mode (with the scan benchmark's package beside this script, as bench.py does),
then reports:

- the app: Swift files and lines;
- what `trackc init` finds, by kind (view controllers, hosting controllers among them, SwiftUI screens,
  view models), and an independent count of the same by count_screens.py (its own reading of the
  sources as text: see its header), with the difference;
- `trackc init` cold (empty cache) and warm;
- `trackc lint <the config init wrote> --sources <app>`: cold (empty cache) and warm, medians of N runs,
  beside the floor: swift-syntax parsing every file once on one thread (`trackc-parse-bench`), divided by
  the cores;
- the load average before and after (the machine is shared: figures are noisy).

Targets: init's screens within 5% of the independent count; warm lint <= 150 ms, cold <= 1 s.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "Benchmarks", ".work", "app")


def run(command, **kwargs):
    print("$", " ".join(command), file=sys.stderr)
    return subprocess.run(command, check=True, **kwargs)


def timed(command, allow=(0,)):
    start = time.perf_counter()
    process = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if process.returncode not in allow:
        sys.exit(f"{' '.join(command)} exited {process.returncode}: {process.stderr[-2000:]}")
    return elapsed, process.stdout, process.stderr


def loadavg():
    with open("/proc/loadavg") as file:
        return " ".join(file.read().split()[:3])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("app")
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    app = os.path.abspath(args.app)
    if not os.path.isdir(app):
        sys.exit(f"no such directory: {app}")

    if not args.skip_build:
        run(["swift", "build", "-c", "release", "--product", "trackc"], cwd=HERE)
        run(["swift", "build", "-c", "release", "--product", "trackc-parse-bench"], cwd=HERE)
    binary = run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=HERE, capture_output=True, text=True).stdout.strip()
    trackc = os.path.join(binary, "trackc")
    parse_bench = os.path.join(binary, "trackc-parse-bench")
    os.makedirs(WORK, exist_ok=True)
    swift_files = []
    for directory, subdirectories, names in os.walk(app):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
        swift_files += [os.path.join(directory, n) for n in sorted(names) if n.endswith(".swift")]
    file_list = os.path.join(WORK, "files.txt")
    with open(file_list, "w") as out:
        out.write("\n".join(swift_files) + "\n")
    config = os.path.join(WORK, "tracking.yaml")
    cache = os.path.join(WORK, "cache")
    load_before = loadavg()

    # The independent count, and trackc init (cold, then warm).
    independent = json.loads(run([sys.executable, os.path.join(HERE, "count_screens.py"), app, "--json"], capture_output=True, text=True).stdout)
    shutil.rmtree(cache, ignore_errors=True)
    init_cold, _, init_output = timed([trackc, "init", "--sources", app, "--output", config, "--force", "--cache-dir", cache])
    init_warm, _, _ = timed([trackc, "init", "--sources", app, "--output", config, "--force", "--cache-dir", cache])
    summary = re.search(
        r"(\d+) Swift files: (\d+) screens \((\d+) view controllers? \((\d+) hosting\), (\d+) SwiftUI screens? \((\d+) hosted\), (\d+) view models?\)",
        init_output)
    if not summary:
        sys.exit(f"cannot read trackc init's summary: {init_output}")
    files, _, controllers, hosting, views, hosted, models = map(int, summary.groups())

    # trackc lint --sources, over the config init wrote: cold (empty cache) and warm.
    cold, warm, bare = [], [], []
    for _ in range(args.runs):
        bare.append(float(timed([parse_bench, file_list])[1].split("seconds ")[1].split()[0]))
        shutil.rmtree(cache, ignore_errors=True)
        cold.append(timed([trackc, "lint", config, "--sources", app, "--cache-dir", cache], allow=(0, 1))[0])
        warm.append(timed([trackc, "lint", config, "--sources", app, "--cache-dir", cache], allow=(0, 1))[0])
    _, lint_output, _ = timed([trackc, "lint", config, "--sources", app, "--cache-dir", cache], allow=(0, 1))
    findings = len([line for line in lint_output.splitlines() if ": error: " in line or ": warning: " in line])
    load_after = loadavg()

    screens = controllers + views
    counted = independent["view controllers"] + independent["SwiftUI screens"]
    difference = (screens - counted) / counted * 100 if counted else 0.0
    print(f"\napp: {app}: {independent['files']} Swift files ({files} read by trackc), {independent['lines']:,} lines")
    print(f"{os.cpu_count()} cores; load average {load_before} before, {load_after} after; lint medians of {args.runs} runs\n")
    print(f"{'':34}{'trackc init':>14}{'independent':>14}")
    rows = [
        ("view controllers", controllers, independent["view controllers"]),
        ("  of which hosting controllers", hosting, independent["hosting controllers"]),
        ("SwiftUI screens", views, independent["SwiftUI screens"]),
        ("  of which hosted (objc-runtime)", hosted, None),
        ("view models", models, independent["view models"]),
        ("screens (controllers + SwiftUI)", screens, counted),
    ]
    for name, ours, theirs in rows:
        print(f"{name:34}{ours:>14}{theirs if theirs is not None else '':>14}")
    print(f"\n(SwiftUI views in all, components included: {independent['SwiftUI views']}; base view controller classes: "
          f"{independent['base view controller classes']})")
    print(f"difference: {difference:+.1f}% (target within 5%)\n")
    print(f"trackc init, cold (empty cache)    {init_cold * 1000:8.1f} ms")
    print(f"trackc init, warm                  {init_warm * 1000:8.1f} ms")
    cores = os.cpu_count() or 1
    floor = statistics.median(bare) / cores
    print(f"bare swift-syntax parse, 1 thread  {statistics.median(bare) * 1000:8.1f} ms")
    print(f"  / {cores} cores (the floor)          {floor * 1000:8.1f} ms")
    print(f"trackc lint --sources, cold        {statistics.median(cold) * 1000:8.1f} ms  (target <= 1000 ms; "
          f"{statistics.median(cold) / floor:.2f}x the floor)")
    print(f"trackc lint --sources, warm        {statistics.median(warm) * 1000:8.1f} ms  (target <= 150 ms)")
    print(f"findings of the lint of init's config: {findings}")


if __name__ == "__main__":
    main()
