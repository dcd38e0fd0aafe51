#!/usr/bin/env bash
# The test suite under the sanitizers, each in a build folder of its own (they rebuild everything,
# swift-syntax included):
#
#   Scripts/sanitize.sh [thread|address|all]     (all by default)
#
# thread: ThreadSanitizer on the runtime's tests (TrackcRuntimeTests, GeneratedCodeTests: the tracker,
#   its delivery lanes and the generated interceptors, called from many threads).
# address: AddressSanitizer (LeakSanitizer included) on every test; Scripts/lsan-suppressions.txt says which
#   leaks are not trackc's.
# A data race or a memory error fails the run; each prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
# Swift's crash backtracer and the sanitizers' own reports get in each other's way.
export SWIFT_BACKTRACE=enable=no
mode="${1:-all}"

timed() {
  local name="$1"
  shift
  local started=$SECONDS
  echo "sanitize: $name: $*"
  "$@"
  echo "sanitize: $name clean in $((SECONDS - started)) s"
}

case "$mode" in
  thread | all)
    # ThreadSanitizer slows the delivery lanes several times over: the fault matrix's progress bounds
    # (seconds, against a 30 s request timeout) are scaled by TimeLimits, as under AddressSanitizer, and
    # as much: its reset-after-headers row, 1.2 s without the sanitizer (bound 2.5 s), stalled 6.6 and 8.2 s
    # under it on two cores, past three times the bound.
    timed thread env TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}" TRACKC_TEST_TIME_SCALE=5 \
      swift test --sanitize=thread --scratch-path .build-tsan --filter 'TrackcRuntimeTests|GeneratedCodeTests'
    ;;&
  address | all)
    # A smaller quarantine (64 MB rather than 256) keeps the peak memory of the command-line tests' child
    # processes near their 300 MB ceiling; freed memory still waits there before it is reused.
    # The command-line tests' memory ceiling (300 MB) is raised by half for the instrumented binary, and
    # the tests' time limits are five times as long (Tests/TrackcTestSupport/TimeLimits.swift): under
    # AddressSanitizer, with the whole suite at once on two cores, one-minute limits on trivial tests ran out.
    # One test target at a time: Swift Testing runs a target's tests on the concurrency pool (as many
    # threads as cores), and the command-line and crash tests wait synchronously for instrumented child
    # processes that take minutes; all at once (seen on two cores), the collector's server tests, which
    # need the pool, and trivial tests ran out of even five-minute limits, apparently starved of it.
    for tests in TrackcCoreTests TrackcRuntimeTests TrackcCollectorTests GeneratedCodeTests TrackcCLITests; do
      timed "address $tests" env ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=64}" TRACKC_TEST_MEMORY_CEILING_MB=450 \
        TRACKC_TEST_TIME_SCALE=5 \
        LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0}" \
        swift test --sanitize=address --scratch-path .build-asan --filter "^$tests\\."
    done
    # The instrumented trackc shares .build/trackc-cache with the ordinary one, and what its workers
    # recorded there (slower parses given up, say) would stand for the ordinary build too.
    rm -rf .build/trackc-cache
    ;;
  thread) ;;
  *) echo "usage: $0 [thread|address|all]" >&2; exit 64 ;;
esac
