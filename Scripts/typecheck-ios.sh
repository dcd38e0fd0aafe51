#!/usr/bin/env bash
# Type-checks TrackcRuntime, its UIKit code included (Sources/TrackcRuntime/Apple), against the iOS
# simulator SDK, in Swift 6 mode with warnings as errors: what Linux cannot compile. Needs Xcode (macOS);
# where no iOS SDK is found it says so and exits 0. Usage: Scripts/typecheck-ios.sh [DEPLOYMENT_TARGET]
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v xcrun >/dev/null 2>&1 || ! sdk=$(xcrun --sdk iphonesimulator --show-sdk-path 2>/dev/null); then
  echo "typecheck-ios: no iOS SDK here (it comes with Xcode, on macOS): nothing checked"
  exit 0
fi
# The package's lowest iOS (Package.swift of the example: .iOS(.v16)), on the host's architecture.
target="$(uname -m)-apple-ios${1:-16.0}-simulator"
modules=$(mktemp -d)
trap 'rm -rf "$modules"' EXIT
swiftc=(xcrun --sdk iphonesimulator swiftc -swift-version 6 -target "$target" -sdk "$sdk" -parse-as-library -warnings-as-errors)

# TrackcRouting, which the runtime imports, as a module; then the runtime, checked against it and zlib.
"${swiftc[@]}" -module-name TrackcRouting -emit-module -emit-module-path "$modules/TrackcRouting.swiftmodule" \
  $(find Sources/TrackcRouting -name '*.swift' | sort)
"${swiftc[@]}" -typecheck -module-name TrackcRuntime -I "$modules" -I Sources/CZlib \
  $(find Sources/TrackcRuntime -name '*.swift' | sort)
echo "typecheck-ios: TrackcRuntime type-checks for $target ($(basename "$sdk"))"
