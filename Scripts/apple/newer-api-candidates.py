#!/usr/bin/env python3
"""Lists the places in Swift sources that may call standard-library API newer than a macOS floor: every
identifier (or initializer label) that the toolchain's standard-library interface declares only with
`@available(macOS N...)` above the floor, in every declaration of that name. For the code the macOS SDK
kit cannot type-check (Scripts/typecheck-macos.sh, docs/platforms.md); each candidate is then read by hand
(most are the code's own names: a `kind` of its own, not `UTF8.ValidationError.Kind`).

    Scripts/apple/newer-api-candidates.py [--floor 13.3] [--interface PATH] SOURCES...
"""
import argparse, collections, os, re, shutil

parser = argparse.ArgumentParser()
parser.add_argument('--floor', default='13.3')
parser.add_argument('--interface', help='the standard library .swiftinterface (default: the toolchain\'s, Linux)')
parser.add_argument('sources', nargs='+')
options = parser.parse_args()

def version(text): return tuple(int(x) for x in text.split('.'))
interface = options.interface
if not interface:
    swiftc = os.path.realpath(shutil.which('swiftc'))
    folder = os.path.join(os.path.dirname(os.path.dirname(swiftc)), 'lib/swift/linux/Swift.swiftmodule')
    interface = os.path.join(folder, next(n for n in os.listdir(folder) if n.endswith('.swiftinterface') and '.private.' not in n))

available = re.compile(r'@available\(macOS ([0-9.]+)')
declaration = re.compile(
    r'^\s*(?:@[\w(). ,:*"]+\s+)*(?:(?:public|open|final|static|class|mutating|nonmutating|override|convenience|required|indirect|'
    r'dynamic|__consuming|consuming|borrowing|nonisolated|@\w+)\s+)*'
    r'(func|var|let|init[?!]?|struct|class|enum|protocol|typealias|case|subscript|actor|associatedtype)\b\s*([A-Za-z_][A-Za-z0-9_]*)?')
# The earliest macOS version of any declaration of each name (an extension's availability holds for its members).
earliest = collections.defaultdict(lambda: (999,))
scopes, pending = [], None
for line in open(interface):
    stripped = line.strip()
    for found in available.finditer(line): pending = version(found.group(1))
    context = max([a for a in scopes if a] or [(0,)])
    match = declaration.match(line)
    is_extension = re.match(r'^(@\S+ )*extension ', stripped) is not None
    if match:
        kind, name = match.group(1), match.group(2)
        if kind.startswith('init'):
            label = re.search(r'\binit[?!]?(?:<[^>]*>)?\(\s*(\w+)', stripped)
            name = 'init(' + (label.group(1) if label else '') + ':'
        if name: earliest[name] = min(earliest[name], max(pending or (0,), context))
    opened = line.count('{') - line.count('}')
    for _ in range(max(0, opened)): scopes.append(pending if (match or is_extension) else None)
    for _ in range(max(0, -opened)):
        if scopes: scopes.pop()
    if match or is_extension or (stripped and not stripped.startswith(('@', '#'))): pending = None
newer = {name: v for name, v in earliest.items() if version(options.floor) < v < (999,)}

identifier = re.compile(r'\b([A-Za-z_][A-Za-z0-9_]*)\b')
label = re.compile(r'\(\s*(\w+):')
for root in options.sources:
    for folder, _, files in os.walk(root):
        for file in sorted(files):
            if not file.endswith('.swift'): continue
            path = os.path.join(folder, file)
            for number, line in enumerate(open(path, encoding='utf-8'), 1):
                code = re.sub(r'"[^"]*"', '', line.split('//')[0])
                names = set(identifier.findall(code)) | {'init(' + l + ':' for l in label.findall(code)}
                for name in sorted(names & newer.keys()):
                    print(f"{path}:{number}: {name} (macOS {'.'.join(map(str, newer[name]))}): {line.strip()[:100]}")
