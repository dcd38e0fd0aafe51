#!/usr/bin/env python3
"""Benchmark: how many events a second `trackc collector` takes (release build).

    python3 Benchmarks/ingest/bench.py [--runs N] [--seconds S] [--skip-build]

Measured, each as the median of N runs:

`trackc` is built in the root package as users build it; the benchmark executable in this directory's
package (Benchmarks/ingest/Package.swift), which compiles the collector's modules from the root's
folders, so the package users depend on carries no benchmark.

- reading: `trackc-collector-bench` reads one 100-event batch body (40 KB) over and over in one thread,
  three ways side by side: the collector's reader (its JSON reader, the wire-format checks and the plan
  check: `Collector.readBatch`), Foundation's JSONSerialization and Foundation's JSONDecoder into
  Codable structs (neither checks anything): the ratios say what the collector's own reader buys;
- serving: `trackc collector --config Examples/Shop/tracking.yaml --quiet` loaded by wrk on 127.0.0.1
  (one wrk thread, 8 connections, S seconds) with 100-event batches, each event with a unique
  messageId, so every event is read, checked, deduplicated and recorded; reported in events/s, with
  the collector's peak RSS (its deduplication window holds up to a million keys);
- the same with every event printed (text lines to /dev/null), and gzip off in both (wrk sends what
  the script builds);
- the floor: wrk against GET /v1/config (a 60-byte document) on the same server: requests/s of the
  HTTP path alone, to put the batch figure in proportion.

The runtime's end-to-end target is 50,000 events/s, so the collector must be well above it. wrk and
the collector share this 2-core machine, which other work shares too: read medians and ratios.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CONFIG = os.path.join(ROOT, "Examples", "Shop", "tracking.yaml")
RELEASE = None  # the root package's release binaries (trackc), set in main
BENCH = None  # the benchmark package's (trackc-collector-bench)


def run(command, **kwargs):
    print("$", " ".join(command), file=sys.stderr)
    return subprocess.run(command, check=True, **kwargs)


def start_collector(extra, stdout=subprocess.DEVNULL):
    process = subprocess.Popen(
        [os.path.join(RELEASE, "trackc"), "collector", "--config", CONFIG, "--port", "0"] + extra,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    line = process.stdout.readline().decode()
    match = re.search(r":(\d+)$", line.strip())
    if not match:
        sys.exit(f"unexpected first line {line!r}: {process.stderr.read().decode()}")
    # Keep draining what it prints, as a terminal would.
    drain = subprocess.Popen(["cat"], stdin=process.stdout, stdout=stdout)
    return process, drain, int(match.group(1))


def peak_rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def stop(process, drain):
    process.send_signal(2)
    _, stderr = process.communicate(timeout=30)
    drain.wait(timeout=30)
    return stderr.decode()


def wrk(port, path, seconds, script=None, connections=8):
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script:
        command += ["-s", script]
    command.append(f"http://127.0.0.1:{port}{path}")
    output = subprocess.run(command, check=True, capture_output=True, text=True, env=dict(os.environ, EVENTS="100")).stdout
    requests = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if errors:
        sys.exit(f"wrk saw {errors.group(1)} failed requests:\n{output}")
    p50 = re.search(r"50%\s+([\d.]+\w+)", output).group(1)
    p99 = re.search(r"99%\s+([\d.]+\w+)", output).group(1)
    return requests, p50, p99


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    global RELEASE, BENCH
    if not args.skip_build:
        run(["swift", "build", "-c", "release", "--product", "trackc"], cwd=ROOT)
        run(["swift", "build", "-c", "release", "--product", "trackc-collector-bench"], cwd=HERE)
    RELEASE = run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    BENCH = run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=HERE, capture_output=True, text=True).stdout.strip()

    reading = json.loads(run([os.path.join(BENCH, "trackc-collector-bench"), "7", CONFIG], capture_output=True, text=True, cwd=ROOT).stdout)
    print(json.dumps({"reading": reading}, indent=2))

    script = os.path.join(HERE, "batch.lua")
    results = {}
    for name, extra in [("quiet", ["--quiet"]), ("printing", [])]:
        rates, rss, latencies = [], [], []
        for _ in range(args.runs):
            process, drain, port = start_collector(extra)
            requests, p50, p99 = wrk(port, "/v1/batch", args.seconds, script)
            rss.append(peak_rss_kb(process.pid))
            summary = stop(process, drain)
            rates.append(requests * 100)
            latencies.append((p50, p99))
            print(f"{name}: {requests * 100:,.0f} events/s, p50 {p50}, p99 {p99}, peak RSS {rss[-1] / 1024:.1f} MB; {summary.strip().splitlines()[-1]}", file=sys.stderr)
        results[name] = {"eventsPerSecond": int(statistics.median(rates)), "runs": [int(r) for r in rates], "peakRSSMB": round(max(rss) / 1024, 1), "latency": latencies}

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as document:
        document.write('{"version": 1, "destinations": {"firebase": {"enabled": true}}}')
    floors = []
    for _ in range(args.runs):
        process, drain, port = start_collector(["--quiet", "--remote-config", document.name])
        requests, _, _ = wrk(port, "/v1/config", args.seconds)
        stop(process, drain)
        floors.append(requests)
    os.unlink(document.name)
    results["floor"] = {"configRequestsPerSecond": int(statistics.median(floors)), "runs": [int(r) for r in floors]}
    results["batchRequestsOverFloor"] = round(results["quiet"]["eventsPerSecond"] / 100 / results["floor"]["configRequestsPerSecond"], 3)
    print(json.dumps({"serving": results}, indent=2))


if __name__ == "__main__":
    main()
