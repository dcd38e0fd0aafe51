#!/usr/bin/env bash
# The long run: every fuzz target for 10 million executions or one CPU-hour, whichever comes first, one
# target per core, then a replay of every input found at the 1 s bound, then a summary docs/development/fuzzing.md can quote:
#
#   Fuzz/build.sh release && Fuzz/long-run.sh [RUNS [CPU_SECONDS]]
#
# The hour is CPU time, not wall time: a watchdog reads each fuzzer's CPU time from /proc and interrupts
# it (SIGINT: libFuzzer prints its final statistics and exits) once the budget is spent, so a run shares
# the machine without being cut short. FUZZ_NICE (0) runs the fuzzers at that niceness, to use only
# the cores nothing else wants (a benchmark may also pause them with SIGSTOP and resume them with SIGCONT).
# A starved or paused fuzzer's units take longer in wall time than in CPU time, so a niced run stops only
# units over 600 s (a real hang), keeps every unit over 1 s of wall time as a `slow-unit-*` candidate, and
# checks the 1 s bound where it means something: after the run, every input of the corpus (the committed
# one and the run's) and every candidate is replayed once with `-timeout=1`.
#
# Findings, logs and the summary (summary.md) go to Fuzz/artifacts/long-run/ (FUZZ_LONG_RUN_DIR, under
# Fuzz/, for another run beside it); FUZZ_TARGETS (all eleven) names the targets to run, separated by spaces.
# Exits non-zero if any target found a crash, a leak, an out-of-memory or a timeout.
set -euo pipefail
cd "$(dirname "$0")"
runs="${1:-10000000}"
cpu_seconds="${2:-3600}"
nice_level="${FUZZ_NICE:-0}"
out="${FUZZ_LONG_RUN_DIR:-artifacts/long-run}"
rm -rf "$out"
mkdir -p "$out"
cores="$(nproc)"
read -r -a targets <<< "${FUZZ_TARGETS:-lint names registry scan-cache generate links bindings adopt journal remote-config collector-request}"
ticks="$(getconf CLK_TCK)"
timeout=1
[ "$nice_level" -gt 0 ] && timeout=600

# CPU seconds a process has used (user + system), from /proc/PID/stat (fields 14 and 15, after the name).
cpu_of() {
  local stat
  stat="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1
  set -- ${stat##*) }
  echo $(( (${12} + ${13}) / ticks ))
}

# Interrupts a target's fuzzer once it has used its CPU budget, recording what it used.
watch_target() {
  local target="$1" pid="" used=0 tries=0
  while [ -z "$pid" ]; do
    sleep 1
    # This run's fuzzer (its artefact prefix names this run's folder), not another run's of the same target.
    pid="$(pgrep -f "release/fuzz-$target .*-artifact_prefix=$out/$target/" | head -1 || true)"
    tries=$((tries + 1))
    [ "$tries" -lt 120 ] || return 0
  done
  while used="$(cpu_of "$pid")"; do
    if [ "$used" -ge "$cpu_seconds" ]; then kill -INT "$pid" 2>/dev/null || true; fi
    sleep 5
  done
}

# The CPU time a target's run used (user + system, the fuzzer's and its run script's), from time(1).
cpu_seconds_used() {
  awk 'END { if (NF == 2) printf "%.0f", $1 + $2; else printf "?" }' "$out/$1.time" 2>/dev/null || echo "?"
}

for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n || true; done
  echo "long run: $target started $(date -u +%H:%M:%S)"
  (
    watch_target "$target" &
    # A wall-time cap far beyond the CPU budget, against a fuzzer the watchdog cannot see.
    FUZZ_TIMEOUT="$timeout" FUZZ_ARTIFACTS="$out" /usr/bin/time -o "$out/$target.time" -f "%U %S" \
      nice -n "$nice_level" ./run.sh "$target" -runs="$runs" \
      -max_total_time=$((cpu_seconds * 6)) -report_slow_units=1 > "$out/$target.summary" 2>&1 || true
    wait
    echo "long run: $target finished $(date -u +%H:%M:%S), $(cpu_seconds_used "$target") CPU seconds"
  ) &
done
wait || true

# Every input found, and the committed corpus, once each, with the 1 s bound, on the run's own binaries.
export SWIFT_BACKTRACE=enable=no
for target in "${targets[@]}"; do
  FUZZ_TIMEOUT=1 FUZZ_ARTIFACTS="$out/replay" ./run.sh "$target" -runs=0 > "$out/$target.replay" 2>&1 || true
  mapfile -t slow < <(find "$out/$target" -name 'slow-unit-*')
  if [ "${#slow[@]}" -gt 0 ]; then
    ".build/release/fuzz-$target" -timeout=1 -rss_limit_mb=2048 -artifact_prefix="$out/replay/$target/" "${slow[@]}" \
      > "$out/replay/$target.slow-units.log" 2>&1 || true
  fi
done

{
  echo "Fuzzing, $(date -u +%Y-%m-%d), $(swift --version 2>/dev/null | head -1), $cores cores, up to $runs runs or $cpu_seconds CPU seconds per target (niceness $nice_level):"
  echo
  echo "| target | executions | CPU seconds | exec per CPU second | crashes | leaks | timeouts | slowest input on replay (s) | inputs replayed (+ slow candidates) | peak RSS (MB) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for target in "${targets[@]}"; do
    log="$out/$target.log"
    replay="$out/replay/$target.log"
    stat() { sed -n "s/^stat::$1: *//p" "$2" 2>/dev/null | tail -1; }
    count() { find "$out/$target" "$out/replay/$target" -name "$1-*" 2>/dev/null | wc -l; }
    executed="$(stat number_of_executed_units "$log")"
    used="$(cpu_seconds_used "$target")"
    rate=""
    [ -n "$executed" ] && [ "$used" != "?" ] && [ "$used" != 0 ] && rate=$((executed / used))
    echo "| $target | ${executed:-?} | ${used:-?} | ${rate:-?} | $(( $(count crash) + $(count oom) )) | $(count leak) | $(count timeout) | $(stat slowest_unit_time_sec "$replay") | $(stat number_of_executed_units "$replay") + $(count slow-unit) | $(stat peak_rss_mb "$log") |"
  done
} | tee "$out/summary.md"
! find "$out" -mindepth 2 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | grep -q .
