#!/usr/bin/env python3
"""Validates YAML or JSON files against a JSON Schema (draft 2020-12): tracking configs against
Schemas/trackc.schema.json, handler registries against Schemas/handlers.schema.json.

Usage: validate_configs.py SCHEMA FILE...
Prints one JSON object: {"schemaErrors": [...], "loadErrors": {FILE: error}, "results": {CONFIG: [error,
...]}}, where an empty list means the config is valid; a file PyYAML cannot read is a load error, not a
schema error, since the schema never saw it. Exits 2 when jsonschema or PyYAML is missing (.ci/run installs them).

YAML is read with the YAML 1.2 core schema, as trackc reads it (PyYAML's default is YAML 1.1, which
would turn `on`, `yes` and timestamps into other types), with merge keys enabled.
"""
import json
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as error:  # pragma: no cover
    print(f"validate_configs.py needs jsonschema and PyYAML: {error} (pip install jsonschema pyyaml)", file=sys.stderr)
    sys.exit(2)


class CoreSchemaLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 core-schema resolution."""


CoreSchemaLoader.yaml_implicit_resolvers = {}
for tag, pattern, first in [
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+0123456789."),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("merge", r"^(?:<<)$", "<"),
]:
    CoreSchemaLoader.add_implicit_resolver(f"tag:yaml.org,2002:{tag}", re.compile(pattern), list(first))


def shorten(message: str) -> str:
    """Keeps messages readable: the name patterns are long."""
    return message if len(message) <= 160 else message[:157] + "..."


def main() -> int:
    schema_path, *configs = sys.argv[1:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    schema_errors = []
    try:
        validator_class.check_schema(schema)
    except jsonschema.SchemaError as error:
        schema_errors.append(error.message)
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    results = {}
    load_errors = {}
    for path in configs:
        try:
            with open(path, encoding="utf-8") as f:
                document = yaml.load(f, Loader=CoreSchemaLoader)
        except Exception as error:  # noqa: BLE001 - a file PyYAML cannot read was not checked by the schema
            load_errors[path] = str(error)
            continue
        results[path] = sorted(
            f"{'/'.join(map(str, error.absolute_path)) or '(root)'}: {shorten(error.message)}"
            for error in validator.iter_errors(document)
        )
    print(json.dumps({"schemaErrors": schema_errors, "loadErrors": load_errors, "results": results}, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
