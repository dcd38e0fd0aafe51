#!/usr/bin/env bash
# Minimises a target's committed corpus: `Fuzz/merge.sh TARGET [MORE_DIRS...]` keeps, of Fuzz/corpus/TARGET,
# the inputs a run found (Fuzz/artifacts/corpus/TARGET) and MORE_DIRS (seeds from Fuzz/seeds.py, say),
# only those that add coverage, and writes them back to Fuzz/corpus/TARGET.
set -euo pipefail
cd "$(dirname "$0")"
# Swift's own crash backtracer reads memory that AddressSanitizer then reports; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
target="${1:?usage: $0 TARGET [MORE_DIRS...]}"
shift
binary=".build/${FUZZ_CONFIGURATION:-release}/fuzz-$target"
[ -x "$binary" ] || { echo "merge.sh: $binary is not built; run Fuzz/build.sh" >&2; exit 1; }
merged="artifacts/merged-$target"
rm -rf "$merged"
mkdir -p "$merged" "corpus/$target" "artifacts/corpus/$target"
"$binary" -merge=1 -artifact_prefix="artifacts/merge-$target-" -max_len=16384 -timeout=10 -rss_limit_mb=2048 "$merged" "corpus/$target" "artifacts/corpus/$target" "$@" 2>&1 |
  grep -E '^MERGE-OUTER: [0-9]+ new files|==[0-9]+==' || true
rm -rf "corpus/$target"
mv "$merged" "corpus/$target"
echo "corpus/$target: $(ls "corpus/$target" | wc -l) inputs, $(du -sk "corpus/$target" | cut -f1) KB"
