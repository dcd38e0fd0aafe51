#!/usr/bin/env bash
# What an app sees of TrackcRuntime: its public declarations, one a line (`kind path: declaration`),
# without the SPI that only generated code imports (`@_spi(Generated)`), read from a debug build's module
# with swift-symbolgraph-extract (run `swift build` first).
#
#     Scripts/public-api.sh            # print them
#     Scripts/public-api.sh --spi      # and the SPI ones, marked
#     Scripts/public-api.sh --check    # compare them with the committed baseline (CI): any difference fails
#     Scripts/public-api.sh --record   # write the baseline: a deliberate change of the API, with a CHANGELOG entry
#
# The baseline is Scripts/api/TrackcRuntime.txt ($TRACKC_API_BASELINE instead, for the test that shows a
# change fails the check); the modules are read from .build/debug/Modules ($TRACKC_MODULES instead).
set -euo pipefail
cd "$(dirname "$0")/.."
baseline="${TRACKC_API_BASELINE:-Scripts/api/TrackcRuntime.txt}"
modules="${TRACKC_MODULES:-.build/debug/Modules}"
mode="${1:-print}"
case "$mode" in
  print | --spi | --check | --record) ;;
  *) echo "usage: $0 [--spi | --check | --record]" >&2; exit 64 ;;
esac
if [ ! -f "$modules/TrackcRuntime.swiftmodule" ] && [ ! -d "$modules/TrackcRuntime.swiftmodule" ]; then
  echo "public-api.sh: no TrackcRuntime module in $modules: run 'swift build' first" >&2
  exit 2
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
include_spi=()
if [ "$mode" = --spi ]; then include_spi=(-include-spi-symbols); fi
swift-symbolgraph-extract -module-name TrackcRuntime -target "$(uname -m)-unknown-linux-gnu" -I "$modules" \
  -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap -minimum-access-level public "${include_spi[@]}" -output-dir "$out" >&2
python3 - "$out" >"$out/api.txt" <<'PY'
import glob, json, sys
lines = set()
for path in glob.glob(sys.argv[1] + "/*.symbols.json"):
    for symbol in json.load(open(path))["symbols"]:
        kind = symbol["kind"]["identifier"].split(".")[-1]
        name = ".".join(symbol["pathComponents"])
        declaration = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
        lines.add(f"{kind} {name}: {' '.join(declaration.split())}" + (" (SPI)" if symbol.get("spi") else ""))
print("\n".join(sorted(lines)))
PY
case "$mode" in
  print | --spi) cat "$out/api.txt" ;;
  --record)
    cp "$out/api.txt" "$baseline"
    echo "public-api.sh: recorded $(wc -l <"$baseline") declarations in $baseline"
    ;;
  --check)
    if ! diff -q "$baseline" "$out/api.txt" >/dev/null; then
      echo "TrackcRuntime's public API differs from $baseline:"
      { diff "$baseline" "$out/api.txt" || true; } | sed -n 's/^< /  removed: /p; s/^> /  added:   /p'
      echo "A change an app can see is a decision: if it is meant, run Scripts/public-api.sh --record, commit the"
      echo "baseline with the change, and say what changed in CHANGELOG.md (docs/api-stability.md)."
      exit 1
    fi
    echo "public-api.sh: TrackcRuntime's public API is the baseline's ($(wc -l <"$baseline") declarations)"
    ;;
esac
