#!/usr/bin/env bash
# Builds trackc's executables and writes them as a SwiftPM artifact bundle, `trackc.artifactbundle`, the way
# SwiftLint and SwiftGen ship theirs: prebuilt tools a package's plugins run instead of building them from
# source in every app's first build (docs/development/artifact-bundle.md).
#
#     Scripts/artifact-bundle.sh [-c release|debug] [--output DIRECTORY] [--binaries DIRECTORY] [--package] [--zip]
#
#   -c            the configuration to build (default: release)
#   --output      where to write the bundle (default: .build/artifactbundle)
#   --binaries    take `trackc` and `trackc-plugin-tool` from this directory (a build's `--show-bin-path`)
#                 instead of building them
#   --package     write beside the bundle a package, trackc-plugins, whose plugins (the sources of Plugins/,
#                 unchanged) run the bundle's tool: TrackcPrebuiltBuildPlugin and TrackcPrebuiltCommandPlugin
#   --zip         also write trackc.artifactbundle.zip and print its checksum, for `binaryTarget(url:checksum:)`
#
# The bundle holds one variant a platform: on Linux the host's (`<arch>-unknown-linux-gnu`; a release links
# the Swift runtime statically); on macOS a universal binary for `arm64-apple-macosx` and
# `x86_64-apple-macosx`, each slice built on its own and joined with `lipo`. A bundle already at the output
# keeps its other platforms' variants, so a bundle made on Linux and copied to a Mac gains the macOS variant
# there. The executables load libyaml at run time, as a build from source does.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
configuration=release
output=.build/artifactbundle
binaries=""
package=false
zip=false
while [ $# -gt 0 ]; do
  case "$1" in
    -c | --configuration) configuration="$2"; shift 2 ;;
    --output) output="$2"; shift 2 ;;
    --binaries) binaries="$2"; shift 2 ;;
    --package) package=true; shift ;;
    --zip) zip=true; shift ;;
    *) echo "usage: $0 [-c release|debug] [--output DIRECTORY] [--binaries DIRECTORY] [--package] [--zip]" >&2; exit 64 ;;
  esac
done
case "$configuration" in release | debug) ;; *) echo "artifact-bundle.sh: -c is release or debug, not '$configuration'" >&2; exit 64 ;; esac
mkdir -p "$output"
output="$(cd "$output" && pwd)"
bundle="$output/trackc.artifactbundle"
tools=(trackc trackc-plugin-tool)

# build [swift build arguments...]: both tools, for one platform; sets bin_path to where they are.
# (Written for macOS's bash 3.2 too: no name references, no empty arrays.)
build() {
  for tool in "${tools[@]}"; do swift build -c "$configuration" --product "$tool" "$@" >&2; done
  bin_path="$(swift build -c "$configuration" "$@" --show-bin-path)"
}

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
case "$(uname -s)" in
  Darwin)
    platform=macos
    if [ -n "$binaries" ]; then
      for tool in "${tools[@]}"; do cp "$binaries/$tool" "$staging/$tool"; done
    else
      # One slice an architecture (each links that architecture's libyaml: Homebrew's in /opt/homebrew
      # for arm64, in /usr/local for x86_64), then one universal file a tool.
      build --triple arm64-apple-macosx
      arm64_bin="$bin_path"
      build --triple x86_64-apple-macosx
      for tool in "${tools[@]}"; do lipo -create "$arm64_bin/$tool" "$bin_path/$tool" -output "$staging/$tool"; done
    fi
    # The triples are the architectures the executables hold (given binaries may hold one).
    triples="[$(lipo -archs "$staging/trackc-plugin-tool" | tr ' ' '\n' | sed 's/.*/"&-apple-macosx"/' | paste -sd, -)]"
    ;;
  Linux)
    triple="$(uname -m)-unknown-linux-gnu"
    platform="$triple"
    triples="[\"$triple\"]"
    if [ -n "$binaries" ]; then
      for tool in "${tools[@]}"; do cp "$binaries/$tool" "$staging/$tool"; done
    else
      # A release runs where no Swift toolchain is installed; a debug bundle is for trying the bundle here.
      if [ "$configuration" = release ]; then build --static-swift-stdlib; else build; fi
      for tool in "${tools[@]}"; do cp "$bin_path/$tool" "$staging/$tool"; done
    fi
    ;;
  *) echo "artifact-bundle.sh: no variant for $(uname -s)" >&2; exit 1 ;;
esac

version="$("$staging/trackc" --version)"
variant="trackc-$version-$platform"
mkdir -p "$bundle"
rm -rf "${bundle:?}/$variant"
mkdir -p "$bundle/$variant/bin"
for tool in "${tools[@]}"; do install -m 0755 "$staging/$tool" "$bundle/$variant/bin/$tool"; done
cp "$root/LICENSE" "$bundle/LICENSE"

# info.json (SE-0305): one executable artifact a tool, one variant a platform; another platform's variant
# already in the bundle stays.
python3 - "$bundle" "$version" "$variant" "$triples" "${tools[@]}" <<'PY'
import json, os, sys
bundle, version, variant, triples, tools = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), sys.argv[5:]
path = os.path.join(bundle, "info.json")
info = {"schemaVersion": "1.0", "artifacts": {}}
if os.path.exists(path):
    with open(path) as file:
        info = json.load(file)
for tool in tools:
    artifact = info["artifacts"].setdefault(tool, {"type": "executable", "variants": []})
    artifact["type"] = "executable"
    artifact["version"] = version
    kept = [v for v in artifact["variants"] if not set(v["supportedTriples"]) & set(triples) and os.path.exists(os.path.join(bundle, v["path"]))]
    artifact["variants"] = sorted(kept + [{"path": f"{variant}/bin/{tool}", "supportedTriples": triples}], key=lambda v: v["path"])
with open(path, "w") as file:
    json.dump(info, file, indent=2, sort_keys=True)
    file.write("\n")
PY
echo "artifact-bundle.sh: $bundle ($variant: ${tools[*]})" >&2

if $package; then
  # The plugins, unchanged, with the bundle's tool instead of one built from source. Their names differ
  # from the trackc package's, which an app also depends on (for TrackcRuntime): SwiftPM wants every
  # product and target name once in a package graph.
  rm -rf "$output/Plugins"
  mkdir -p "$output/Plugins/TrackcPrebuiltBuildPlugin" "$output/Plugins/TrackcPrebuiltCommandPlugin"
  cp "$root/Plugins/TrackcBuildPlugin/TrackcBuildPlugin.swift" "$output/Plugins/TrackcPrebuiltBuildPlugin/"
  cp "$root/Plugins/TrackcCommandPlugin/TrackcCommandPlugin.swift" "$output/Plugins/TrackcPrebuiltCommandPlugin/"
  cat >"$output/Package.swift" <<'SWIFT'
// swift-tools-version: 6.2
// Written by Scripts/artifact-bundle.sh: trackc's plugins, running the prebuilt tool of trackc.artifactbundle.
// To publish it, replace `path:` with the release's `url:` and `checksum:` (`--zip` prints them).
import PackageDescription

let package = Package(
  name: "trackc-plugins",
  products: [
    .plugin(name: "TrackcPrebuiltBuildPlugin", targets: ["TrackcPrebuiltBuildPlugin"]),
    .plugin(name: "TrackcPrebuiltCommandPlugin", targets: ["TrackcPrebuiltCommandPlugin"]),
  ],
  targets: [
    .binaryTarget(name: "TrackcTools", path: "trackc.artifactbundle"),
    .plugin(name: "TrackcPrebuiltBuildPlugin", capability: .buildTool(), dependencies: ["TrackcTools"]),
    .plugin(
      name: "TrackcPrebuiltCommandPlugin",
      capability: .command(
        intent: .custom(verb: "trackc", description: "Lint a tracking config, or generate its Swift registry into a target."),
        permissions: [.writeToPackageDirectory(reason: "trackc generate writes the registry into the target's directory.")]
      ),
      dependencies: ["TrackcTools"]
    ),
  ]
)
SWIFT
  echo "artifact-bundle.sh: $output/Package.swift (trackc-plugins)" >&2
fi

if $zip; then
  rm -f "$output/trackc.artifactbundle.zip"
  (cd "$output" && zip -qry trackc.artifactbundle.zip trackc.artifactbundle)
  echo "artifact-bundle.sh: $output/trackc.artifactbundle.zip, checksum $(swift package compute-checksum "$output/trackc.artifactbundle.zip")" >&2
fi
