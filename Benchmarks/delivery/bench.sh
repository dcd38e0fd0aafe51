#!/usr/bin/env bash
# The delivery benchmark: builds Benchmarks/delivery in release mode and runs each measurement in a
# process of its own (figures in docs/development/benchmarks.md). The journal lives in a directory
# under /tmp by default (set BENCH_DIR to measure another disk). Run it a few times on a shared machine.
# track()'s tail against earlier builds, as an app makes the calls, is tail.sh's (and slow-calls.py's).
#
#     Benchmarks/delivery/bench.sh [--skip-build]
set -euo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" != "--skip-build" ]; then
  swift build -c release --product DeliveryBench
  # endtoend runs `trackc collector` as its own process: the root package's release build.
  (cd ../.. && swift build -c release --product trackc)
fi
bin="$(swift build -c release --show-bin-path)/DeliveryBench"
dir="${BENCH_DIR:-/tmp/trackc-delivery-bench}"
mkdir -p "$dir"
for mode in latency consent sustained powerloss collector-down backlog open endtoend; do
  echo "== $mode"
  "$bin" "$mode" "$dir"
done
rm -rf "$dir"
