#!/usr/bin/env bash
# The crash test, soaked: SIGKILLs the journaling child at random moments KILLS times (1,000 by
# default; half by the parent at a random moment, half by the child itself between delivery and the
# cursor's advance), restarting it each time, then checks that every acknowledged event was received,
# 0 lost, and reports raw duplicates.
#
#     Benchmarks/delivery/crash-soak.sh [KILLS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
export TRACKC_CRASH_KILLS="${1:-1000}"
if [ -n "${2:-}" ]; then export TRACKC_CRASH_SEED="$2"; fi
swift build --build-tests
swift test --skip-build --filter CrashTests 2>&1 | grep -E "crash test|✔|✘|error"
