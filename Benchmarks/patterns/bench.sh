#!/usr/bin/env bash
# Micro-benchmark of the event ID matchers: `bash Benchmarks/patterns/bench.sh [ROUNDS]`.
#
# Compiles main.swift with TrackcCore's pattern files (they use only the standard library) by
# `swiftc -O`, so it needs no build of the package, and runs it: per-ID medians of the default pattern's
# fast path, the linear-time matcher and Swift's Regex on the 105,000 IDs of Benchmarks/lint's config,
# and single matches that Regex cannot finish. Machine noise is real on a shared 2-core box: read medians.
set -euo pipefail
cd "$(dirname "$0")"
root=../../Sources/TrackcCore
work=../.work/patterns
mkdir -p "$work"
# DefaultEventIDPattern lives in EventIDPattern.swift beside the public type, which needs the rest of
# TrackcCore: take the enum alone.
sed -n '/^enum DefaultEventIDPattern/,$p' "$root/Plan/EventIDPattern.swift" > "$work/DefaultEventIDPattern.swift"
swiftc -O -wmo -o "$work/pattern-bench" \
  main.swift "$work/DefaultEventIDPattern.swift" \
  "$root"/RegularExpression/*.swift "$root/Support/NumberText.swift" 2>&1
"$work/pattern-bench" "$@"
