#!/usr/bin/env python3
"""Reads an Xcode project with Python's `pbxproj` parser and checks what a trackc app target needs:

- every file the project references exists;
- the app target links TrackcRuntime from the local trackc package, and has TrackcBuildPlugin attached (a
  dependency on the package's `plugin:TrackcBuildPlugin` product, as Xcode writes it);
- its Swift flags are what the plan's interception needs (none under objc-runtime; under
  dynamic-replacement both dynamic-replacement flags), in every configuration, and its deployment target
  is no lower than trackc's;
- a build phase lints the plan before compiling, with its inputs (the plan, and a file list of every Swift
  file the target compiles) and an output declared, so that Xcode skips it when nothing changed;
- the target compiles every Swift file in the plan's sources folder;
- the lint phase, run (with `sh`, as Xcode runs it) where Xcode's PATH has no trackc, finds it where users
  install it (the TRACKC build setting, Mint's ~/.mint/bin, ~/.local/bin; Homebrew's /opt/homebrew/bin and
  /usr/local/bin are named) and runs `trackc lint`, and without one fails saying where it looked;
- a shared scheme (xcshareddata/xcschemes) builds and runs the app target with TRACKC_COLLECTOR set;
- the app's Info.plist says why it uses the local network (NSLocalNetworkUsageDescription), which a device
  asks before it reaches a collector on the Mac.

    check_project.py PROJECT.xcodeproj [--plan PATH] [--package PATH]

Prints one JSON object: {"problems": [...], "target": NAME, "interception": ...}; exits 0 either way.
"""

import argparse
import json
import os
import plistlib
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

from pbxproj import XcodeProject

FLAGS = {
    "objc-runtime": [],
    "dynamic-replacement": ["-enable-implicit-dynamic", "-enable-dynamic-replacement-chaining"],
}
ALL_FLAGS = sorted({flag for flags in FLAGS.values() for flag in flags})


def as_list(value):
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) or type(value).__name__ == "PBXList" else [value]


def version(text):
    return tuple(int(part) for part in str(text).split("."))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("project")
    parser.add_argument("--plan", help="the tracking plan (default: the nearest tracking.yaml above the target's Swift files)")
    parser.add_argument("--package", help="the trackc package's folder (default: where the local package reference points)")
    arguments = parser.parse_args()

    project_dir = os.path.dirname(os.path.abspath(arguments.project))
    project = XcodeProject.load(os.path.join(arguments.project, "project.pbxproj"))
    objects = project.objects
    problems = []

    def objects_of(isa):
        return list(objects.get_objects_in_section(isa))

    # Every file reference, by walking the groups from the main group (each group's path is relative to
    # its parent's).
    root = objects[project.rootObject]
    paths = {}

    def walk(group_id, folder):
        group = objects[group_id]
        here = os.path.join(folder, group.path) if getattr(group, "path", None) and group.sourceTree == "<group>" else folder
        for child_id in as_list(getattr(group, "children", None)):
            child = objects[child_id]
            if child.isa == "PBXGroup":
                walk(child_id, here)
            elif child.isa == "PBXFileReference" and child.sourceTree in ("<group>", "SOURCE_ROOT"):
                base = here if child.sourceTree == "<group>" else project_dir
                paths[child_id] = os.path.normpath(os.path.join(base, child.path))

    walk(root.mainGroup, project_dir)
    for reference in objects_of("PBXFileReference"):
        identifier = reference.get_id()
        if reference.sourceTree in ("<group>", "SOURCE_ROOT"):
            if identifier not in paths:
                problems.append(f"file reference '{reference.path}' is in no group")
            elif not os.path.exists(paths[identifier]):
                problems.append(f"file reference '{reference.path}' points to {os.path.relpath(paths[identifier], project_dir)}, which does not exist")

    apps = [target for target in objects_of("PBXNativeTarget") if target.productType == "com.apple.product-type.application"]
    if len(apps) != 1:
        print(json.dumps({"problems": problems + [f"{len(apps)} app targets, not one"]}))
        return
    app = apps[0]
    phases = [objects[phase] for phase in as_list(app.buildPhases)]

    # The Swift files the target compiles.
    compiled = []
    for phase in phases:
        if phase.isa == "PBXSourcesBuildPhase":
            for build_file in as_list(phase.files):
                reference = getattr(objects[build_file], "fileRef", None)
                if reference in paths and paths[reference].endswith(".swift"):
                    compiled.append(paths[reference])
    if not compiled:
        problems.append(f"target '{app.name}' compiles no Swift file")

    # The plan and its interception.
    # As the build plugin finds it: the nearest tracking.yaml above the target's Swift files.
    plan = arguments.plan
    if plan is None and compiled:
        folder = os.path.commonpath([os.path.dirname(path) for path in compiled])
        while folder.startswith(project_dir) and not os.path.exists(os.path.join(folder, "tracking.yaml")):
            folder = os.path.dirname(folder)
        plan = os.path.join(folder, "tracking.yaml")
    interception = "objc-runtime"
    if plan and os.path.exists(plan):
        text = open(plan).read()
        match = re.search(r"^interception:\s*([a-z-]+)", text, re.MULTILINE)
        interception = match.group(1) if match else "objc-runtime"
        sources = re.search(r"^sources:\s*\[([^\]]*)\]", text, re.MULTILINE)
        for source in (sources.group(1).split(",") if sources else []):
            folder = os.path.normpath(os.path.join(os.path.dirname(plan), source.strip().strip("'\"")))
            for directory, _, names in os.walk(folder):
                for name in names:
                    path = os.path.join(directory, name)
                    if name.endswith(".swift") and path not in compiled:
                        problems.append(f"{os.path.relpath(path, project_dir)} is in the plan's sources but target '{app.name}' does not compile it")
    else:
        problems.append(f"no tracking plan at {plan}")

    # The package, the library linked, the plugin attached.
    products = {dependency.get_id(): dependency for dependency in objects_of("XCSwiftPackageProductDependency")}
    packages = {reference.get_id(): reference for reference in objects_of("XCLocalSwiftPackageReference")}
    runtime = [products[identifier] for identifier in as_list(getattr(app, "packageProductDependencies", None))
               if identifier in products and products[identifier].productName == "TrackcRuntime"]
    if not runtime:
        problems.append(f"target '{app.name}' does not depend on TrackcRuntime")
    linked = [objects[build_file] for phase in phases if phase.isa == "PBXFrameworksBuildPhase" for build_file in as_list(phase.files)]
    if runtime and not any(getattr(build_file, "productRef", None) == runtime[0].get_id() for build_file in linked):
        problems.append(f"target '{app.name}' does not link TrackcRuntime")
    plugins = [products[objects[dependency].productRef] for dependency in as_list(getattr(app, "dependencies", None))
               if getattr(objects[dependency], "productRef", None) in products]
    plugin = [product for product in plugins if product.productName == "plugin:TrackcBuildPlugin"]
    if not plugin:
        problems.append(f"target '{app.name}' does not have TrackcBuildPlugin attached (a dependency on 'plugin:TrackcBuildPlugin')")
    for product in runtime + plugin:
        reference = packages.get(getattr(product, "package", None))
        if reference is None:
            problems.append(f"'{product.productName}' comes from no local package reference")
            continue
        folder = arguments.package or os.path.normpath(os.path.join(project_dir, reference.relativePath))
        manifest = os.path.join(folder, "Package.swift")
        if not os.path.exists(manifest) or 'name: "trackc"' not in open(manifest).read():
            problems.append(f"the local package '{reference.relativePath}' is not trackc ({manifest})")
            continue
        name = product.productName.replace("plugin:", "")
        if f'name: "{name}"' not in open(manifest).read():
            problems.append(f"trackc's Package.swift has no product '{name}'")

    # Build settings, configuration by configuration.
    floor = "16.0"
    manifest = os.path.join(arguments.package or project_dir, "Package.swift")
    if os.path.exists(manifest):
        declared = re.search(r"\.iOS\(\.v(\d+)\)", open(manifest).read())
        floor = f"{declared.group(1)}.0" if declared else floor
    needed = FLAGS.get(interception)
    if needed is None:
        problems.append(f"the plan's interception '{interception}' is not one trackc knows")
        needed = []
    for configuration_id in as_list(objects[app.buildConfigurationList].buildConfigurations):
        configuration = objects[configuration_id]
        settings = configuration.buildSettings
        flags = [str(flag) for flag in as_list(getattr(settings, "OTHER_SWIFT_FLAGS", None))]
        present = [flag for flag in ALL_FLAGS if flag in flags]
        if sorted(present) != sorted(needed):
            problems.append(
                f"configuration '{configuration.name}': OTHER_SWIFT_FLAGS has {present or 'none'} of the interception flags, "
                f"but interception: {interception} needs {needed or 'none'}")
        for flag in needed:
            position = flags.index(flag) if flag in flags else -1
            if position < 1 or flags[position - 1] != "-Xfrontend":
                problems.append(f"configuration '{configuration.name}': {flag} must follow -Xfrontend in OTHER_SWIFT_FLAGS")
        target = getattr(settings, "IPHONEOS_DEPLOYMENT_TARGET", None)
        if target is None or version(target) < version(floor):
            problems.append(f"configuration '{configuration.name}': IPHONEOS_DEPLOYMENT_TARGET is {target}, below trackc's iOS {floor}")

    # The lint phase: before the Swift is compiled, inputs and output declared.
    lint = [phase for phase in phases if phase.isa == "PBXShellScriptBuildPhase" and "lint" in str(getattr(phase, "shellScript", ""))]
    if not lint:
        problems.append(f"target '{app.name}' has no build phase that runs trackc lint")
    else:
        phase = lint[0]
        sources_phase = [index for index, each in enumerate(phases) if each.isa == "PBXSourcesBuildPhase"]
        if sources_phase and phases.index(phase) > sources_phase[0]:
            problems.append("the lint phase runs after the Swift is compiled")
        inputs = [str(path).replace("$(SRCROOT)", project_dir) for path in as_list(getattr(phase, "inputPaths", None))]
        if not plan or os.path.normpath(plan) not in [os.path.normpath(path) for path in inputs]:
            problems.append("the lint phase does not declare the plan as an input")
        lists = [str(path).replace("$(SRCROOT)", project_dir) for path in as_list(getattr(phase, "inputFileListPaths", None))]
        listed = []
        for file_list in lists:
            if not os.path.exists(file_list):
                problems.append(f"the lint phase's input file list {os.path.relpath(file_list, project_dir)} does not exist")
                continue
            listed += [os.path.normpath(line.strip().replace("$(SRCROOT)", project_dir)) for line in open(file_list) if line.strip()]
        if sorted(listed) != sorted(compiled):
            missing = sorted(set(compiled) - set(listed))
            extra = sorted(set(listed) - set(compiled))
            problems.append(
                "the lint phase's input file lists are not the Swift files the target compiles: "
                + ", ".join([f"missing {os.path.relpath(path, project_dir)}" for path in missing]
                            + [f"not compiled {os.path.relpath(path, project_dir)}" for path in extra]))
        if not as_list(getattr(phase, "outputPaths", None)) and not as_list(getattr(phase, "outputFileListPaths", None)):
            problems.append("the lint phase declares no output, so Xcode runs it at every build")

    if lint:
        problems += lint_phase_problems(str(lint[0].shellScript))
    problems += scheme_problems(arguments.project, app)
    problems += info_plist_problems(project_dir, app, objects)

    print(json.dumps({"problems": problems, "target": app.name, "interception": interception, "compiled": len(compiled)}))


def run_phase(script, home, environment):
    """Runs a shell script build phase as Xcode does (`/bin/sh -c`), with Xcode's bare PATH."""
    srcroot = os.path.join(home, "project")
    derived = os.path.join(home, "derived")
    os.makedirs(os.path.join(srcroot, "Storefront"), exist_ok=True)
    os.makedirs(derived, exist_ok=True)
    env = {"HOME": home, "PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "SRCROOT": srcroot, "DERIVED_FILE_DIR": derived}
    env.update(environment)
    result = subprocess.run(["sh", "-c", script], env=env, capture_output=True, text=True, timeout=60)
    return result.returncode, result.stdout + result.stderr


def fake_trackc(path, log):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fake:
        fake.write(f'#!/bin/sh\necho "$@" >> "{log}"\n')
    os.chmod(path, 0o755)


def lint_phase_problems(script):
    """The lint phase finds trackc where users install it, and fails saying where it looked without it."""
    problems = []
    for place in ("/opt/homebrew/bin/trackc", "/usr/local/bin/trackc"):
        if place not in script:
            problems.append(f"the lint phase does not look for trackc at {place} (Homebrew)")
    homebrew_here = any(os.access(place, os.X_OK) for place in ("/opt/homebrew/bin/trackc", "/usr/local/bin/trackc"))
    with tempfile.TemporaryDirectory() as home:
        log = os.path.join(home, "calls.log")
        expected_call = f"lint --no-cache {home}/project/Storefront/tracking.yaml"
        if not homebrew_here:
            status, output = run_phase(script, home, {})
            if status == 0 or "error:" not in output:
                problems.append(f"the lint phase without trackc does not fail with an error (exit status {status}: {output.strip()})")
            for place in ("/opt/homebrew/bin/trackc", "/usr/local/bin/trackc", f"{home}/.mint/bin/trackc", f"{home}/.local/bin/trackc"):
                if place not in output:
                    problems.append(f"the lint phase without trackc does not say it looked at {place.replace(home, '~')}")
        for name, path, environment in [
            ("Mint", os.path.join(home, ".mint/bin/trackc"), {}),
            ("MINT_LINK_PATH", os.path.join(home, "mint-links/trackc"), {"MINT_LINK_PATH": os.path.join(home, "mint-links")}),
            ("~/.local/bin", os.path.join(home, ".local/bin/trackc"), {}),
            ("the TRACKC build setting", os.path.join(home, "tools/trackc"), {"TRACKC": os.path.join(home, "tools/trackc")}),
        ]:
            if homebrew_here and name != "the TRACKC build setting":
                continue
            fake_trackc(path, log)
            status, output = run_phase(script, home, environment)
            calls = open(log).read().splitlines() if os.path.exists(log) else []
            if status != 0 or calls != [expected_call]:
                problems.append(f"the lint phase does not run trackc from {name} (exit status {status}, calls {calls}: {output.strip()})")
            os.remove(path)
            if os.path.exists(log):
                os.remove(log)
        status, output = run_phase(script, home, {"TRACKC": os.path.join(home, "missing/trackc")})
        if status == 0 or os.path.join(home, "missing/trackc") not in output:
            problems.append(f"the lint phase with TRACKC set to a missing file does not fail naming it (exit status {status}: {output.strip()})")
    return problems


def scheme_problems(project_path, app):
    """A shared scheme builds and runs the app with TRACKC_COLLECTOR set to an http(s) URL."""
    folder = os.path.join(project_path, "xcshareddata", "xcschemes")
    schemes = sorted(name for name in os.listdir(folder) if name.endswith(".xcscheme")) if os.path.isdir(folder) else []
    if not schemes:
        return ["no shared scheme (xcshareddata/xcschemes/*.xcscheme): a clone has none, and TRACKC_COLLECTOR is not set"]
    for name in schemes:
        root = ElementTree.parse(os.path.join(folder, name)).getroot()
        built = [reference.get("BlueprintIdentifier") for reference in root.iter("BuildableReference")]
        launch = root.find("LaunchAction")
        if app.get_id() not in built or launch is None:
            continue
        runnable = launch.find("BuildableProductRunnable/BuildableReference")
        if runnable is None or runnable.get("BlueprintIdentifier") != app.get_id():
            return [f"the shared scheme {name} does not run target '{app.name}'"]
        variables = {variable.get("key"): variable for variable in launch.iter("EnvironmentVariable")}
        collector = variables.get("TRACKC_COLLECTOR")
        if collector is None or collector.get("isEnabled") != "YES":
            return [f"the shared scheme {name} does not set TRACKC_COLLECTOR when it runs the app"]
        if not re.match(r"https?://[^/\s]+", collector.get("value") or ""):
            return [f"the shared scheme {name} sets TRACKC_COLLECTOR to '{collector.get('value')}', not an http(s) URL"]
        return []
    return [f"no shared scheme builds and runs target '{app.name}'"]


def info_plist_problems(project_dir, app, objects):
    """The app's Info.plist says why it reaches the local network (a collector on the Mac, from a device)."""
    problems = []
    for configuration_id in as_list(objects[app.buildConfigurationList].buildConfigurations):
        configuration = objects[configuration_id]
        path = getattr(configuration.buildSettings, "INFOPLIST_FILE", None)
        if path is None:
            problems.append(f"configuration '{configuration.name}' has no INFOPLIST_FILE")
            continue
        full = os.path.join(project_dir, str(path).replace("$(SRCROOT)/", ""))
        if not os.path.exists(full):
            problems.append(f"configuration '{configuration.name}': its Info.plist {path} does not exist")
            continue
        with open(full, "rb") as plist:
            info = plistlib.load(plist)
        description = info.get("NSLocalNetworkUsageDescription")
        if not isinstance(description, str) or not description.strip():
            problems.append(f"{path} has no NSLocalNetworkUsageDescription, which a device needs to reach a collector on the local network")
    return sorted(set(problems))


if __name__ == "__main__":
    sys.exit(main())
