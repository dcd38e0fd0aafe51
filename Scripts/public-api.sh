#!/usr/bin/env bash
# What an app sees of TrackcRuntime: its public symbols, one a line (`kind path`), without the SPI that only
# generated code imports (`@_spi(Generated)`). Reads the debug build's module (run `swift build` first).
#
#     Scripts/public-api.sh            # every public symbol
#     Scripts/public-api.sh --spi      # and the SPI ones, marked
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
include_spi=()
if [ "${1:-}" = --spi ]; then include_spi=(-include-spi-symbols); fi
swift-symbolgraph-extract -module-name TrackcRuntime -target "$(uname -m)-unknown-linux-gnu" -I .build/debug/Modules \
  -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap -minimum-access-level public "${include_spi[@]}" -output-dir "$out" >&2
python3 - "$out" <<'PY'
import glob, json, sys
lines = set()
for path in glob.glob(sys.argv[1] + "/*.symbols.json"):
    for symbol in json.load(open(path))["symbols"]:
        kind = symbol["kind"]["identifier"].split(".")[-1]
        name = ".".join(symbol["pathComponents"])
        lines.add(f"{kind} {name}" + (" (SPI)" if symbol.get("spi") else ""))
print("\n".join(sorted(lines)))
PY
