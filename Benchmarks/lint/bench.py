#!/usr/bin/env python3
"""Benchmark: `trackc lint` (release build) against the bare cost of parsing the same file with libyaml.

    python3 Benchmarks/lint/bench.py [--runs N] [--screens S] [--handlers H] [--pattern REGEX] [--baseline [NAME=]BIN ...] [--skip-build] [--trackc BIN] [--dynamic-stdlib]

Lints the Shop example with its Swift sources (what a user runs), generates two configs of the sizes real
configs have (480 KB and 10 KB) and a large synthetic one (default 5,000 screens x 20 handlers, 6 MB),
compiles yaml_parse.c (libyaml's event API, touching every event, building nothing), then for each config
runs both (and earlier trackc binaries given with --baseline) alternately N times each. Reports the
median and minimum wall time, the ratio to libyaml, the median CPU time (user + system, which moves less
than wall time when other processes share the cores) and its ratio, and the peak resident memory of each
(from wait4's rusage).

The guard, with --baseline: the Shop example and the 480 KB config lint within 20% of the (first)
baseline's time (wall or CPU; both past it fails the run, exit status 1). The large config is reported, not held to
a ratio: no real config is that size.
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
    spares the dynamic linker thousands of symbol bindings at every start (docs/development/benchmarks.md). Every
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


def enumerated_baselines(arguments):
    """`NAME=BIN` or `BIN` (named "baseline", "baseline 2", ...), as (name, binary) pairs."""
    for index, argument in enumerate(arguments):
        name, separator, path = argument.partition("=")
        if not separator:
            name, path = "baseline" if index == 0 else f"baseline {index + 1}", argument
        yield name, path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--screens", type=int, default=5000)
    parser.add_argument("--handlers", type=int, default=20)
    parser.add_argument("--pattern", default="^[A-Z][A-Z0-9_]*$",
                        help="conventions.event_id_pattern of the generated config (the default pattern has a fast path)")
    parser.add_argument("--baseline", action="append", default=[], metavar="[NAME=]BIN",
                        help="another trackc binary (an earlier build, say) to time alongside, in the same runs; repeatable, the first is the guard's")
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
    # The sizes real configs have (10 KB to 500 KB), and a large synthetic one.
    configs = {
        "Shop": None,
        "10 KB": (8, 20),
        "480 KB": (400, 20),
        "large": (args.screens, args.handlers),
    }
    # Held to the baseline (see the docstring).
    guarded = ["Shop", "480 KB"]
    paths = {"Shop": os.path.join(ROOT, "Examples", "Shop", "tracking.yaml")}
    for label, size in configs.items():
        if size is None:
            continue
        screens, handlers = size
        paths[label] = os.path.join(WORK, f"large-{screens}x{handlers}{suffix}.yaml")
        run([sys.executable, os.path.join(HERE, "generate_config.py"), paths[label], str(screens), str(handlers), args.pattern])
    parse = os.path.join(WORK, "yaml_parse")
    cc = shutil.which("cc") or shutil.which("gcc") or "cc"
    run([cc, "-O2", "-o", parse, os.path.join(HERE, "yaml_parse.c"), "-lyaml"])

    binaries = {"trackc lint": trackc}
    for name, path in enumerated_baselines(args.baseline):
        binaries[name] = path
    baselines = [name for name in binaries if name != "trackc lint"]
    failures = []
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
        if configs[label] is None:
            described = f"the Shop example and its Swift sources, {size / 1e3:.1f} KB of config"
        else:
            screens, handlers = configs[label]
            described = f"{screens} screens x {handlers} handlers, {size / 1e6:.2f} MB, event_id_pattern '{args.pattern}'"
        with open("/proc/loadavg") as loadavg:
            load = " ".join(loadavg.read().split()[:3])
        print(f"\nconfig ({label}): {described}, {args.runs} runs each, alternating; load average {load}")
        width = max(16, *(len(name) for name in commands))
        print(f"{'':{width}} {'median':>10} {'min':>10} {'/ libyaml':>10} {'CPU median':>11} {'/ libyaml':>10} {'peak RSS':>10}")
        floor = statistics.median(samples["libyaml parse"])
        cpu_floor = statistics.median(cpu["libyaml parse"])
        for name in commands:
            median = statistics.median(samples[name])
            cpu_median = statistics.median(cpu[name])
            print(f"{name:{width}} {median * 1000:8.1f} ms {min(samples[name]) * 1000:7.1f} ms {median / floor:9.2f}x"
                  f" {cpu_median * 1000:8.1f} ms {cpu_median / cpu_floor:9.2f}x {peaks[name] / 1024:7.1f} MB")
        for baseline in baselines:
            ratio = statistics.median(samples["trackc lint"]) / statistics.median(samples[baseline])
            cpu_ratio = statistics.median(cpu["trackc lint"]) / statistics.median(cpu[baseline])
            print(f"trackc lint / {baseline}: {ratio:.2f}x wall, {cpu_ratio:.2f}x CPU")
            if baseline == baselines[0] and label in guarded and min(ratio, cpu_ratio) > 1.2:
                failures.append(f"{label}: {ratio:.2f}x wall, {cpu_ratio:.2f}x CPU of {baseline} (the guard is 1.20x)")
    for failure in failures:
        print(f"guard: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
