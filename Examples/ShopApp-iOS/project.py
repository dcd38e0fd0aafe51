#!/usr/bin/env python3
"""The Xcode project of the Storefront example, as a spec: Storefront.xcodeproj/project.pbxproj is what
this writes, and is committed beside it (a test runs `project.py --check` and reads the project back).

    python3 project.py           # write Storefront.xcodeproj (project.pbxproj, the shared scheme) and Storefront/tracking-sources.xcfilelist
    python3 project.py --check   # write nothing; fail when either differs from what is committed
    python3 project.py --interception dynamic-replacement --output DIR   # the project for the other interception

Needs Python's `pbxproj` package (PyPI), which writes the file as Xcode does. One app target, Storefront:
its Swift files (every .swift under Storefront/), the local trackc package (`../..`) with TrackcRuntime
linked and TrackcBuildPlugin attached (Xcode runs it at every build: it lints the plan and generates the
registry into the target), the build settings the plan's interception needs, a build phase that lints
the plan with its inputs and output declared, so that Xcode runs it only when the plan or a source
changes, and a shared scheme whose run sets TRACKC_COLLECTOR (where a debug build sends its events).
"""

import argparse
import hashlib
import os
import re
import sys
import tempfile

from pbxproj import XcodeProject

HERE = os.path.dirname(os.path.abspath(__file__))
APP = "Storefront"
DEPLOYMENT_TARGET = "16.0"

# What each interception needs of the target's Swift flags (docs/getting-started.md): nothing under
# objc-runtime; under dynamic-replacement, the screens' methods replaceable and the generated
# replacements chained, both in this one module (the plugin generates into the app target).
INTERCEPTION_FLAGS = {
    "objc-runtime": [],
    "dynamic-replacement": ["-Xfrontend", "-enable-implicit-dynamic", "-Xfrontend", "-enable-dynamic-replacement-chaining"],
}

LINT_SCRIPT = """\
# Lints the tracking plan against the target's sources with the trackc command line: Xcode shows each
# finding at its line in the plan or the source, and runs this phase only when the plan or a source changed
# (its inputs and output). Xcode runs it with a PATH that has neither Homebrew's nor Mint's folder, so it
# looks where each installs trackc: TRACKC (a build setting: the path of trackc), else Homebrew on Apple
# silicon (/opt/homebrew/bin) and on Intel (/usr/local/bin), Mint (MINT_LINK_PATH, by default ~/.mint/bin),
# ~/.local/bin, then the PATH. Not found, the build fails saying where it looked.
if [ -n "${TRACKC:-}" ]; then
  set -- "$TRACKC"
else
  set -- /opt/homebrew/bin/trackc /usr/local/bin/trackc "${MINT_LINK_PATH:-$HOME/.mint/bin}/trackc" "$HOME/.local/bin/trackc"
  if command -v trackc >/dev/null 2>&1; then set -- "$@" "$(command -v trackc)"; fi
fi
found=""
for candidate in "$@"; do
  if [ -x "$candidate" ]; then found=$candidate; break; fi
done
if [ -z "$found" ]; then
  echo "error: trackc lint: trackc not found; looked at: $* (and the PATH: $PATH). Install it (docs/getting-started.md), or set the build setting TRACKC to its path."
  exit 1
fi
"$found" lint --no-cache "$SRCROOT/Storefront/tracking.yaml"
touch "$DERIVED_FILE_DIR/trackc-lint.stamp"
"""

# Where the app sends its events in a debug build (`Analytics.collector`): `trackc collector` on this Mac,
# which a simulator reaches at 127.0.0.1. The shared scheme sets it, so that a clone runs with it.
COLLECTOR = "http://127.0.0.1:9000"


def object_id(key):
    """A stable 24-digit ID for an object, from what it is: the same spec always writes the same file."""
    return hashlib.sha1(key.encode()).hexdigest()[:24].upper()


def swift_files():
    """The app target's Swift files, relative to Storefront/, sorted."""
    found = []
    for folder, _, files in os.walk(os.path.join(HERE, APP)):
        for name in files:
            if name.endswith(".swift"):
                found.append(os.path.relpath(os.path.join(folder, name), os.path.join(HERE, APP)))
    return sorted(found)


def plan_interception():
    with open(os.path.join(HERE, APP, "tracking.yaml")) as plan:
        match = re.search(r"^interception:\s*([a-z-]+)", plan.read(), re.MULTILINE)
    return match.group(1) if match else "objc-runtime"


def file_list(files):
    return "".join(f"$(SRCROOT)/{APP}/{path}\n" for path in files)


def project_tree(interception):
    objects = {}

    def add(key, fields):
        identifier = object_id(key)
        objects[identifier] = fields
        return identifier

    files = swift_files()
    package = add("package", {"isa": "XCLocalSwiftPackageReference", "relativePath": "../.."})
    runtime = add("product TrackcRuntime", {"isa": "XCSwiftPackageProductDependency", "package": package, "productName": "TrackcRuntime"})
    plugin = add("product TrackcBuildPlugin", {"isa": "XCSwiftPackageProductDependency", "package": package, "productName": "plugin:TrackcBuildPlugin"})

    # Files, in groups that mirror the folders.
    groups = {}

    def group(path):
        if path in groups:
            return groups[path]
        groups[path] = add(f"group {path}", {"isa": "PBXGroup", "children": [], "path": os.path.basename(path), "sourceTree": "<group>"})
        parent = os.path.dirname(path)
        if parent:
            objects[group(parent)]["children"].append(groups[path])
        return groups[path]

    root = group(APP)
    sources = []
    for path in files:
        reference = add(f"file {path}", {"isa": "PBXFileReference", "lastKnownFileType": "sourcecode.swift", "path": os.path.basename(path), "sourceTree": "<group>"})
        folder = os.path.dirname(path)
        objects[group(os.path.join(APP, folder) if folder else APP)]["children"].append(reference)
        sources.append(add(f"build {path}", {"isa": "PBXBuildFile", "fileRef": reference}))
    for name, kind in [("Info.plist", "text.plist.xml"), ("tracking.yaml", "text.yaml"), ("tracking-sources.xcfilelist", "text.xcfilelist")]:
        objects[root]["children"].append(add(f"file {name}", {"isa": "PBXFileReference", "lastKnownFileType": kind, "path": name, "sourceTree": "<group>"}))
    for identifier in groups.values():
        objects[identifier]["children"].sort(key=lambda child: (objects[child]["isa"] != "PBXGroup", objects[child]["path"]))

    app = add("product app", {"isa": "PBXFileReference", "explicitFileType": "wrapper.application", "includeInIndex": "0", "path": f"{APP}.app", "sourceTree": "BUILT_PRODUCTS_DIR"})
    products = add("group Products", {"isa": "PBXGroup", "children": [app], "name": "Products", "sourceTree": "<group>"})
    readme = add("file README.md", {"isa": "PBXFileReference", "lastKnownFileType": "net.daringfireball.markdown", "path": "README.md", "sourceTree": "<group>"})
    main = add("group main", {"isa": "PBXGroup", "children": [readme, root, products], "sourceTree": "<group>"})

    lint = add(
        "phase lint",
        {
            "isa": "PBXShellScriptBuildPhase",
            "buildActionMask": "2147483647",
            "files": [],
            "inputFileListPaths": [f"$(SRCROOT)/{APP}/tracking-sources.xcfilelist"],
            "inputPaths": [f"$(SRCROOT)/{APP}/tracking.yaml"],
            "name": "Lint the tracking plan",
            "outputFileListPaths": [],
            "outputPaths": ["$(DERIVED_FILE_DIR)/trackc-lint.stamp"],
            "runOnlyForDeploymentPostprocessing": "0",
            "shellPath": "/bin/sh",
            "shellScript": LINT_SCRIPT,
            "showEnvVarsInLog": "0",
        },
    )
    compile_sources = add("phase sources", {"isa": "PBXSourcesBuildPhase", "buildActionMask": "2147483647", "files": sources, "runOnlyForDeploymentPostprocessing": "0"})
    runtime_file = add("build TrackcRuntime", {"isa": "PBXBuildFile", "productRef": runtime})
    frameworks = add("phase frameworks", {"isa": "PBXFrameworksBuildPhase", "buildActionMask": "2147483647", "files": [runtime_file], "runOnlyForDeploymentPostprocessing": "0"})
    resources = add("phase resources", {"isa": "PBXResourcesBuildPhase", "buildActionMask": "2147483647", "files": [], "runOnlyForDeploymentPostprocessing": "0"})
    # A build tool plugin is attached as a dependency on its product (as Xcode writes it), not linked.
    plugin_dependency = add("dependency TrackcBuildPlugin", {"isa": "PBXTargetDependency", "productRef": plugin})

    def configuration(key, name, settings):
        return add(key, {"isa": "XCBuildConfiguration", "buildSettings": settings, "name": name})

    common = {
        "ALWAYS_SEARCH_USER_PATHS": "NO",
        "CLANG_ENABLE_MODULES": "YES",
        "CLANG_ENABLE_OBJC_ARC": "YES",
        "ENABLE_STRICT_OBJC_MSGSEND": "YES",
        "GCC_NO_COMMON_BLOCKS": "YES",
        "IPHONEOS_DEPLOYMENT_TARGET": DEPLOYMENT_TARGET,
        "SDKROOT": "iphoneos",
        "SWIFT_VERSION": "6.0",
    }
    project_debug = configuration(
        "project Debug", "Debug",
        dict(common, DEBUG_INFORMATION_FORMAT="dwarf", ENABLE_TESTABILITY="YES", GCC_OPTIMIZATION_LEVEL="0", ONLY_ACTIVE_ARCH="YES",
             SWIFT_ACTIVE_COMPILATION_CONDITIONS="DEBUG $(inherited)", SWIFT_OPTIMIZATION_LEVEL="-Onone"),
    )
    project_release = configuration(
        "project Release", "Release",
        dict(common, DEBUG_INFORMATION_FORMAT="dwarf-with-dsym", SWIFT_COMPILATION_MODE="wholemodule", VALIDATE_PRODUCT="YES"),
    )
    target_settings = {
        "CODE_SIGN_STYLE": "Automatic",
        "CURRENT_PROJECT_VERSION": "1",
        # The lint phase reads the sources folder, which a sandboxed script phase may not list.
        "ENABLE_USER_SCRIPT_SANDBOXING": "NO",
        "GENERATE_INFOPLIST_FILE": "YES",
        "INFOPLIST_FILE": f"{APP}/Info.plist",
        "INFOPLIST_KEY_UILaunchScreen_Generation": "YES",
        "IPHONEOS_DEPLOYMENT_TARGET": DEPLOYMENT_TARGET,
        "LD_RUNPATH_SEARCH_PATHS": ["$(inherited)", "@executable_path/Frameworks"],
        "MARKETING_VERSION": "1.0",
        "OTHER_SWIFT_FLAGS": ["$(inherited)"] + INTERCEPTION_FLAGS[interception],
        "PRODUCT_BUNDLE_IDENTIFIER": "com.example.Storefront",
        "PRODUCT_NAME": "$(TARGET_NAME)",
        "SWIFT_VERSION": "6.0",
        "TARGETED_DEVICE_FAMILY": "1,2",
    }
    target_debug = configuration("target Debug", "Debug", dict(target_settings))
    target_release = configuration("target Release", "Release", dict(target_settings))
    project_configurations = add(
        "configurations project",
        {"isa": "XCConfigurationList", "buildConfigurations": [project_debug, project_release], "defaultConfigurationIsVisible": "0", "defaultConfigurationName": "Release"},
    )
    target_configurations = add(
        "configurations target",
        {"isa": "XCConfigurationList", "buildConfigurations": [target_debug, target_release], "defaultConfigurationIsVisible": "0", "defaultConfigurationName": "Release"},
    )
    target = add(
        "target",
        {
            "isa": "PBXNativeTarget",
            "buildConfigurationList": target_configurations,
            "buildPhases": [lint, compile_sources, frameworks, resources],
            "buildRules": [],
            "dependencies": [plugin_dependency],
            "name": APP,
            "packageProductDependencies": [runtime],
            "productName": APP,
            "productReference": app,
            "productType": "com.apple.product-type.application",
        },
    )
    project = add(
        "project",
        {
            "isa": "PBXProject",
            "attributes": {
                "BuildIndependentTargetsInParallel": "1",
                "LastSwiftUpdateCheck": "1540",
                "LastUpgradeCheck": "1540",
                "TargetAttributes": {target: {"CreatedOnToolsVersion": "15.4"}},
            },
            "buildConfigurationList": project_configurations,
            "compatibilityVersion": "Xcode 15.0",
            "developmentRegion": "en",
            "hasScannedForEncodings": "0",
            "knownRegions": ["en", "Base"],
            "mainGroup": main,
            "packageReferences": [package],
            "productRefGroup": products,
            "projectDirPath": "",
            "projectRoot": "",
            "targets": [target],
        },
    )
    return {"archiveVersion": "1", "classes": {}, "objectVersion": "60", "objects": objects, "rootObject": project}


def scheme(target_id):
    """The shared scheme: builds and runs the app target, with TRACKC_COLLECTOR in the run's environment."""
    reference = f"""<BuildableReference
               BuildableIdentifier = "primary"
               BlueprintIdentifier = "{target_id}"
               BuildableName = "{APP}.app"
               BlueprintName = "{APP}"
               ReferencedContainer = "container:{APP}.xcodeproj">
            </BuildableReference>"""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<Scheme
   LastUpgradeVersion = "1540"
   version = "1.7">
   <BuildAction
      parallelizeBuildables = "YES"
      buildImplicitDependencies = "YES">
      <BuildActionEntries>
         <BuildActionEntry
            buildForTesting = "YES"
            buildForRunning = "YES"
            buildForProfiling = "YES"
            buildForArchiving = "YES"
            buildForAnalyzing = "YES">
            {reference}
         </BuildActionEntry>
      </BuildActionEntries>
   </BuildAction>
   <TestAction
      buildConfiguration = "Debug"
      selectedDebuggerIdentifier = "Xcode.DebuggerFoundation.Debugger.LLDB"
      selectedLauncherIdentifier = "Xcode.DebuggerFoundation.Launcher.LLDB"
      shouldUseLaunchSchemeArgsEnv = "YES">
   </TestAction>
   <LaunchAction
      buildConfiguration = "Debug"
      selectedDebuggerIdentifier = "Xcode.DebuggerFoundation.Debugger.LLDB"
      selectedLauncherIdentifier = "Xcode.DebuggerFoundation.Launcher.LLDB"
      launchStyle = "0"
      useCustomWorkingDirectory = "NO"
      ignoresPersistentStateOnLaunch = "NO"
      debugDocumentVersioning = "YES"
      debugServiceExtension = "internal"
      allowLocationSimulation = "YES">
      <BuildableProductRunnable
         runnableDebuggingMode = "0">
         {reference}
      </BuildableProductRunnable>
      <EnvironmentVariables>
         <EnvironmentVariable
            key = "TRACKC_COLLECTOR"
            value = "{COLLECTOR}"
            isEnabled = "YES">
         </EnvironmentVariable>
      </EnvironmentVariables>
   </LaunchAction>
   <ProfileAction
      buildConfiguration = "Release"
      shouldUseLaunchSchemeArgsEnv = "YES"
      savedToolIdentifier = ""
      useCustomWorkingDirectory = "NO"
      debugDocumentVersioning = "YES">
      <BuildableProductRunnable
         runnableDebuggingMode = "0">
         {reference}
      </BuildableProductRunnable>
   </ProfileAction>
   <AnalyzeAction
      buildConfiguration = "Debug">
   </AnalyzeAction>
   <ArchiveAction
      buildConfiguration = "Release"
      revealArchiveInOrganizer = "YES">
   </ArchiveAction>
</Scheme>
"""


def render(interception):
    """The project file's text, the shared scheme's, and the lint phase's input file list."""
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "project.pbxproj")
        XcodeProject(project_tree(interception), path).save()
        with open(path) as written:
            return written.read(), scheme(object_id("target")), file_list(swift_files())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail when the committed files differ")
    parser.add_argument("--interception", choices=sorted(INTERCEPTION_FLAGS), help="the build settings' interception (default: the plan's)")
    parser.add_argument("--output", help="the folder to write the .xcodeproj into (default: beside this file)")
    arguments = parser.parse_args()
    project, shared_scheme, sources = render(arguments.interception or plan_interception())
    package = os.path.join(arguments.output or HERE, f"{APP}.xcodeproj")
    targets = [
        (os.path.join(package, "project.pbxproj"), project),
        (os.path.join(package, "xcshareddata", "xcschemes", f"{APP}.xcscheme"), shared_scheme),
        (os.path.join(HERE, APP, "tracking-sources.xcfilelist"), sources),
    ]
    if arguments.check:
        stale = [path for path, text in targets if not os.path.exists(path) or open(path).read() != text]
        for path in stale:
            print(f"{os.path.relpath(path)} is not what project.py writes: run python3 {os.path.relpath(__file__)}", file=sys.stderr)
        sys.exit(1 if stale else 0)
    for path, text in targets[: 2 if arguments.output else 3]:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as output:
            output.write(text)


if __name__ == "__main__":
    main()
