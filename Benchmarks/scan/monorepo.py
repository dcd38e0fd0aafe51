#!/usr/bin/env python3
"""Benchmark: `trackc lint --sources` over generated apps of about 1,000 and 10,000 Swift files.

    python3 Benchmarks/scan/monorepo.py [--runs N] [--sizes 1000,10000] [--skip-build] [--trackc PATH]

Generates each tree with generate_tree.py into Benchmarks/.work/generated-<N> (no public app's code;
the same seed gives the same bytes), builds trackc in release mode with the package beside this script
(unless --skip-build, or --trackc names a binary to measure instead), and for each size reports, as
medians of N runs taken by hyperfine:

- cold: `trackc lint tracking.yaml --sources Sources` with an empty cache (parsing in worker processes);
- warm: the same over the unchanged tree, the cache in place;
- one file changed: warm, after touching one file's content (its scan redone, the rest reused);
- the findings of cold, warm and `--no-cache` runs, which must be identical;
- where a warm run's time goes (`--timings`, one run);
- `uptime` before and after: the machine is shared, so figures are only comparable with their load.

Target: warm lint at 10,000 files <= 250 ms on the 2-core development machine, cold no slower than before.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, "Benchmarks", ".work")


def run(command, **kwargs):
    print("$", " ".join(command), file=sys.stderr)
    return subprocess.run(command, check=True, **kwargs)


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def findings(trackc, tree, extra):
    process = subprocess.run([trackc, "lint", "tracking.yaml", "--sources", "Sources"] + extra, cwd=tree, capture_output=True, text=True)
    if process.returncode not in (0, 1):
        sys.exit(f"trackc lint exited {process.returncode}: {process.stderr[-2000:]}")
    return process.stdout + process.stderr


def hyperfine(command, tree, runs, prepare=None, warmup=0):
    """Median and spread, in seconds, of `command` (a shell string run in `tree`)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as export:
        arguments = ["hyperfine", "--runs", str(runs), "--warmup", str(warmup), "--ignore-failure", "--export-json", export.name,
                     "--style", "none", "--shell", "bash"]
        if prepare:
            arguments += ["--prepare", prepare]
        run(arguments + [command], cwd=tree, stdout=subprocess.DEVNULL)
        result = json.load(open(export.name))["results"][0]
    return result["median"], min(result["times"]), max(result["times"])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--trackc", help="measure this binary instead of building one")
    args = parser.parse_args()

    if args.trackc:
        trackc = os.path.abspath(args.trackc)
    else:
        if not args.skip_build:
            run(["swift", "build", "-c", "release", "--product", "trackc"], cwd=HERE)
        binary = run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=HERE, capture_output=True, text=True).stdout.strip()
        trackc = os.path.join(binary, "trackc")

    rows = []
    load_before = uptime()
    for size in [int(s) for s in args.sizes.split(",")]:
        tree = os.path.join(WORK, f"generated-{size}")
        if not os.path.isdir(os.path.join(tree, "Sources")):
            run([sys.executable, os.path.join(HERE, "generate_tree.py"), tree, "--files", str(size)])
        files = sum(len([n for n in names if n.endswith(".swift")]) for _, _, names in os.walk(os.path.join(tree, "Sources")))
        lines = sum(sum(1 for _ in open(os.path.join(d, n))) for d, _, names in os.walk(os.path.join(tree, "Sources"))
                    for n in names if n.endswith(".swift"))
        cache = os.path.join(tree, ".cache")
        lint = f"{trackc} lint tracking.yaml --sources Sources --cache-dir {cache}"

        shutil.rmtree(cache, ignore_errors=True)
        cold_findings = findings(trackc, tree, ["--cache-dir", cache])
        warm_findings = findings(trackc, tree, ["--cache-dir", cache])
        uncached_findings = findings(trackc, tree, ["--no-cache"])
        identical = cold_findings == warm_findings == uncached_findings
        count = len([line for line in warm_findings.splitlines() if ": error: " in line or ": warning: " in line])

        cold = hyperfine(lint, tree, args.runs, prepare=f"rm -rf {cache}")
        warm = hyperfine(lint, tree, args.runs, warmup=2)
        # One file's content changes before each run (a comment holding a counter): its scan is redone.
        touched = os.path.join(tree, "Sources", "Feature000", "Screen001.swift")
        original = open(touched).read()
        changer = f"python3 -c \"import time; open('{touched}', 'w').write(open('{touched}.orig').read() + '// ' + str(time.time()) + chr(10))\""
        shutil.copy(touched, touched + ".orig")
        changed = hyperfine(lint, tree, args.runs, prepare=changer, warmup=1)
        open(touched, "w").write(original)
        os.remove(touched + ".orig")
        findings(trackc, tree, ["--cache-dir", cache])
        timings = subprocess.run([trackc, "lint", "tracking.yaml", "--sources", "Sources", "--cache-dir", cache, "--timings"], cwd=tree,
                                 capture_output=True, text=True).stderr
        rows.append((size, files, lines, cold, warm, changed, count, identical, timings))

    load_after = uptime()
    print(f"\ntrackc: {trackc}\nbefore: {load_before}\nafter:  {load_after}\n")
    print("| files | lines | cold | warm | one file changed | findings (cold = warm = --no-cache) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for size, files, lines, cold, warm, changed, count, identical, _ in rows:
        def cell(value):
            return f"{value[0] * 1000:.0f} ms ({value[1] * 1000:.0f} - {value[2] * 1000:.0f})"
        print(f"| {files:,} | {lines:,} | {cell(cold)} | {cell(warm)} | {cell(changed)} | {count} ({'identical' if identical else 'DIFFERENT'}) |")
    for size, files, _, _, _, _, _, identical, timings in rows:
        print(f"\nwarm run at {files:,} files, --timings:\n{timings}")
        if not identical:
            sys.exit("the findings of cold, warm and --no-cache runs differ")


if __name__ == "__main__":
    main()
