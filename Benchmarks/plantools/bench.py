#!/usr/bin/env python3
"""Benchmark: the plan tools (release build) on a large config, against `trackc lint` of the same file.

    python3 Benchmarks/plantools/bench.py [--runs N] [--screens S] [--handlers H] [--skip-build | --binary PATH]

Generates the lint benchmark's config (Benchmarks/lint/generate_config.py, default 5,000 screens x 20
handlers, 6 MB, 105,000 events) and a copy with every tenth event ID renamed, then runs, alternately N
times each: `trackc lint` (the floor: every tool lints its config first), `trackc docs`, `trackc export
--format csv`, `trackc export --format jsonschema` and `trackc diff` of the two. Reports medians, minimums,
peak memory and each tool's ratio to the floor. Read medians and ratios: the machine is shared and noisy.
"""
import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "Benchmarks", ".work")

spec = importlib.util.spec_from_file_location("lint_bench", os.path.join(ROOT, "Benchmarks", "lint", "bench.py"))
lint_bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lint_bench)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--screens", type=int, default=5000)
    parser.add_argument("--handlers", type=int, default=20)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--binary", help="a trackc binary to time instead of the release build (no build then)")
    args = parser.parse_args()

    os.makedirs(WORK, exist_ok=True)
    if args.binary:
        trackc = os.path.abspath(args.binary)
    else:
        if not args.skip_build:
            lint_bench.run(lint_bench.release_build_command(), cwd=ROOT)
        binary = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                check=True, capture_output=True, text=True).stdout.strip()
        trackc = os.path.join(binary, "trackc")

    config = os.path.join(WORK, f"plan-{args.screens}x{args.handlers}.yaml")
    lint_bench.run([sys.executable, os.path.join(ROOT, "Benchmarks", "lint", "generate_config.py"), config,
                    str(args.screens), str(args.handlers)])
    changed = os.path.join(WORK, f"plan-{args.screens}x{args.handlers}-changed.yaml")
    with open(config, encoding="utf-8") as source, open(changed, "w", encoding="utf-8") as target:
        for number, line in enumerate(source):
            if number % 10 == 0 and ": CTRL_" in line:
                line = line.replace(": CTRL_", ": RENAMED_CTRL_")
            target.write(line)
    html = os.path.join(WORK, "plan.html")
    schemas = os.path.join(WORK, "schemas")
    shutil.rmtree(schemas, ignore_errors=True)

    commands = {
        "trackc lint": [trackc, "lint", config],
        "trackc docs": [trackc, "docs", config, "--output", html],
        "export csv": [trackc, "export", "--format", "csv", config, "--output", os.devnull],
        "export jsonschema": [trackc, "export", "--format", "jsonschema", config, "--output", schemas],
        "trackc diff": [trackc, "diff", config, changed, "--format", "json"],
    }
    for command in commands.values():  # warm the page cache (and write the schemas once)
        lint_bench.measure(command)
    samples = {name: [] for name in commands}
    peaks = {name: 0 for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            seconds, rss = lint_bench.measure(command)
            samples[name].append(seconds)
            peaks[name] = max(peaks[name], rss)

    print(f"\nconfig: {args.screens} screens x {args.handlers} handlers, {os.path.getsize(config) / 1e6:.2f} MB; "
          f"page {os.path.getsize(html) / 1e6:.1f} MB; {args.runs} runs each, alternating")
    print(f"{'':18} {'median':>10} {'min':>10} {'peak RSS':>10} {'/ lint':>8}")
    floor = statistics.median(samples["trackc lint"])
    for name in commands:
        median = statistics.median(samples[name])
        print(f"{name:18} {median * 1000:8.1f} ms {min(samples[name]) * 1000:7.1f} ms"
              f" {peaks[name] / 1024:7.1f} MB {median / floor:7.2f}x")


if __name__ == "__main__":
    main()
