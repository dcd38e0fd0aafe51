#!/usr/bin/env bash
# Builds the fuzz targets (Fuzz/Sources/fuzz-*) with libFuzzer and AddressSanitizer (LeakSanitizer
# included): `Fuzz/build.sh [debug|release]`, release by default. The binaries land in
# Fuzz/.build/<configuration>/fuzz-<target>; run them with Fuzz/run.sh.
#
# Swift 6.3 on Linux brings libFuzzer and the sanitizer runtimes with its own clang
# (/opt/swift/usr/lib/clang/*/lib/linux), so nothing else is needed. The sanitizers apply to every
# module, swift-syntax included, which is most of the build's time: a release build takes several
# minutes, a debug build (what .ci/run uses) about half as long. -enable-testing lets the scan-cache
# target reach the cache reader, which is internal to TrackcCore, and the journal and collector-request
# targets the journal's writer and the collector's JSON reader.
set -euo pipefail
cd "$(dirname "$0")"

configuration="${1:-release}"
case "$configuration" in
  debug | release) ;;
  *) echo "usage: $0 [debug|release]" >&2; exit 64 ;;
esac

# One product at a time (they share their objects, so only the first compiles much).
#
# `-Xswiftc -sanitize=fuzzer,address`, last: SwiftPM turns `--sanitize=fuzzer --sanitize=address` into two
# `-sanitize=` options in an order that changes from one run to the next (a set), and the Swift driver
# hands the frontend only the last one. So each build gave Swift code either coverage counters or
# AddressSanitizer, never both: half the time the fuzzers ran blind (178 counters: the target's own main
# file), the other half Swift code ran without ASan. One combined option, given last, is what the frontend
# sees every time. (`--sanitize` stays for the C targets and the link.)
build_targets() {
  for target in Sources/fuzz-*; do
    swift build -c "$configuration" --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
      -Xswiftc -enable-testing -Xswiftc -use-ld=lld --product "$(basename "$target")"
  done
}

# A target built without coverage is no fuzzer: libFuzzer would run it as blind random testing.
export SWIFT_BACKTRACE=enable=no
uninstrumented() {
  local target binary counters probe
  probe="$(mktemp -d)"
  for target in Sources/fuzz-*; do
    binary=".build/$configuration/$(basename "$target")"
    # Only the start-up banner matters here: no leak check (swift-foundation's leak on reading an empty
    # file, suppressed in run.sh, is reported otherwise) and no test unit written into Fuzz/.
    counters="$( (ASAN_OPTIONS=detect_leaks=0 "$binary" -runs=0 -artifact_prefix="$probe/" 2>&1 || true) |
      sed -n 's/.*(\([0-9]*\) inline 8-bit counters).*/\1/p')"
    if [ "${counters:-0}" -lt 10000 ]; then
      echo "$binary has ${counters:-no} coverage counters"
    fi
  done
  rm -rf "$probe"
}

build_targets
if [ -n "$(uninstrumented)" ]; then
  uninstrumented | sed 's/^/build.sh: not instrumented: /' >&2
  exit 1
fi
echo "built: $(cd .build/"$configuration" && ls -d fuzz-* | grep -v "\.product$" | tr "\n" " ")"
