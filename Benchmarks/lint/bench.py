#!/usr/bin/env python3
"""Benchmark: `trackc lint` (release build) against the bare cost of parsing the same file with libyaml.

    python3 Benchmarks/lint/bench.py [--runs N] [--screens S] [--handlers H] [--pattern REGEX] [--baseline BIN] [--skip-build] [--trackc BIN] [--dynamic-stdlib]

Generates a large valid config (default 5,000 screens x 20 handlers) and two of the sizes real configs have
(500 KB and 10 KB), compiles yaml_parse.c (libyaml's event API, touching every event, building nothing),
then for each config runs both (and an earlier trackc binary given with --baseline) alternately N times
each. Reports the median and minimum wall time, the ratio to libyaml, the median CPU time (user + system,
which moves less than wall time when other processes share the cores) and its ratio, and the peak
resident memory of each (from wait4's rusage).
Machine noise is real on a shared 2-core box: read the medians and the ratio, not a single run.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "Benchmarks", ".work")


def run(command, **kwargs):
    print("$", " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, **kwargs)


def release_build_command(dynamic_stdlib=False):
    """The release build of trackc as it ships: the Swift runtime and Foundation linked statically, which
    spares the dynamic linker thousands of symbol bindings at every start (docs/performance.md). Every
    release build of this package uses the same flags, since SwiftPM builds both kinds into one folder."""
    command = ["swift", "build", "-c", "release", "--product", "trackc"]
    return command if dynamic_stdlib else command + ["--static-swift-stdlib"]


def measure(command):
    """Wall seconds, peak RSS (KiB) and CPU seconds of one run; output discarded, exit status checked."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {process.returncode}: {stderr}")
    return elapsed, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--screens", type=int, default=5000)
    parser.add_argument("--handlers", type=int, default=20)
    parser.add_argument("--pattern", default="^[A-Z][A-Z0-9_]*$",
                        help="conventions.event_id_pattern of the generated config (the default pattern has a fast path)")
    parser.add_argument("--baseline", help="another trackc binary (an earlier build, say) to time alongside, in the same runs")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--dynamic-stdlib", action="store_true",
                        help="build trackc with the Swift runtime linked dynamically (default: statically, as it ships)")
    parser.add_argument("--trackc", help="the trackc binary to time (default: this checkout's release build)")
    args = parser.parse_args()

    os.makedirs(WORK, exist_ok=True)
    if not args.skip_build:
        run(release_build_command(args.dynamic_stdlib), cwd=ROOT)
    if args.trackc:
        trackc = args.trackc
    else:
        binary = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                check=True, capture_output=True, text=True).stdout.strip()
        trackc = os.path.join(binary, "trackc")

    suffix = "" if args.pattern == "^[A-Z][A-Z0-9_]*$" else "-custom-pattern"
    # The large config the ratio is about, and the sizes real configs have (10 KB to 500 KB).
    configs = {
        "large": (args.screens, args.handlers),
        "500 KB": (400, 20),
        "10 KB": (8, 20),
    }
    paths = {}
    for label, (screens, handlers) in configs.items():
        paths[label] = os.path.join(WORK, f"large-{screens}x{handlers}{suffix}.yaml")
        run([sys.executable, os.path.join(HERE, "generate_config.py"), paths[label], str(screens), str(handlers), args.pattern])
    parse = os.path.join(WORK, "yaml_parse")
    cc = shutil.which("cc") or shutil.which("gcc") or "cc"
    run([cc, "-O2", "-o", parse, os.path.join(HERE, "yaml_parse.c"), "-lyaml"])

    binaries = {"trackc lint": trackc}
    if args.baseline:
        binaries["baseline lint"] = args.baseline
    for label, config in paths.items():
        commands = {"libyaml parse": [parse, config]}
        for name, path in binaries.items():
            commands[name] = [path, "lint", config]
        for command in commands.values():  # warm the page cache and the dynamic loader
            measure(command)
        samples = {name: [] for name in commands}
        cpu = {name: [] for name in commands}
        peaks = {name: 0 for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                seconds, rss, cpu_seconds = measure(command)
                samples[name].append(seconds)
                cpu[name].append(cpu_seconds)
                peaks[name] = max(peaks[name], rss)

        size = os.path.getsize(config)
        screens, handlers = configs[label]
        print(f"\nconfig ({label}): {screens} screens x {handlers} handlers, {size / 1e6:.2f} MB, "
              f"event_id_pattern '{args.pattern}', {args.runs} runs each, alternating")
        print(f"{'':16} {'median':>10} {'min':>10} {'/ libyaml':>10} {'CPU median':>11} {'/ libyaml':>10} {'peak RSS':>10}")
        floor = statistics.median(samples["libyaml parse"])
        cpu_floor = statistics.median(cpu["libyaml parse"])
        for name in commands:
            median = statistics.median(samples[name])
            cpu_median = statistics.median(cpu[name])
            print(f"{name:16} {median * 1000:8.1f} ms {min(samples[name]) * 1000:7.1f} ms {median / floor:9.2f}x"
                  f" {cpu_median * 1000:8.1f} ms {cpu_median / cpu_floor:9.2f}x {peaks[name] / 1024:7.1f} MB")
        if args.baseline:
            ratio = statistics.median(samples["trackc lint"]) / statistics.median(samples["baseline lint"])
            cpu_ratio = statistics.median(cpu["trackc lint"]) / statistics.median(cpu["baseline lint"])
            print(f"trackc lint / baseline lint: {ratio:.2f}x wall, {cpu_ratio:.2f}x CPU")


if __name__ == "__main__":
    main()
