#!/usr/bin/env bash
# The long run: every fuzz target for 10 million executions or one CPU-hour, whichever comes first, one
# target per core, then a summary the README can quote:
#
#   Fuzz/build.sh release && Fuzz/long-run.sh [RUNS [SECONDS]]
#
# Findings, logs and the summary (summary.md) go to Fuzz/artifacts/long-run/. Exits non-zero if any target
# found a crash, a leak or a timeout (an input that took over FUZZ_TIMEOUT, 1 s).
set -euo pipefail
cd "$(dirname "$0")"
runs="${1:-10000000}"
seconds="${2:-3600}"
out="artifacts/long-run"
rm -rf "$out"
mkdir -p "$out"
cores="$(nproc)"
targets=(lint names registry scan-cache generate links)

for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n || true; done
  echo "long run: $target started $(date -u +%H:%M:%S)"
  FUZZ_ARTIFACTS="$out" ./run.sh "$target" -runs="$runs" -max_total_time="$seconds" > "$out/$target.summary" 2>&1 &
done
wait || true

{
  echo "Fuzzing, $(date -u +%Y-%m-%d), $(swift --version 2>/dev/null | head -1), $cores cores, up to $runs runs or $seconds s per target:"
  echo
  echo "| target | executions | exec/s | seconds | crashes | leaks | timeouts | slowest unit (s) | peak RSS (MB) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for target in "${targets[@]}"; do
    log="$out/$target.log"
    stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
    count() { find "$out/$target" -name "$1-*" | wc -l; }
    executed="$(stat number_of_executed_units)"
    speed="$(stat average_exec_per_sec)"
    elapsed=""
    [ -n "$executed" ] && [ -n "$speed" ] && [ "$speed" != 0 ] && elapsed=$((executed / speed))
    echo "| $target | ${executed:-?} | ${speed:-?} | ${elapsed:-?} | $(( $(count crash) + $(count oom) )) | $(count leak) | $(count timeout) | $(stat slowest_unit_time_sec) | $(stat peak_rss_mb) |"
  done
} | tee "$out/summary.md"
! find "$out" -mindepth 2 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | grep -q .
