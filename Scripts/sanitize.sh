#!/usr/bin/env bash
# The test suite under the sanitizers, each in a build folder of its own (they rebuild everything,
# swift-syntax included). .ci/run runs both on every change:
#
#   Scripts/sanitize.sh thread                  ThreadSanitizer on the runtime's tests
#   Scripts/sanitize.sh address [TARGET...]     AddressSanitizer on these test targets (every one by default)
#   Scripts/sanitize.sh address-rotation        AddressSanitizer on one test target, chosen by the commit
#   Scripts/sanitize.sh all                     both, every test target
#
# thread: ThreadSanitizer on the runtime's tests (TrackcRuntimeTests, GeneratedCodeTests: the tracker,
#   its journal and delivery lanes and the generated interceptors, called from many threads).
# address: AddressSanitizer (LeakSanitizer included); Scripts/lsan-suppressions.txt says which leaks are
#   not trackc's. address-rotation: the test targets take turns, one a change, by the number of commits
#   on HEAD (printed), so that every target is run under it within five changes while a CI run stays
#   within its time; `address` with no target runs them all.
# A data race or a memory error fails the run; each step prints how long it took.
set -euo pipefail
cd "$(dirname "$0")/.."
# Swift's crash backtracer and the sanitizers' own reports get in each other's way.
export SWIFT_BACKTRACE=enable=no
# The manifest leaves the build plugin's fixture out under a sanitizer: building the plugin's tool would
# compile the whole command line again for the host, instrumented (Package.swift: `sanitizing`).
export TRACKC_SANITIZER=1
mode="${1:-all}"
shift || true
targets=(TrackcCoreTests TrackcRuntimeTests TrackcCollectorTests GeneratedCodeTests TrackcCLITests)

timed() {
  local name="$1"
  shift
  local started=$SECONDS
  echo "sanitize: $name: $*"
  "$@"
  echo "sanitize: $name: done in $((SECONDS - started)) s"
}

thread() {
  # The tests are built once (`--build-tests`), then run without building again.
  timed "thread: build" swift build --build-tests --sanitize=thread --scratch-path .build-tsan
  # ThreadSanitizer slows the delivery lanes several times over: the fault matrix's progress bounds
  # (seconds, against a 30 s request timeout) are scaled by TimeLimits, as under AddressSanitizer, and
  # as much: its reset-after-headers row, 1.2 s without the sanitizer (bound 2.5 s), stalled 6.6 and 8.2 s
  # under it on two cores, past three times the bound.
  timed "thread: TrackcRuntimeTests, GeneratedCodeTests" env TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}" TRACKC_TEST_TIME_SCALE=5 \
    swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '^(TrackcRuntimeTests|GeneratedCodeTests)\.'
}

address() {
  timed "address: build" swift build --build-tests --sanitize=address --scratch-path .build-asan
  # A smaller quarantine (64 MB rather than 256) keeps the peak memory of the command-line tests' child
  # processes near their 300 MB ceiling; freed memory still waits there before it is reused.
  # The command-line tests' memory ceiling (300 MB) is raised by half for the instrumented binary, and
  # the tests' time limits are five times as long (Tests/TrackcTestSupport/TimeLimits.swift): under
  # AddressSanitizer, with the whole suite at once on two cores, one-minute limits on trivial tests ran out.
  # One test target at a time: Swift Testing runs a target's tests on the concurrency pool (as many
  # threads as cores), and the command-line and crash tests wait synchronously for instrumented child
  # processes that take minutes; all at once (seen on two cores), the collector's server tests, which
  # need the pool, and trivial tests ran out of even five-minute limits, apparently starved of it.
  local tests
  for tests in "$@"; do
    timed "address: $tests" env ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=64}" TRACKC_TEST_MEMORY_CEILING_MB=450 \
      TRACKC_TEST_TIME_SCALE=5 \
      LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0}" \
      swift test --skip-build --sanitize=address --scratch-path .build-asan --filter "^$tests\\."
  done
  # The instrumented trackc shares .build/trackc-cache with the ordinary one, and what its workers
  # recorded there (slower parses given up, say) would stand for the ordinary build too.
  rm -rf .build/trackc-cache
}

case "$mode" in
  thread) thread ;;
  address) if (($#)); then address "$@"; else address "${targets[@]}"; fi ;;
  address-rotation)
    commits="$(git rev-list --count HEAD)"
    chosen="${targets[$((commits % ${#targets[@]}))]}"
    echo "sanitize: AddressSanitizer rotation: commit $commits of HEAD, $((commits % ${#targets[@]} + 1)) of ${#targets[@]}: $chosen (in turn: ${targets[*]})"
    address "$chosen"
    ;;
  all)
    thread
    address "${targets[@]}"
    ;;
  *) echo "usage: $0 thread | address [TARGET...] | address-rotation | all" >&2; exit 64 ;;
esac
