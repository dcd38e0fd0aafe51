#!/usr/bin/env bash
# track()'s tail, this checkout against earlier revisions, side by side in one run (figures in
# docs/development/benchmarks.md):
#
#     Benchmarks/delivery/tail.sh [--revisions "REV..."] [--rounds N] [--calls N] [--skip-build]
#
# Builds TrackTail (release) against this checkout's runtime and against the runtime of each REV
# (ebeebb7 by default: the last build before identity, context, consent and the per-destination lanes),
# each exported with `git archive` under .build-tail/. Starts sink.py (a collector on 127.0.0.1 that
# takes everything, a process of its own), then runs the builds one after another in each round, one
# process each, the order turned by one every round, so that whatever else loads the machine falls on
# all of them alike. Each process makes a million timed track() calls (TrackTail: identity, context
# and consent where the runtime has them); each line carries the load average when it started. The
# summary gives, per build, the median of the rounds and their range.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
revisions=ebeebb7
rounds=9
calls=1000000
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --revisions) revisions="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --calls) calls="$2"; shift 2 ;;
    --skip-build) build=0; shift ;;
    *) echo "usage: $0 [--revisions \"REV...\"] [--rounds N] [--calls N] [--skip-build]" >&2; exit 2 ;;
  esac
done
work="$root/.build-tail"
mkdir -p "$work"
names=()
binaries=()
for revision in $revisions; do
  if [ "$build" = 1 ]; then
    rm -rf "$work/$revision"
    mkdir -p "$work/$revision"
    git -C "$root" archive "$revision" | tar -x -C "$work/$revision"
    TRACKC_RUNTIME_PATH="$work/$revision" swift build -c release --product TrackTail --scratch-path "$work/build-$revision"
  fi
  names+=("$revision")
  binaries+=("$(TRACKC_RUNTIME_PATH="$work/$revision" swift build -c release --scratch-path "$work/build-$revision" --show-bin-path)/TrackTail")
done
if [ "$build" = 1 ]; then swift build -c release --product TrackTail; fi
names+=("this")
binaries+=("$(swift build -c release --show-bin-path)/TrackTail")

rm -f "$work/port"
python3 sink.py "$work/port" &
sink=$!
trap 'kill $sink 2>/dev/null || true; rm -rf "$work/journal"' EXIT
until [ -s "$work/port" ]; do sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")"
results="$work/results.txt"
: >"$results"
count=${#names[@]}
for round in $(seq 1 "$rounds"); do
  for step in $(seq 0 $((count - 1))); do
    index=$(((round + step) % count))
    load="$(cut -d' ' -f1 /proc/loadavg)"
    line="$("${binaries[$index]}" "$work/journal" "$url" --calls "$calls" | head -1)"
    echo "round $round ${names[$index]}: $line load=$load" | tee -a "$results"
  done
done
python3 - "$results" "${names[@]}" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name = line.split()[2].rstrip(":")
    fields = dict(re.findall(r"(\S+)=(\S+)", line))
    rows.setdefault(name, []).append({k: float(v) for k, v in fields.items() if k != "calls"})
print(f"\nmedian of {len(rows[sys.argv[-1]])} rounds (range), µs; over8: calls over 8 µs per million; load: 1-minute load average")
print(f"{'build':>10} | {'p50':>17} | {'p99':>17} | {'p99.9':>19} | {'over8':>19} | {'load':>17}")
for name in sys.argv[2:]:
    runs = rows.get(name, [])
    cells = []
    for key in ("p50", "p99", "p99.9", "over8", "load"):
        values = [run[key] for run in runs]
        digits = 0 if key == "over8" else 2
        cells.append(f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})")
    print(f"{name:>10} | " + " | ".join(cells))
PY
