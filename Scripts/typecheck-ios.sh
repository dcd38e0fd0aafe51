#!/usr/bin/env bash
# Type-checks, against Apple's iOS SDK, every line of this repository that an iOS app compiles: the
# runtime (UIKit code included), the generated code of every plan in the repository and of a plan that
# uses every shape the generator writes (generated afresh), and the feature code beside them. Swift 6
# language mode, warnings as errors, each package at its lowest declared iOS. With the iOS SDK kit, the
# same compiler invocations also emit each unit's object, optimized as a release build (-O), and every
# app below is linked for arm64 iOS with the kit's `ld-ios` (an unresolved symbol fails the run and is
# named with the unit that uses it). Nothing runs.
#
#   Scripts/typecheck-ios.sh                  the framework types' table, every unit below, every app linked, then
#                                             the negative controls
#   Scripts/typecheck-ios.sh UNIT...          those units (and what they depend on), and the apps they make up
#   Scripts/typecheck-ios.sh --negative-control   only the negative controls (below)
#   Scripts/typecheck-ios.sh --list           the units, one a line
#   TRACKC_IOS_LINK=0 Scripts/typecheck-ios.sh ...   type-check only: no objects, no links
#
# The SDK: on macOS, Xcode's iOS simulator SDK (xcrun); elsewhere the iOS SDK kit's `swiftc-ios` (the
# iOS 17.4 SDK's interfaces, for the toolchain's own compiler), found at $TRACKC_IOS_SDK, else at
# `shared/ios-sdk` beside the repository or a folder above it (the main worktree's, for a git worktree).
# Without an SDK it prints "not run: <reason>" and exits 0, except under CI=true, where that fails.
# Work files (emitted modules, generated code, the compiler's output) go to .build/apple/ios.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# --- The units -------------------------------------------------------------------------------------
# One a line:  MODULE  FLOOR  DEPENDENCIES  FLAGS  SOURCES...
#   FLOOR         the package directory whose Package.swift declares the lowest iOS (`.iOS(.v16)`), the
#                 Xcode project whose app target sets it (IPHONEOS_DEPLOYMENT_TARGET), or a version
#                 (`16.0`) for sources neither declares
#   DEPENDENCIES  modules of earlier units it imports, comma-separated, or `-`; a unit another imports
#                 is emitted as a module (-emit-module -wmo), the others are type-checked (-typecheck)
#   FLAGS         comma-separated names from `flag_set` below, or `-`: the flags the package compiles
#                 the module with (a feature module that generated code replaces methods of is
#                 `replaceable`; the module that holds the replacements is `replacing`; an executable's
#                 module with top-level code in main.swift is `top-level`)
#   SOURCES       folders (every .swift file under them) or files; `@gen/` is the folder of the code
#                 generated afresh by `generate_fresh` below
# Adding a module an app compiles is one line here (and its name in its app's line of `apps` below).
# ShopLaunch and FixturesLaunch stand for the entry point of apps whose packages have none for iOS (the
# Shop's is a library its scripted session and tests drive; the generator's fixtures are modules).
units() {
  cat <<'UNITS'
TrackcLinks             .                        -                                  -                    Sources/TrackcLinks
TrackcRuntime             .                        TrackcLinks                      -                    Sources/TrackcRuntime
GenerateFixtureFeature    .                        -                                  replaceable,testing  Tests/GenerateFixtures/Sources/GenerateFixtureFeature
GenerateFixtureUI         .                        -                                  replaceable,testing  Tests/GenerateFixtures/Sources/GenerateFixtureUI
GenerateFixtureCart       .                        GenerateFixtureUI                  replaceable,testing  Tests/GenerateFixtures/Sources/GenerateFixtureCart
GenerateFixtureTracking   .                        GenerateFixtureFeature,GenerateFixtureUI,GenerateFixtureCart,TrackcRuntime  replacing  Tests/GenerateFixtures/Sources/GenerateFixtureTracking
FixtureViews              .                        GenerateFixtureFeature,GenerateFixtureTracking  -       Tests/GenerateFixtures/SwiftUI/Sources/FixtureViews
FeedApp                   .                        GenerateFixtureTracking            -                    Tests/GenerateFixtures/ObjCApp/Sources/FeedApp
ShopUI                    Examples/Shop            -                                  replaceable          Examples/Shop/Sources/ShopUI
Home                      Examples/Shop            ShopUI                             replaceable          Examples/Shop/Sources/Home
ProductDetail             Examples/Shop            ShopUI                             replaceable          Examples/Shop/Sources/ProductDetail
Cart                      Examples/Shop            ShopUI                             replaceable          Examples/Shop/Sources/Cart
ShopScreens               Examples/Shop            TrackcRuntime                      -                    Examples/Shop/Sources/ShopScreens
Checkout                  Examples/Shop            ShopUI,ShopScreens                 replaceable          Examples/Shop/Sources/Checkout
Wishlist                  Examples/Shop            -                                  replaceable          Examples/Shop/Sources/Wishlist
ShopTracking              Examples/Shop            ShopUI,Home,ProductDetail,Cart,Checkout,Wishlist,TrackcRuntime  replacing  Examples/Shop/Sources/ShopTracking
ShopApp                   Examples/Shop            ShopUI,Home,ProductDetail,Cart,Checkout,Wishlist,ShopScreens,ShopTracking,TrackcRuntime  -  Examples/Shop/Sources/ShopApp
BenchFeature              Benchmarks/interception  -                                  replaceable          Benchmarks/interception/Sources/BenchFeature
BenchTracking             Benchmarks/interception  BenchFeature,TrackcRuntime         replacing            Benchmarks/interception/Sources/BenchTracking
BenchPlain                Benchmarks/interception  -                                  -                    Benchmarks/interception/Sources/BenchPlain
InterceptionBench         Benchmarks/interception  BenchPlain,BenchFeature,BenchTracking,TrackcRuntime  top-level  Benchmarks/interception/Sources/InterceptionBench
ShopLaunch                Examples/Shop            ShopApp,ShopTracking,TrackcRuntime  -                   Scripts/apple/launch/ShopLaunch
PluginFixtureTracking     .                        TrackcRuntime                      -                    Tests/PluginFixture/Sources/PluginFixtureTracking @gen/PluginFixtureTracking
ShapesKit                 16.0                     -                                  replaceable,testing  Tests/GenerateFixtures/EveryShape/Sources/ShapesKit
ShapesScreens             16.0                     TrackcRuntime                      -                    @gen/Sources/ShapesScreens
ShapesFeature             16.0                     ShapesKit,ShapesScreens            replaceable,testing  Tests/GenerateFixtures/EveryShape/Sources/ShapesFeature
ShapesTracking            16.0                     ShapesKit,ShapesFeature,TrackcRuntime  replacing        @gen/Sources/ShapesTracking
ShapesObjCTracking        16.0                     TrackcRuntime                      -                    @gen/Sources/ShapesObjCTracking
ShapesLegacy              16.0                     ShapesKit,ShapesObjCTracking       -                    Tests/GenerateFixtures/EveryShape/Sources/ShapesLegacy
ShapesApp                 16.0                     ShapesFeature,ShapesTracking,ShapesObjCTracking,ShapesLegacy  -  Tests/GenerateFixtures/EveryShape/Sources/ShapesApp
Storefront                Examples/ShopApp-iOS/Storefront.xcodeproj  TrackcRuntime  -                    Examples/ShopApp-iOS/Storefront @gen/Storefront
FixturesLaunch            .                        GenerateFixtureTracking,PluginFixtureTracking,TrackcRuntime  -  Scripts/apple/launch/FixturesLaunch
UNITS
}

# --- The hooks' signatures ----------------------------------------------------------------------------
# One a line:  REGISTRY  REGISTRY_MODULE  UNITS
# A registry generated under `interception: objc-runtime`, the module it is compiled into, and the units
# that declare its hooked classes: after the units type-check, their LLVM IR is emitted and
# Scripts/apple/check-hook-signatures.py checks that each hook's class and selector are there and that the
# method's Objective-C type encoding is the generated replacement's C signature, argument by argument.
hook_checks() {
  cat <<'HOOKS'
@gen/Sources/ShapesObjCTracking/ObjCTracking.swift                        ShapesObjCTracking       ShapesKit,ShapesLegacy
Tests/GenerateFixtures/Sources/GenerateFixtureTracking/ObjCTracking.swift  GenerateFixtureTracking  FeedApp
@gen/Storefront/Tracking.swift                                            Storefront               Storefront
HOOKS
}

# --- The apps ----------------------------------------------------------------------------------------
# One a line:  APP  UNITS
# Each app's units' objects are linked into one arm64 iOS executable, twice: without -dead_strip, so that
# every symbol any of its objects uses must resolve against the SDK (a dead-stripped link does not look
# up what unreachable code uses), then with -dead_strip, as an app ships (its sizes are printed). An app
# is linked when all its units were asked for and compiled. Every unit above is in an app.
apps() {
  cat <<'APPS'
Shop              TrackcLinks,TrackcRuntime,ShopUI,Home,ProductDetail,Cart,ShopScreens,Checkout,Wishlist,ShopTracking,ShopApp,ShopLaunch
Storefront        TrackcLinks,TrackcRuntime,Storefront
EveryShape        TrackcLinks,TrackcRuntime,ShapesKit,ShapesScreens,ShapesFeature,ShapesTracking,ShapesObjCTracking,ShapesLegacy,ShapesApp
InterceptionBench TrackcLinks,TrackcRuntime,BenchPlain,BenchFeature,BenchTracking,InterceptionBench
GenerateFixtures  TrackcLinks,TrackcRuntime,GenerateFixtureFeature,GenerateFixtureUI,GenerateFixtureCart,GenerateFixtureTracking,FixtureViews,FeedApp,PluginFixtureTracking,FixturesLaunch
APPS
}

flag_set() {
  case $1 in
    replaceable) echo "-Xfrontend -enable-implicit-dynamic" ;;
    replacing) echo "-Xfrontend -enable-dynamic-replacement-chaining" ;;
    testing) echo "-enable-testing" ;;
    top-level) echo "" ;; # (read where the compiler is called: no -parse-as-library)
    *) echo "typecheck-ios: unknown flag set '$1'" >&2; return 1 ;;
  esac
}

# --- The SDK ---------------------------------------------------------------------------------------
not_run() {
  if [[ ${CI:-} == true ]]; then
    echo "typecheck-ios: error: $1 (under CI=true this fails the run)" >&2
    exit 1
  fi
  echo "typecheck-ios: not run: $1"
  exit 0
}

# The kit: $TRACKC_IOS_SDK, else shared/ios-sdk beside this repository or a folder above it, or beside
# the main worktree when this is a git worktree.
find_kit() {
  if [[ -n ${TRACKC_IOS_SDK:-} ]]; then
    [[ -x $TRACKC_IOS_SDK/swiftc-ios ]] && { echo "$TRACKC_IOS_SDK"; return; }
    echo "typecheck-ios: TRACKC_IOS_SDK=$TRACKC_IOS_SDK holds no swiftc-ios" >&2
    return 1
  fi
  local starts=("$root") common
  if common=$(git -C "$root" rev-parse --path-format=absolute --git-common-dir 2>/dev/null); then
    starts+=("$(dirname "$common")")
  fi
  local start dir
  for start in "${starts[@]}"; do
    dir=$start
    while [[ $dir != / ]]; do
      dir=$(dirname "$dir")
      [[ -x $dir/shared/ios-sdk/swiftc-ios ]] && { echo "$dir/shared/ios-sdk"; return; }
    done
  done
  return 1
}

work=${TRACKC_APPLE_WORK:-$root/.build/apple}/ios
if command -v xcrun >/dev/null 2>&1 && sdk=$(xcrun --sdk iphonesimulator --show-sdk-path 2>/dev/null); then
  # Xcode: its iOS simulator SDK, for the host's architecture.
  sdk_name="Xcode's $(basename "$sdk")"
  compile() { # floor, arguments
    local os=$1
    shift
    xcrun --sdk iphonesimulator swiftc -target "$(uname -m)-apple-ios$os-simulator" -sdk "$sdk" "$@"
  }
  shims=()
  # Xcode links in its own builds (the Apple workflow's xcodebuild); the links here use the kit's ld-ios.
  link=false
  link_skipped="the links use the iOS SDK kit's ld-ios, not Xcode"
elif kit=$(find_kit); then
  # The kit's iOS 17.4 SDK; Swift 6.0's count(where:), which its standard library lacks, from its shims.
  sdk_name="the iOS 17.4 SDK of $kit"
  # The compiler's cache of the SDK's modules stays where the kit puts it (TRACKC_IOS_WORK, by default
  # under TMPDIR), shared by every clone: built once (about two minutes), then reused.
  compile() {
    local os=$1
    shift
    "$kit/swiftc-ios" --os "$os" "$@"
  }
  shims=("$kit/Swift6Shims.swift")
  # The links: the kit's ld-ios runs Debian's ld64.lld (`lld`; the Swift toolchain's own is built
  # without iOS support).
  link=true link_skipped=
  if [[ ${TRACKC_IOS_LINK:-1} == 0 ]]; then
    link=false link_skipped="TRACKC_IOS_LINK=0"
  elif ! compgen -G '/usr/lib/llvm-*/bin/ld64.lld' >/dev/null && ! compgen -G '/usr/bin/ld64.lld-*' >/dev/null; then
    [[ ${CI:-} == true ]] && { echo "typecheck-ios: error: no LLVM ld64.lld to link with (apt-get install lld; under CI=true this fails the run)" >&2; exit 1; }
    link=false link_skipped="no LLVM ld64.lld (apt-get install lld)"
  fi
else
  not_run "no iOS SDK: no Xcode here, and no iOS SDK kit at \$TRACKC_IOS_SDK or shared/ios-sdk beside the repository"
fi

# --- Code generated afresh ---------------------------------------------------------------------------
# Generated by this checkout's trackc into @gen/: the every-shape fixture's two plans (in a copy of the
# fixture, so that its platform files and privacy manifest are written there too), and the registries the
# build plugin writes (`--single-file`) for its fixture and for the Xcode example's app target.
generate_fresh() {
  local fixture=Tests/GenerateFixtures/EveryShape gen=$work/generated trackc=${TRACKC:-}
  if [[ -z $trackc ]]; then
    swift build --product trackc >"$work/trackc-build.log" 2>&1 || { cat "$work/trackc-build.log"; return 1; }
    trackc=$(swift build --show-bin-path)/trackc
  fi
  rm -rf "$gen" && mkdir -p "$gen" && cp -R "$fixture/." "$gen/"
  {
    (cd "$gen" &&
      "$trackc" generate tracking.yaml --output Sources/ShapesTracking --swiftui-output Sources/ShapesScreens &&
      "$trackc" generate objc-runtime.yaml --name ObjCTracking --output Sources/ShapesObjCTracking) &&
      "$trackc" generate Tests/PluginFixture/Sources/PluginFixtureTracking/tracking.yaml --output "$gen/PluginFixtureTracking" --single-file &&
      "$trackc" generate Examples/ShopApp-iOS/Storefront/tracking.yaml --output "$gen/Storefront" --single-file
  } >"$work/generate.log" 2>&1 || { echo "typecheck-ios: trackc generate failed:"; cat "$work/generate.log"; return 1; }
}

# --- Running the units ---------------------------------------------------------------------------------
# The lowest iOS a package declares (`.iOS(.v16)` -> 16.0, `.iOS(.v17_2)` -> 17.2), or the version given.
floor_of() {
  if [[ $1 =~ ^[0-9]+(\.[0-9]+)*$ ]]; then echo "$1"; return; fi
  local declared
  if [[ $1 == *.xcodeproj ]]; then
    # Every configuration of the app target states the same one (the project's test checks it).
    declared=$(grep -oE 'IPHONEOS_DEPLOYMENT_TARGET = [0-9.]+;' "$1/project.pbxproj" | head -1 | sed -E 's/.* = ([0-9.]+);/\1/') || true
    [[ -n $declared ]] || { echo "typecheck-ios: $1 sets no IPHONEOS_DEPLOYMENT_TARGET" >&2; return 1; }
    [[ $declared == *.* ]] || declared=$declared.0
    echo "$declared"
    return
  fi
  declared=$(grep -oE '\.iOS\(\.v[0-9_]+\)' "$1/Package.swift" | head -1 | sed -E 's/.*\.v([0-9_]+)\)/\1/; s/_/./g') || true
  [[ -n $declared ]] || { echo "typecheck-ios: $1/Package.swift declares no iOS platform" >&2; return 1; }
  [[ $declared == *.* ]] || declared=$declared.0
  echo "$declared"
}

# The table, as parallel arrays (bash 3.2, macOS's, has no associative arrays); `in_list` and `index_of`
# look up by name.
names=() floors=() deps_of=() flags_of=() sources_of=() imported=" "
while read -r name floor deps flags sources; do
  [[ -z $name || $name == \#* ]] && continue
  names+=("$name") floors+=("$floor") deps_of+=("${deps//,/ }") flags_of+=("${flags//,/ }") sources_of+=("$sources")
  [[ $deps == - ]] || imported+="${deps//,/ } "
done < <(units; printf '%s\n' "${TRACKC_IOS_EXTRA_UNITS:-}")
in_list() { [[ " $2 " == *" $1 "* ]]; }
index_of() {
  local i
  for i in "${!names[@]}"; do [[ ${names[i]} == "$1" ]] && { echo "$i"; return; }; done
  return 1
}

# Every unit of the table is linked into an app, and every app names units of the table.
in_app=" "
while read -r app app_units; do
  [[ -z $app ]] && continue
  for unit in ${app_units//,/ }; do
    index_of "$unit" >/dev/null || { echo "typecheck-ios: app $app names no unit '$unit'" >&2; exit 1; }
  done
  in_app+="${app_units//,/ } "
done < <(apps; printf '%s\n' "${TRACKC_IOS_EXTRA_APPS:-}")
while read -r name _; do
  [[ -z $name ]] && continue
  in_list "$name" "$in_app" || { echo "typecheck-ios: unit $name is in no app of the table of apps" >&2; exit 1; }
done < <(units)

if [[ ${1:-} == --list ]]; then
  printf '%s\n' "${names[@]}"
  exit 0
fi

# --- The negative control ----------------------------------------------------------------------------
# That the stage can fail: a copy of a unit (ShapesKit: UIKit, no dependencies) with a planted file that
# holds two errors, a type error and an iOS 17 API below the iOS 16 floor, is run through this script as a
# unit of its own; the run must fail, and both errors must be in what it prints. Run after the units
# (and alone with --negative-control).
negative_control=false
if [[ ${1:-} == --negative-control ]]; then
  shift
  (($# == 0)) || { echo "usage: $0 --negative-control" >&2; exit 64; }
  negative_control=true
  set -- ShapesKit
elif (($# == 0)); then
  negative_control=true
fi
run_negative_control() {
  local copy=$work/planted/PlantedKit output status=0
  rm -rf "$copy" && mkdir -p "$copy"
  cp -R Tests/GenerateFixtures/EveryShape/Sources/ShapesKit/. "$copy/"
  cat >"$copy/Planted.swift" <<'PLANTED'
import Observation
import UIKit

// Planted by the negative control of Scripts/typecheck-ios.sh: two errors the stage must report.
@Observable final class PlantedModel { var count = 0 }  // Observation is iOS 17; the floor is iOS 16.
let plantedFrame: CGRect = 42  // Not a CGRect.
PLANTED
  echo "typecheck-ios: negative control: $copy, a copy of ShapesKit with Planted.swift"
  output=$(TRACKC_IOS_RUN=negative-control TRACKC_IOS_LINK=0 TRACKC_IOS_EXTRA_UNITS="PlantedKit . - replaceable $copy" "$0" PlantedKit 2>&1) || status=$?
  grep -E '(^typecheck-ios|Planted.swift:[0-9:]+ error):' <<<"$output" | sed 's/^/  | /' || true
  local expected missing=()
  for expected in "FAILED  PlantedKit" \
    "Planted.swift:5:2: error: 'Observable()' is only available in iOS 17.0 or newer" \
    "Planted.swift:6:28: error: cannot convert value of type 'Int' to specified type 'CGRect'"; do
    grep -qF "$expected" <<<"$output" || missing+=("$expected")
  done
  if ((status == 0 || ${#missing[@]})); then
    echo "typecheck-ios: error: the negative control did not fail as it must (exit status $status; missing: ${missing[*]+"${missing[*]}"})"
    exit 1
  fi
  echo "typecheck-ios: negative control: the planted errors fail the stage (exit status $status), as they must"
}

# That a link can fail: a unit whose entry point calls a C function that no library of the SDK exports
# (declared with @_silgen_name, as a misspelt C function would be), linked as an app of its own; the run
# must fail, naming the symbol and the unit.
run_link_negative_control() {
  local copy=$work/planted/PlantedLink output status=0
  rm -rf "$copy" && mkdir -p "$copy"
  cat >"$copy/PlantedLink.swift" <<'PLANTED'
// Planted by the link negative control of Scripts/typecheck-ios.sh: a C function no SDK library exports.
@_silgen_name("trackc_planted_missing_function")
func plantedMissingFunction() -> Int32

@main
enum PlantedLink {
  static func main() { _ = plantedMissingFunction() }
}
PLANTED
  echo "typecheck-ios: link negative control: $copy, an app calling a C function no SDK library exports"
  output=$(TRACKC_IOS_RUN=link-negative-control TRACKC_IOS_EXTRA_UNITS="PlantedLink 16.0 - - $copy" \
    TRACKC_IOS_EXTRA_APPS="PlantedLink PlantedLink" "$0" PlantedLink 2>&1) || status=$?
  grep -E '^(typecheck-ios: (FAILED|[0-9]+ apps)|  \|)' <<<"$output" || true
  local expected missing=()
  for expected in "FAILED  link PlantedLink" "undefined symbol: _trackc_planted_missing_function" \
    ">>> referenced by unit PlantedLink"; do
    grep -qF -- "$expected" <<<"$output" || missing+=("$expected")
  done
  if ((status == 0 || ${#missing[@]})); then
    echo "typecheck-ios: error: the link negative control did not fail as it must (exit status $status; missing: ${missing[*]+"${missing[*]}"})"
    exit 1
  fi
  echo "typecheck-ios: link negative control: the missing function fails the link (exit status $status), as it must"
}

# The units asked for, with what they import, in the table's order.
wanted=" "
want() {
  local i dep
  i=$(index_of "$1") || { echo "typecheck-ios: no unit '$1' (--list lists them)" >&2; exit 64; }
  in_list "$1" "$wanted" && return
  wanted+="$1 "
  [[ ${deps_of[i]} == - ]] || for dep in ${deps_of[i]}; do want "$dep"; done
}
if (($#)); then for name in "$@"; do want "$name"; done; else wanted=" ${names[*]} "; fi

# This run's emitted modules and compiler output (the negative control's run has its own).
run=$work/${TRACKC_IOS_RUN:-run}
rm -rf "$run" && mkdir -p "$run/modules" "$run/log" "$run/objects" "$run/apps"
modules=$run/modules log=$run/log objects=$run/objects
started=$SECONDS
echo "typecheck-ios: against $sdk_name, Swift 6 language mode, warnings as errors"

# trackc's table of Apple's framework types (Sources/TrackcCore/CodeCheck/AppleFrameworkTypes.swift), which
# tells a handler argument's Objective-C form by its kind in the SDK, must be what the kit's SDK gives: read
# afresh with the kit (the symbol graphs Swift extracts, the encodings clang computes). On every full run.
if (($# == 0)) && [[ -n ${kit:-} ]]; then
  types_started=$SECONDS
  TRACKC_IOS_SDK=$kit python3 Scripts/apple/framework-types.py --check || exit 1
  echo "typecheck-ios: the framework types' table checked ($((SECONDS - types_started)) s)"
fi

needs_generated=false
for i in "${!names[@]}"; do in_list "${names[i]}" "$wanted" && [[ ${sources_of[i]} == *@gen/* ]] && needs_generated=true; done
if $needs_generated; then generate_fresh || exit 1; fi

# The C modules of the package's targets (zlib, which TrackcRuntime imports), visible to every unit as
# SwiftPM makes them visible to the targets that depend on them.
c_modules=(-I "$root/Sources/CZlib")

# The units whose IR the hook checks read.
ir_units=" "
while read -r _ _ units; do [[ -n $units ]] && ir_units+="${units//,/ } "; done < <(hook_checks)
mkdir -p "$run/ir"

passed=" " failed=() count=0
for i in "${!names[@]}"; do
  name=${names[i]}
  in_list "$name" "$wanted" || continue
  count=$((count + 1))
  missing=()
  if [[ ${deps_of[i]} != - ]]; then
    for dep in ${deps_of[i]}; do in_list "$dep" "$passed" || missing+=("$dep"); done
  fi
  if ((${#missing[@]})); then
    echo "typecheck-ios: skipped $name: ${missing[*]} did not type-check (or come before it in the table)"
    failed+=("$name")
    continue
  fi
  os=$(floor_of "${floors[i]}")
  files=()
  for source in ${sources_of[i]}; do
    source=${source/#@gen\//$work/generated/}
    [[ -e $source ]] || { echo "typecheck-ios: $name: no $source" >&2; exit 1; }
    while IFS= read -r file; do files+=("$file"); done < <(find "$source" -name '*.swift' | LC_ALL=C sort)
  done
  flags=()
  if [[ ${flags_of[i]} != - ]]; then
    for set in ${flags_of[i]}; do read -ra more <<<"$(flag_set "$set")"; flags+=("${more[@]}"); done
  fi
  if in_list "$name" "$imported"; then
    mode=(-emit-module -emit-module-path "$modules/$name.swiftmodule")
    what=emitted
  else
    mode=(-typecheck)
    what=type-checked
  fi
  if $link; then
    # The same invocation emits the unit's object, optimized as a release build; the kit has none of the
    # back-deployment libraries Xcode's toolchain links, which the runtime's compatibility version needs.
    [[ ${mode[0]} == -typecheck ]] && mode=()
    # CoreAudioTypes (which CoreMedia's module imports) is a framework of headers alone, in Apple's SDK as
    # in the kit: there is no library to link. Apple's linker passes over an auto-link request it cannot
    # find; lld fails on it, so the objects do not ask.
    mode+=(-c -O -runtime-compatibility-version none -Xfrontend -disable-autolink-framework -Xfrontend CoreAudioTypes -o "$objects/$name.o")
    what+=" and compiled -O"
  fi
  library=(-parse-as-library)
  in_list top-level "${flags_of[i]}" && library=()
  unit_started=$SECONDS
  # (`${a[@]+"${a[@]}"}`: an empty array, under `set -u` in bash 3.2.)
  if compile "$os" "${mode[@]}" -wmo ${library[@]+"${library[@]}"} -swift-version 6 -warnings-as-errors -diagnostic-style llvm -module-name "$name" \
    -I "$modules" "${c_modules[@]}" ${flags[@]+"${flags[@]}"} "${files[@]}" ${shims[@]+"${shims[@]}"} >"$log/$name.txt" 2>&1; then
    passed+="$name "
    echo "typecheck-ios: ok      $name (iOS $os, ${#files[@]} files, $what, $((SECONDS - unit_started)) s)"
    if in_list "$name" "$ir_units" && ! compile "$os" -emit-ir -wmo ${library[@]+"${library[@]}"} -swift-version 6 -module-name "$name" \
      -I "$modules" "${c_modules[@]}" ${flags[@]+"${flags[@]}"} "${files[@]}" ${shims[@]+"${shims[@]}"} -o "$run/ir/$name.ll" >"$log/$name.ir.txt" 2>&1; then
      echo "typecheck-ios: FAILED  $name: its LLVM IR (for the hook checks):"
      cat "$log/$name.ir.txt"
      failed+=("$name")
    fi
  else
    failed+=("$name")
    echo "typecheck-ios: FAILED  $name (iOS $os, ${#files[@]} files):"
    sed "s|$work/generated/|@gen/|g" "$log/$name.txt"
  fi
done

if ((${#failed[@]})); then
  echo "typecheck-ios: ${#failed[@]} of $count units failed: ${failed[*]} ($((SECONDS - started)) s)"
  exit 1
fi
echo "typecheck-ios: $count units type-check for iOS ($((SECONDS - started)) s)"
hook_failures=0
while read -r registry module units; do
  [[ -z $registry ]] && continue
  irs=() complete=true
  for unit in ${units//,/ }; do
    if in_list "$unit" "$passed"; then irs+=("$run/ir/$unit.ll"); else complete=false; fi
  done
  $complete || continue
  python3 Scripts/apple/check-hook-signatures.py --registry "${registry/#@gen\//$work/generated/}" --module "$module" "${irs[@]}" |
    sed "s|$work/generated/|@gen/|g" || hook_failures=$((hook_failures + 1))
done < <(hook_checks)
if ((hook_failures)); then
  echo "typecheck-ios: $hook_failures registries' hooks do not match the signatures Swift emits"
  exit 1
fi

# --- The links -----------------------------------------------------------------------------------------
# An app's segments as the linked file holds them: each segment's sections added up (the segment itself
# is rounded up to 16 KiB pages), and the file's size.
segments() {
  llvm-size -m "$1" | awk -v file="$(wc -c <"$1")" '
    /^Segment / { segment = $2; sub(":", "", segment) }
    /^\tSection / { if (segment != "__LINKEDIT") sizes[segment] += $3 }
    END { printf "__TEXT %d, __DATA* %d, file %d bytes", sizes["__TEXT"], sizes["__DATA"] + sizes["__DATA_CONST"] + sizes["__DATA_DIRTY"], file }'
}
# A failed link, as the linker says it, each object named by its unit and each Swift symbol demangled:
#   ld64.lld: error: undefined symbol: planted()
#   >>> referenced by unit PlantedLink:(symbol static PlantedLink.main()+0x4) (where the linker knows the function)
link_failure() {
  sed -e "s|$objects/\([A-Za-z0-9_]*\)\.o|unit \1|g" -e "s|$kit/||g" "$1" | swift demangle --simplified | sed 's/^/  | /'
}
# Referenced weakly by what this toolchain's compiler emits, and missing from the kit's iOS 17.4 stubs:
# swift_coroFrameAlloc, which a `_modify` accessor's coroutine calls when the running Swift runtime has it
# (a stub checks, and allocates itself otherwise); Xcode 26's iOS SDK exports it. Only these may stay
# undefined.
weak_runtime=(-U _swift_coroFrameAlloc)
link_app() { # app, floor, units (space-separated)
  local app=$1 os=$2 unit objects_of=("${weak_runtime[@]}")
  shift 2
  for unit in "$@"; do objects_of+=("$objects/$unit.o"); done
  local app_started=$SECONDS
  if ! "$kit/ld-ios" --os "$os" "${objects_of[@]}" -o "$run/apps/$app.all" >"$log/link-$app.txt" 2>&1; then
    echo "typecheck-ios: FAILED  link $app (iOS $os, units $*):"
    link_failure "$log/link-$app.txt"
    return 1
  fi
  if ! "$kit/ld-ios" --os "$os" -dead_strip "${objects_of[@]}" -o "$run/apps/$app" >"$log/link-$app.dead-strip.txt" 2>&1; then
    echo "typecheck-ios: FAILED  link $app with -dead_strip (iOS $os):"
    link_failure "$log/link-$app.dead-strip.txt"
    return 1
  fi
  echo "typecheck-ios: linked  $app (iOS $os, $# units, $((SECONDS - app_started)) s): -dead_strip: $(segments "$run/apps/$app")"
}
if $link; then
  link_started=$SECONDS linked=0 link_failures=()
  while read -r app app_units; do
    [[ -z $app ]] && continue
    complete=true
    for unit in ${app_units//,/ }; do in_list "$unit" "$passed" || complete=false; done
    $complete || continue
    # The app's iOS is its entry point's (its last unit's) floor.
    os=$(floor_of "${floors[$(index_of "${app_units##*,}")]}")
    if link_app "$app" "$os" ${app_units//,/ }; then linked=$((linked + 1)); else link_failures+=("$app"); fi
  done < <(apps; printf '%s\n' "${TRACKC_IOS_EXTRA_APPS:-}")
  if ((${#link_failures[@]})); then
    echo "typecheck-ios: ${#link_failures[@]} apps did not link for arm64 iOS: ${link_failures[*]} ($((SECONDS - link_started)) s)"
    exit 1
  fi
  ((linked == 0)) || echo "typecheck-ios: $linked apps link for arm64 iOS, every symbol resolved against the SDK ($((SECONDS - link_started)) s)"
elif [[ -n $link_skipped ]]; then
  echo "typecheck-ios: not linked: $link_skipped"
fi

if $negative_control; then
  run_negative_control
  if $link; then run_link_negative_control; fi
fi
