"""Reads property lists with Python's plistlib and prints them as one JSON object, by path.

A file plistlib cannot read is reported under "errors" with plistlib's message. Used by the tests of
the generated privacy manifests: a reader that is not trackc's own must read what trackc writes.
"""
import json
import plistlib
import sys

result = {"plists": {}, "errors": {}}
for path in sys.argv[1:]:
    try:
        with open(path, "rb") as handle:
            result["plists"][path] = plistlib.load(handle)
    except Exception as error:  # any failure to read is the finding
        result["errors"][path] = f"{type(error).__name__}: {error}"
print(json.dumps(result, ensure_ascii=False))
