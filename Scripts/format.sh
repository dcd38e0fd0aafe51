#!/usr/bin/env bash
# The repository's Swift, formatted by swift-format with .swift-format: `Scripts/format.sh` rewrites in
# place, `Scripts/format.sh --check` (what .ci/run runs) fails on any finding.
#
# Left alone, because their bytes are data: generated code (checked by `trackc generate --check`
# instead), and the Swift fixtures whose lines and columns golden diagnostics and tests point into.
set -euo pipefail
cd "$(dirname "$0")/.."

files=()
while IFS= read -r file; do files+=("$file"); done < <(
  git ls-files '*.swift' |
    grep -v -E '^(Tests/Fixtures|Tests/GenerateFixtures|Tests/PluginFixture|Fuzz/corpus)/' |
    grep -v -E '/(ShopTracking|ShopScreens|BenchTracking)/' |
    grep -v -E '^Benchmarks/scan/(tree|Fixtures)/'
)

case "${1:-}" in
  --check) swift format lint --strict --parallel "${files[@]}" ;;
  "") swift format format --in-place --parallel "${files[@]}" ;;
  *) echo "usage: $0 [--check]" >&2; exit 64 ;;
esac
