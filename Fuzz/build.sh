#!/usr/bin/env bash
# Builds the fuzz targets (Fuzz/Sources/fuzz-*) with libFuzzer and AddressSanitizer (LeakSanitizer
# included): `Fuzz/build.sh [debug|release]`, release by default. The binaries land in
# Fuzz/.build/<configuration>/fuzz-<target>; run them with Fuzz/run.sh.
#
# Swift 6.3 on Linux brings libFuzzer and the sanitizer runtimes with its own clang
# (/opt/swift/usr/lib/clang/*/lib/linux), so nothing else is needed. The sanitizers apply to every
# module, swift-syntax included, which is most of the build's time: a release build takes several
# minutes, a debug build (what .ci/run uses) about half as long. -enable-testing lets the scan-cache
# target reach the cache reader, which is internal to TrackcCore.
set -euo pipefail
cd "$(dirname "$0")"

configuration="${1:-release}"
case "$configuration" in
  debug | release) ;;
  *) echo "usage: $0 [debug|release]" >&2; exit 64 ;;
esac

# SwiftPM names a path dependency after its folder: a checkout whose folder is itself called `fuzz`
# would clash with this package (folder `Fuzz`), and SwiftPM then loses the main package's products.
root_name="$(basename "$(cd .. && pwd -P)")"
if [ "${root_name,,}" = fuzz ]; then
  echo "build.sh: the checkout's folder is named '$root_name', which SwiftPM confuses with Fuzz/; build from a checkout (or a bind mount) under another name" >&2
  exit 1
fi

swift build -c "$configuration" --sanitize=fuzzer --sanitize=address -Xswiftc -enable-testing -Xswiftc -use-ld=lld
echo "built: $(cd .build/"$configuration" && ls -d fuzz-* | grep -v "\.product$" | tr "\n" " ")"
