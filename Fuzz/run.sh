#!/usr/bin/env bash
# Runs one fuzz target on its committed corpus with its dictionary:
#
#   Fuzz/run.sh TARGET [SECONDS | -runs=N] [libFuzzer flags...]
#
# TARGET is lint, names, registry, scan-cache, generate, links, bindings, adopt, journal, remote-config or collector-request; SECONDS (default 60) bounds the run, or
# -runs=N the number of inputs. New inputs go to Fuzz/artifacts/corpus/TARGET (not committed: merge them
# into Fuzz/corpus with Fuzz/merge.sh); a crash, leak or timeout is written to Fuzz/artifacts/TARGET/ and
# fails the run. FUZZ_CONFIGURATION (release) picks the build, FUZZ_TIMEOUT (1) the seconds one input
# may take before it counts as a hang, FUZZ_ARTIFACTS (Fuzz/artifacts) where findings and the log go; TMPDIR (/dev/shm when writable) where the targets write their files. The last line is a summary: runs, executions per second, findings.
set -euo pipefail
cd "$(dirname "$0")"
# Swift's own crash backtracer reads memory that AddressSanitizer then reports; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
# The journal and remote-config targets write files and sync them; on a disk that bounds them at a tenth
# of their rate (journal: 64 against 607 executions a second), so their files go to memory when it can.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi

targets="lint names registry scan-cache generate links bindings adopt journal remote-config collector-request"
target="${1:-}"
if [ -z "$target" ] || [[ " $targets " != *" $target "* ]]; then
  echo "usage: $0 TARGET [SECONDS | -runs=N] [libFuzzer flags...]   (TARGET: ${targets// /, })" >&2
  exit 64
fi
shift
limit=(-max_total_time=60)
if [ $# -gt 0 ]; then
  case "$1" in
    -runs=*) limit=("$1"); shift ;;
    *[!0-9]*) ;;
    *) limit=(-max_total_time="$1"); shift ;;
  esac
fi

binary=".build/${FUZZ_CONFIGURATION:-release}/fuzz-$target"
[ -x "$binary" ] || { echo "run.sh: $binary is not built; run Fuzz/build.sh ${FUZZ_CONFIGURATION:-release}" >&2; exit 1; }
case "$target" in
  lint | generate) dictionary=(-dict=dictionaries/yaml.dict) ;;
  names) dictionary=(-dict=dictionaries/names.dict) ;;
  registry) dictionary=(-dict=dictionaries/registry.dict) ;;
  links) dictionary=(-dict=dictionaries/links.dict) ;;
  bindings) dictionary=(-dict=dictionaries/bindings.dict) ;;
  adopt) dictionary=(-dict=dictionaries/adopt.dict) ;;
  remote-config) dictionary=(-dict=dictionaries/remote-config.dict) ;;
  collector-request) dictionary=(-dict=dictionaries/collector.dict) ;;
  *) dictionary=() ;;
esac

artifacts="${FUZZ_ARTIFACTS:-artifacts}"
work="artifacts/corpus/$target"
findings="$artifacts/$target"
mkdir -p "$work" "$findings" "corpus/$target"
log="$artifacts/$target.log"
# Leaks are checked (LeakSanitizer comes with AddressSanitizer on Linux), but for those that are not
# trackc's (Scripts/lsan-suppressions.txt: swift-foundation's on reading an empty file, say); inputs of up to 16 KB.
set +e
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/../Scripts/lsan-suppressions.txt:print_suppressions=0}" "$binary" "$work" "corpus/$target" "${dictionary[@]}" \
  -timeout="${FUZZ_TIMEOUT:-1}" -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$findings/" "${limit[@]}" "$@" 2>&1 | tee "$log" |
  grep -E '^(#[0-9]+ *(INITED|DONE)|==[0-9]+==|invariant broken|SUMMARY|Test unit written)'
status="${PIPESTATUS[0]}"
set -e

runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)"
slowest="$(sed -n 's/^stat::slowest_unit_time_sec: *//p' "$log" | tail -1)"
found="$(find "$findings" -type f | wc -l)"
echo "fuzz $target: ${runs:-?} runs, ${speed:-?} exec/s, slowest unit ${slowest:-?} s, findings: $found (exit $status)"
[ "$status" = 0 ] && [ "$found" = 0 ]
