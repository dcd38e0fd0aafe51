#!/usr/bin/env bash
# Runs `trackc adopt` on two open-source iOS apps and prints, per app: the calls found, mapped to plan
# events, left in the code by reason, and the time taken. The apps are not part of this repository and
# nothing of them is copied into it: give checkouts of them (any folder holding their sources).
#
#   Scripts/adopt-real-apps.sh POCKET_CASTS_DIR DUCKDUCKGO_DIR
#
#   POCKET_CASTS_DIR   https://github.com/Automattic/pocket-casts-ios (calls `Analytics.track(.event, ...)`,
#                      an enum whose raw values the wrapper sends in snake_case)
#   DUCKDUCKGO_DIR     https://github.com/duckduckgo/iOS (calls `Pixel.fire(pixel: .event, ...)`, an enum
#                      whose `name` switches over its cases)
#
# TRACKC names the binary (default: a release build, built first when missing); RUNS (5) how many times
# each app is adopted cold and warm (the median is printed). The plans and reports go to a temporary
# folder, which is printed; the apps' files are never written (no --fix).
set -euo pipefail
if [ $# -ne 2 ]; then
  sed -n '2,15p' "$0" >&2
  exit 64
fi
root=$(cd "$(dirname "$0")/.." && pwd)
pocket_casts=$(cd "$1" && pwd)
duckduckgo=$(cd "$2" && pwd)
trackc=${TRACKC:-$root/.build/release/trackc}
runs=${RUNS:-5}
if [ ! -x "$trackc" ]; then
  (cd "$root" && swift build -c release --product trackc >&2)
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/trackc-adopt-XXXXXX")
echo "plans and reports in $work"

adopt() {
  local name=$1 dir=$2 sources=$3
  shift 3
  mkdir -p "$work/$name"
  # Cold (an empty scan cache), then warm (the cache the cold run wrote): RUNS runs each, the median.
  for run in cold warm; do
    local times=()
    for _ in $(seq "$runs"); do
      [ "$run" = cold ] && rm -rf "$work/$name/cache"
      local start end
      start=$(date +%s%N)
      (cd "$dir" && "$trackc" adopt --sources $sources --force --output "$work/$name/tracking.yaml" --cache-dir "$work/$name/cache" "$@" \
        >"$work/$name/report.txt" 2>"$work/$name/stderr.txt")
      end=$(date +%s%N)
      times+=($(((end - start) / 1000000)))
    done
    echo "$name, $run: median $(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') ms of $runs runs (${times[*]})"
  done
  grep '^trackc: found' "$work/$name/stderr.txt"
  echo "left, by reason:"
  grep -o '\[adopt-[a-z-]*\]' "$work/$name/report.txt" | sort | uniq -c | sort -rn
  echo "the plan: $(grep -c '^ *event: ' "$work/$name/tracking.yaml" || true) events; lint:"
  if (cd "$dir" && "$trackc" lint "$work/$name/tracking.yaml" --sources $sources --cache-dir "$work/$name/cache" >"$work/$name/lint.txt" 2>&1); then
    echo "  clean"
  else
    echo "  NOT clean: see $work/$name/lint.txt"
  fi
  echo
}

# The sources (folders of the checkout, words split on purpose), then the wrappers and how they name events.
adopt pocket-casts "$pocket_casts" podcasts \
  --wrapper 'Analytics.track(_:properties:)' --wrapper 'Analytics.track(_:source:properties:)' --wrapper 'Analytics.track(_:story:)' \
  --event-enum AnalyticsEvent --name-case snake_case
adopt duckduckgo "$duckduckgo" "DuckDuckGo Core AutofillCredentialProvider PacketTunnelProvider" \
  --wrapper 'Pixel.fire(pixel:withAdditionalParameters:)'
