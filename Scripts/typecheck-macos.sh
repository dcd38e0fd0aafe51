#!/usr/bin/env bash
# Type-checks the code the command line runs on a Mac against Apple's macOS SDK: TrackcCore (the
# compiler, with swift-syntax, swift-system and swift-subprocess as macOS modules) and TrackcRuntime, in
# Swift 6 language mode at the package's macOS floor (13.0). Any error or warning fails it. Nothing links
# or runs. What the SDK kit cannot reach (the collector's NIO, ArgumentParser's command, the tests) is
# listed in docs/platforms.md.
#
#   Scripts/typecheck-macos.sh
#
# On macOS it builds the command line and the plugins' tool with the Mac's own SDK (`swift build --product
# trackc`, `--product trackc-plugin-tool`). Elsewhere
# it runs the macOS SDK kit's check-trackc-macos.sh (the macOS 13.3 SDK's interfaces, for the toolchain's
# own compiler), found at $TRACKC_MACOS_SDK, else at `shared/macos-sdk` beside the repository or a folder
# above it (the main worktree's, for a git worktree). It needs the package's dependencies checked out
# (.build/checkouts, made by `swift build` or `swift package resolve`). Without a kit it prints
# "not run: <reason>" and exits 0, except under CI=true, where that fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

not_run() {
  if [[ ${CI:-} == true ]]; then
    echo "typecheck-macos: error: $1 (under CI=true this fails the run)" >&2
    exit 1
  fi
  echo "typecheck-macos: not run: $1"
  exit 0
}

if [[ $(uname -s) == Darwin ]]; then
  swift build --product trackc
  swift build --product trackc-plugin-tool
  echo "typecheck-macos: the command line and the plugins' tool build with $(xcrun --show-sdk-path 2>/dev/null | xargs basename 2>/dev/null || echo "the Mac's SDK")"
  exit 0
fi

# The kit: $TRACKC_MACOS_SDK, else shared/macos-sdk beside this repository or a folder above it, or beside
# the main worktree when this is a git worktree.
find_kit() {
  if [[ -n ${TRACKC_MACOS_SDK:-} ]]; then
    [[ -x $TRACKC_MACOS_SDK/check-trackc-macos.sh ]] && { echo "$TRACKC_MACOS_SDK"; return; }
    echo "typecheck-macos: TRACKC_MACOS_SDK=$TRACKC_MACOS_SDK holds no check-trackc-macos.sh" >&2
    return 1
  fi
  local starts=("$root") common start dir
  if common=$(git -C "$root" rev-parse --path-format=absolute --git-common-dir 2>/dev/null); then starts+=("$(dirname "$common")"); fi
  for start in "${starts[@]}"; do
    dir=$start
    while [[ $dir != / ]]; do
      dir=$(dirname "$dir")
      [[ -x $dir/shared/macos-sdk/check-trackc-macos.sh ]] && { echo "$dir/shared/macos-sdk"; return; }
    done
  done
  return 1
}
kit=$(find_kit) || not_run "no macOS SDK kit at \$TRACKC_MACOS_SDK or shared/macos-sdk beside the repository"

work=${TRACKC_APPLE_WORK:-$root/.build/apple}/macos
mkdir -p "$work"
if [[ ! -d .build/checkouts/swift-syntax ]]; then
  echo "typecheck-macos: checking out the package's dependencies (swift package resolve)"
  swift package resolve >"$work/resolve.log" 2>&1 || { cat "$work/resolve.log"; exit 1; }
fi

# The kit as it is read here: links to its files, except that files standing for symbolic links (a copy
# that lost them holds the link's target as text: `usr/include/sched.h` reading `pthread/sched.h`,
# `Foundation.framework/Headers` reading `Versions/Current/Headers`) are symbolic links again. Nothing
# is copied; a kit whose links are intact is linked as it is.
view=$work/kit
rm -rf "$view"
python3 - "$kit" "$view" <<'PYTHON'
import os, re, sys
kit, view = sys.argv[1], sys.argv[2]
path = re.compile(r'^[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)*$')
def stands_for_link(file):
    if os.path.islink(file) or os.path.getsize(file) >= 256: return None
    try: text = open(file, 'rb').read().decode('ascii')
    except UnicodeDecodeError: return None
    if not path.match(text): return None
    first = text.split('/')[0]
    return text if first == '..' or os.path.exists(os.path.join(os.path.dirname(file), first)) else None
links = {}
for folder, _, files in os.walk(kit):
    for name in files:
        target = stands_for_link(os.path.join(folder, name))
        if target: links[os.path.relpath(os.path.join(folder, name), kit)] = target
repaired = {os.path.dirname(p) for p in links}
for p in list(repaired):
    while p: p = os.path.dirname(p); repaired.add(p)
def mirror(relative):
    os.makedirs(os.path.join(view, relative), exist_ok=True)
    for name in sorted(os.listdir(os.path.join(kit, relative))):
        item = os.path.join(relative, name) if relative else name
        if item in links: os.symlink(links[item], os.path.join(view, item))
        elif item in repaired: mirror(item)
        else: os.symlink(os.path.join(kit, item), os.path.join(view, item))
mirror('')
print(f"typecheck-macos: {kit}: {len(links)} files that stand for symbolic links read as links")
PYTHON
# The kit compiles its Swift6Shims.swift into each module it checks; here that file also declares the newer
# standard-library API the code calls, with its availability (Scripts/apple/StandardLibraryAvailability.swift).
rm "$view/Swift6Shims.swift"
cat "$kit/Swift6Shims.swift" Scripts/apple/StandardLibraryAvailability.swift >"$view/Swift6Shims.swift"

# The kit's script emits the link reader's module under its former name, TrackcRouting (Sources/TrackcRouting);
# the module is TrackcLinks now. The view's script is a copy that names it so (nothing else changes).
if grep -q TrackcRouting "$kit/check-trackc-macos.sh"; then
  rm "$view/check-trackc-macos.sh"
  sed 's/TrackcRouting/TrackcLinks/g' "$kit/check-trackc-macos.sh" >"$view/check-trackc-macos.sh"
  chmod +x "$view/check-trackc-macos.sh"
fi

started=$SECONDS
export TRACKC_MACOS_WORK=$work/sdk-work
"$view/check-trackc-macos.sh" "$root" >"$work/check.log" 2>&1 || true
# The kit's script prints each error and warning it finds (it exits 0 whatever it finds).
findings=$(grep -E '(error|warning):|failed' "$work/check.log" || true)
if [[ -n $findings ]]; then
  cat "$work/check.log"
  echo "typecheck-macos: $(grep -cE '(error|warning):' <<<"$findings") errors and warnings against the macOS 13.3 SDK ($((SECONDS - started)) s)"
  exit 1
fi
grep -E '^==' "$work/check.log"
echo "typecheck-macos: TrackcCore and TrackcRuntime type-check for macOS 13.0 against the macOS 13.3 SDK, Swift 6 ($((SECONDS - started)) s)"
