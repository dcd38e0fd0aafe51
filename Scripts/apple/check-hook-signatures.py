#!/usr/bin/env python3
"""Checks the objc-runtime handler hooks trackc generated against what Swift itself emits for the app:

    check-hook-signatures.py --registry GENERATED.swift --module MODULE IR_FILE...

GENERATED.swift is a registry `trackc generate` wrote under `interception: objc-runtime` (its
`objcHandlerHooks` and the C signature of each replacement shape); MODULE is the module it is compiled
into (where a class of `.inRegistryModule` is); the IR files are `swiftc -emit-ir` of the modules that
declare the hooked classes, against the iOS SDK. For every hook, the class must be in the IR under the
name the runtime looks it up by (a top-level class's `_TtC...` form of `Module.Class`, a nested class's
mangled name as generated), its method list must hold the selector (or, for a method it inherits, some
class's list must), and the method's Objective-C type encoding must be the shape's C signature, argument
by argument: a block of another signature would take its arguments from the wrong registers.

Prints each problem and exits 1 when there is one; prints what it checked otherwise.
"""

import argparse
import os
import re
import sys

# The Objective-C type encoding of each type a replacement's C signature spells (arm64).
ENCODINGS = {
    "AnyObject": "@", "AnyObject?": "@", "Selector": ":", "ObjCBool": "B", "Void": "v",
    "Int": "q", "UInt": "Q", "Int64": "q", "UInt64": "Q", "Int32": "i", "UInt32": "I", "Int16": "s", "UInt16": "S",
    "Int8": "c", "UInt8": "C", "Double": "d", "Float": "f", "CGFloat": "d",
    "CGPoint": "{CGPoint=dd}", "CGSize": "{CGSize=dd}", "CGVector": "{CGVector=dd}",
    "CGRect": "{CGRect={CGPoint=dd}{CGSize=dd}}", "CGAffineTransform": "{CGAffineTransform=dddddd}",
    "NSRange": "{_NSRange=QQ}",
}


# Apple's C structs, by the encodings of trackc's table of the SDK's types (framework-types.py writes it
# from the SDK with clang's @encode; it checks that the table is what the SDK gives).
TABLE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "Sources/TrackcCore/CodeCheck/AppleFrameworkTypes.swift")
if os.path.exists(TABLE):
    for module, name, kind, *detail in (line.split() for line in open(TABLE) if line.startswith("    ") and len(line.split()) >= 3):
        if kind == "struct" and detail and "." not in name:
            ENCODINGS.setdefault(name, detail[0])


def runtime_symbol(name):
    """`Shop.Cart` -> `_TtC4Shop4Cart`, the name its class data has in the IR; mangled names as they are."""
    if name.startswith("_Tt"):
        return name
    module, _, cls = name.partition(".")
    if not cls:
        return name
    return "_TtC" + "".join(f"{len(part.encode())}{part}" for part in (module, cls))


def split_encoding(encoding):
    """`v40@0:8{CGPoint=dd}16d32` -> ['v', '@', ':', '{CGPoint=dd}', 'd']: the types, without offsets."""
    types, index = [], 0
    while index < len(encoding):
        start = index
        while encoding[index] in "rnNoORV":  # qualifiers
            index += 1
        if encoding[index] == "^":
            index += 1
            while encoding[index] in "rnNoORV":
                index += 1
        if encoding[index] == "{":
            depth = 0
            while True:
                depth += {"{": 1, "}": -1}.get(encoding[index], 0)
                index += 1
                if depth == 0:
                    break
        elif encoding[index] == "@" and index + 1 < len(encoding) and encoding[index + 1] == "?":
            index += 2
        else:
            index += 1
        types.append(encoding[start:index])
        while index < len(encoding) and encoding[index].isdigit():
            index += 1
    return types


def matches(swift_type, objc):
    if swift_type.startswith("UnsafeMutableRawPointer"):
        return objc.lstrip("rnNoORV").startswith("^")
    expected = ENCODINGS.get(swift_type)
    if expected == "@":
        return objc.startswith("@")
    return objc == expected


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--registry", required=True)
    parser.add_argument("--module", required=True)
    parser.add_argument("ir", nargs="+")
    arguments = parser.parse_args()

    code = open(arguments.registry).read()
    hooks = re.findall(
        r'ObjCHandlerHook\(\s*className: \.(objc|inRegistryModule)\("([^"]+)"\),\s*selector: "([^"]+)",\s*handler: [^,]+,\s*shape: (\d+)(?:,\s*planLine: \d+)?\s*\)',
        code)
    shapes = {}
    for number, body in re.findall(r"\n\s*case (\d+):\n(.*?)return replacement", code, re.S):
        signature = re.search(r"\(@convention\(c\) \((.*?)\) -> (\w+\??)\)\.self", body, re.S)
        if signature:
            shapes[int(number)] = ([part.strip() for part in signature.group(1).split(",")], signature.group(2))

    # Each class's methods in the IR: selector -> encoding.
    methods = {}
    for ir in arguments.ir:
        for cls, body in re.findall(r"^@_INSTANCE_METHODS_(\S+) = [^\n]*?\[\d+ x \{ ptr, ptr, ptr \}\] \[(.*)\] \}", open(ir).read(), re.M):
            table = methods.setdefault(cls, {})
            for selector, encoding in re.findall(r'L_selector_data\(([^)]*)\)", ptr @"?\.str\.\d+\.([^" ,]+)"?', body):
                table[selector] = encoding

    problems, checked = [], 0
    if not hooks:
        problems.append(f"{arguments.registry}: no objcHandlerHooks")
    for kind, name, selector, shape in hooks:
        full = f"{arguments.module}.{name}" if kind == "inRegistryModule" else name
        symbol = runtime_symbol(full)
        if symbol not in methods:
            problems.append(f"{full} {selector}: no class {symbol} in the IR")
            continue
        encoding = methods[symbol].get(selector) or next((table[selector] for table in methods.values() if selector in table), None)
        if encoding is None:
            problems.append(f"{full} {selector}: no method of this selector in the IR")
            continue
        if int(shape) not in shapes:
            problems.append(f"{full} {selector}: the registry has no replacement of shape {shape}")
            continue
        parameters, result = shapes[int(shape)]
        types = split_encoding(encoding)
        expected = [result] + parameters
        if len(types) != len(expected) or not all(matches(swift, objc) for swift, objc in zip(expected, types)):
            problems.append(f"{full} {selector}: Swift emits {encoding}, the replacement's shape {shape} is ({', '.join(parameters)}) -> {result}")
            continue
        checked += 1
    for problem in problems:
        print(f"check-hook-signatures: {problem}")
    if problems:
        sys.exit(1)
    print(f"check-hook-signatures: {checked} hooks of {arguments.registry.split('/')[-1]} match the signatures Swift emits")


if __name__ == "__main__":
    main()
