#!/usr/bin/env python3
"""Benchmark: the per-call cost of interception (release build).

    python3 Benchmarks/interception/bench.py [--skip-build]

Checks that the benchmark's generated interceptor is up to date (trackc generate --check), builds the
benchmark package in release mode, and runs it: a direct call, the same handler under
-enable-implicit-dynamic not replaced, an unmapped handler with tracking installed, a replaced handler
that emits its event to an in-memory destination (with no, one and two bound properties), and the
original design's property-list lookup on each call. Each figure is the median of 7 rounds, in wall
time and in the calling thread's CPU time; run it a few times on a shared machine.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(command, **kwargs):
    print("$", " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, **kwargs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    run(["swift", "run", "trackc", "generate", os.path.join(HERE, "tracking.yaml"),
         "--output", os.path.join(HERE, "Sources", "BenchTracking"), "--check"], cwd=ROOT)
    if not args.skip_build:
        run(["swift", "build", "-c", "release", "--product", "InterceptionBench"], cwd=HERE)
    binary = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=HERE,
                            check=True, capture_output=True, text=True).stdout.strip()
    run([os.path.join(binary, "InterceptionBench")])


if __name__ == "__main__":
    main()
