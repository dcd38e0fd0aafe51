#!/usr/bin/env bash
# The routes benchmark: `bash Benchmarks/routes/bench.sh [--skip-build]`.
#
# Writes the configs, URLs and generated routes for 100, 1,000 and 10,000 link patterns (generate.py,
# with the debug trackc), builds this package in release mode and runs it; then times `trackc lint` of
# the 10,000-pattern config (1,000 entry points, overlap check included) with the trackc binary given
# in TRACKC (the debug build by default; a release build for the figure). Machine noise is real on a
# shared 2-core box: read medians and ratios.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
trackc="${TRACKC:-$root/.build/debug/trackc}"
python3 generate.py "$root/.build/debug/trackc"
if [ "${1:-}" != "--skip-build" ]; then
  swift build -c release --product RouteBench
fi
"$(swift build -c release --show-bin-path)/RouteBench" work
python3 - "$trackc" work/routes-10000.yaml <<'PY'
import statistics, subprocess, sys, time
trackc, config = sys.argv[1], sys.argv[2]
times = []
for _ in range(7):
    start = time.perf_counter()
    subprocess.run([trackc, "lint", config, "--no-cache"], check=True, stdout=subprocess.DEVNULL)
    times.append(time.perf_counter() - start)
print(f"trackc lint, 1,000 entry points / 10,000 patterns ({trackc}): median {statistics.median(times) * 1000:.0f} ms, min {min(times) * 1000:.0f} ms")
PY
