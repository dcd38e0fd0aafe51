#!/usr/bin/env python3
"""Checks JSON Schemas exported by `trackc export --format jsonschema`, and validates events with them.

Usage: validate_events.py CASES.json
CASES.json: {"schemas": {"NAME": "path/to/NAME.schema.json", ...},
             "events": [{"schema": "NAME", "properties": {...}}, ...]}
Prints one JSON object: {"schemaErrors": {"NAME": [error, ...]}, "valid": [true|false, ...]} (one
`valid` per event, in order). Exits 2 when jsonschema is missing (.ci/run installs it).
"""
import json
import sys

try:
    import jsonschema
except ImportError as error:  # pragma: no cover
    print(f"validate_events.py needs jsonschema: {error} (pip install jsonschema)", file=sys.stderr)
    sys.exit(2)


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        cases = json.load(file)
    validators = {}
    schema_errors = {}
    for name, path in cases["schemas"].items():
        with open(path, encoding="utf-8") as file:
            schema = json.load(file)
        errors = []
        if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
            errors.append("not a draft 2020-12 schema: %r" % schema.get("$schema"))
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as error:
            errors.append(error.message)
        schema_errors[name] = errors
        validators[name] = jsonschema.Draft202012Validator(schema)
    valid = [validators[event["schema"]].is_valid(event["properties"]) for event in cases["events"]]
    json.dump({"schemaErrors": schema_errors, "valid": valid}, sys.stdout)


if __name__ == "__main__":
    main()
