#!/usr/bin/env bash
# track()'s tail, this checkout against an earlier one, side by side in one run (figures in
# docs/performance.md):
#
#     Benchmarks/delivery/tail.sh [--before REV] [--rounds N] [--calls N] [--skip-build]
#
# Builds TrackTail (release) twice: against this checkout's runtime, and against the runtime of REV
# (ebeebb7 by default: the last build before identity, context, consent and the per-destination lanes),
# exported with `git archive` under .build-tail/. Starts sink.py (a collector on 127.0.0.1 that takes
# everything), then runs the two builds alternately, one process per round each (before/after in odd
# rounds, after/before in even ones), so that whatever else loads the machine falls on both. Each
# process makes a million timed track() calls, identity and context on where the runtime has them;
# each line carries the load average when it started. The summary gives the medians of the rounds.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
before_rev=ebeebb7
rounds=9
calls=1000000
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --before) before_rev="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --calls) calls="$2"; shift 2 ;;
    --skip-build) build=0; shift ;;
    *) echo "usage: $0 [--before REV] [--rounds N] [--calls N] [--skip-build]" >&2; exit 2 ;;
  esac
done
work="$root/.build-tail"
mkdir -p "$work"
if [ "$build" = 1 ]; then
  rm -rf "$work/before"
  mkdir -p "$work/before"
  git -C "$root" archive "$before_rev" | tar -x -C "$work/before"
  swift build -c release --product TrackTail
  TRACKC_RUNTIME_PATH="$work/before" swift build -c release --product TrackTail --scratch-path "$work/build-before"
fi
after_bin="$(swift build -c release --show-bin-path)/TrackTail"
before_bin="$(TRACKC_RUNTIME_PATH="$work/before" swift build -c release --scratch-path "$work/build-before" --show-bin-path)/TrackTail"

rm -f "$work/port"
python3 sink.py "$work/port" &
sink=$!
trap 'kill $sink 2>/dev/null || true; rm -rf "$work/journal"' EXIT
until [ -s "$work/port" ]; do sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")"
results="$work/results.txt"
: >"$results"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="before after"; else order="after before"; fi
  for which in $order; do
    if [ "$which" = before ]; then bin="$before_bin"; else bin="$after_bin"; fi
    load="$(cut -d' ' -f1 /proc/loadavg)"
    line="$("$bin" "$work/journal" "$url" --calls "$calls" | head -1)"
    echo "round $round $line load=$load" | tee -a "$results"
  done
done
python3 - "$results" "$before_rev" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    fields = dict(re.findall(r"(\S+)=(\S+)", line))
    build = line.split()[2]
    rows.setdefault(build, []).append({k: float(v) for k, v in fields.items() if k != "calls"})
print(f"\nmedians of {len(rows.get('after', []))} rounds (range), µs; over8 = calls over 8 µs per million; before = {sys.argv[2]}")
for build in ("before", "after"):
    runs = rows.get(build, [])
    if not runs:
        continue
    cells = []
    for key in ("p50", "p99", "p99.9", "over8", "max", "load"):
        values = [run[key] for run in runs]
        cells.append(f"{key} {statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})")
    print(f"{build:>6}: " + ", ".join(cells))
PY
