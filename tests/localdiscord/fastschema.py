"""A small JSON Schema (2020-12) compiler for the keywords Discord's OpenAPI spec uses: schema -> predicate.

``jsonschema`` walks the schema on every call (evolve/descend/ref lookups), ~1-3 ms for a message; the
compiled closures here answer the same yes/no question in a few hundred microseconds.  They are the fast
path only: when one says "invalid", ``jsonschema`` is asked for the errors (and remains the authority -- if it
finds none, the body is accepted).  A schema using a keyword outside :data:`SUPPORTED` is not compiled
(:class:`Unsupported`), and the caller keeps using ``jsonschema`` for it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

Predicate = Callable[[Any], bool]

SUPPORTED = {
    "$ref", "type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
    "uniqueItems", "minLength", "maxLength", "minimum", "maximum", "enum", "const", "pattern", "oneOf", "anyOf",
    "allOf", "minProperties", "maxProperties",
}
ANNOTATIONS = {
    "description", "title", "default", "deprecated", "format", "contentEncoding", "contentMediaType", "examples",
    "readOnly", "writeOnly", "$comment", "$id", "$schema", "nullable",
}


class Unsupported(Exception):
    pass


def _is_integer(x: Any) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, int):
        return True
    return isinstance(x, float) and x.is_integer()


_TYPE_CHECKS: dict[str, Predicate] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": _is_integer,
    "number": lambda x: isinstance(x, int | float) and not isinstance(x, bool),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def _canonical(value: Any) -> Any:
    """A hashable key with JSON Schema's equality: true != 1, 1 == 1.0, objects by content."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("num", value)
    return ("json", json.dumps(value, sort_keys=True, default=str))


class Compiler:
    def __init__(self, document: dict) -> None:
        self.document = document
        self.refs: dict[str, Predicate] = {}

    def resolve(self, ref: str) -> dict:
        if not ref.startswith("#/"):
            raise Unsupported(f"external $ref {ref}")
        target: Any = self.document
        for part in ref[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        return target

    def ref(self, ref: str) -> Predicate:
        compiled = self.refs.get(ref)
        if compiled is None:
            holder: list[Predicate] = []
            self.refs[ref] = lambda x: holder[0](x)  # recursion-safe placeholder
            try:
                holder.append(self.compile(self.resolve(ref)))
            except Unsupported:
                del self.refs[ref]
                raise
            self.refs[ref] = compiled = holder[0]
        return compiled

    def compile(self, schema: Any) -> Predicate:
        if schema is True or schema == {}:
            return lambda x: True
        if schema is False:
            return lambda x: False
        if not isinstance(schema, dict):
            raise Unsupported(f"schema {schema!r}")
        unknown = {k for k in schema if k not in SUPPORTED and k not in ANNOTATIONS and not k.startswith("x-")}
        if unknown:
            raise Unsupported(f"keywords {sorted(unknown)}")
        checks: list[Predicate] = []

        if "type" in schema:
            kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            tests = [_TYPE_CHECKS[k] for k in kinds]
            if len(tests) == 1:
                checks.append(tests[0])
            else:
                checks.append(lambda x, tests=tests: any(t(x) for t in tests))

        if "enum" in schema:
            allowed = {_canonical(v) for v in schema["enum"]}
            checks.append(lambda x, allowed=allowed: _canonical(x) in allowed)
        if "const" in schema:
            const = _canonical(schema["const"])
            checks.append(lambda x, const=const: _canonical(x) == const)

        # strings
        min_len, max_len, pattern = schema.get("minLength"), schema.get("maxLength"), schema.get("pattern")
        if min_len is not None or max_len is not None or pattern is not None:
            regex = re.compile(pattern) if pattern is not None else None
            low = min_len or 0
            high = max_len if max_len is not None else float("inf")

            def string_check(x: Any, low=low, high=high, regex=regex) -> bool:
                if not isinstance(x, str):
                    return True
                return low <= len(x) <= high and (regex is None or regex.search(x) is not None)

            checks.append(string_check)

        # numbers
        if "minimum" in schema or "maximum" in schema:
            lo, hi = schema.get("minimum"), schema.get("maximum")

            def number_check(x: Any, lo=lo, hi=hi) -> bool:
                if isinstance(x, bool) or not isinstance(x, int | float):
                    return True
                return (lo is None or x >= lo) and (hi is None or x <= hi)

            checks.append(number_check)

        # arrays
        if any(k in schema for k in ("items", "minItems", "maxItems", "uniqueItems")):
            item = self.compile(schema["items"]) if "items" in schema else None
            lo_items = schema.get("minItems", 0)
            hi_items = schema.get("maxItems", float("inf"))
            unique = schema.get("uniqueItems", False)

            def array_check(x: Any, item=item, lo=lo_items, hi=hi_items, unique=unique) -> bool:
                if not isinstance(x, list):
                    return True
                if not lo <= len(x) <= hi:
                    return False
                if unique and len({_canonical(v) for v in x}) != len(x):
                    return False
                return item is None or all(item(v) for v in x)

            checks.append(array_check)

        # objects
        if any(k in schema for k in ("properties", "required", "additionalProperties", "minProperties",
                                     "maxProperties")):
            props = {name: self.compile(sub) for name, sub in schema.get("properties", {}).items()}
            required = tuple(schema.get("required", ()))
            extra_schema = schema.get("additionalProperties", True)
            extra = None if extra_schema is True else self.compile(extra_schema)
            lo_props = schema.get("minProperties", 0)
            hi_props = schema.get("maxProperties", float("inf"))

            def object_check(x: Any, props=props, required=required, extra=extra, lo=lo_props, hi=hi_props) -> bool:
                if not isinstance(x, dict):
                    return True
                if not lo <= len(x) <= hi:
                    return False
                for name in required:
                    if name not in x:
                        return False
                for key, value in x.items():
                    check = props.get(key)
                    if check is not None:
                        if not check(value):
                            return False
                    elif extra is not None and not extra(value):
                        return False
                return True

            checks.append(object_check)

        if "$ref" in schema:
            checks.append(self.ref(schema["$ref"]))
        if "allOf" in schema:
            subs = [self.compile(s) for s in schema["allOf"]]
            checks.append(lambda x, subs=subs: all(s(x) for s in subs))
        if "anyOf" in schema:
            checks.append(self._discriminated(schema["anyOf"]) or self._any_of(schema["anyOf"]))
        if "oneOf" in schema:
            checks.append(self._discriminated(schema["oneOf"]) or self._one_of(schema["oneOf"]))

        if not checks:
            return lambda x: True
        if len(checks) == 1:
            return checks[0]
        return lambda x, checks=tuple(checks): all(c(x) for c in checks)

    def _any_of(self, branches: list) -> Predicate:
        subs = [self.compile(b) for b in branches]
        return lambda x: any(s(x) for s in subs)

    def _one_of(self, branches: list) -> Predicate:
        subs = [self.compile(b) for b in branches]

        def one_of(x: Any) -> bool:
            found = 0
            for s in subs:
                if s(x):
                    found += 1
                    if found > 1:
                        return False
            return found == 1

        return one_of

    def _discriminated(self, branches: list) -> Predicate | None:
        """Branches that are objects told apart by a required ``type`` with disjoint enums: check only the one
        the instance's ``type`` names (the others fail on that enum anyway, so any/one-of semantics hold)."""
        table: dict[Any, Predicate] = {}
        for branch in branches:
            target = branch
            while isinstance(target, dict) and set(target) - ANNOTATIONS == {"$ref"}:
                target = self.resolve(target["$ref"])
            if not isinstance(target, dict) or target.get("type") not in ("object", ["object"]):
                return None
            if "type" not in target.get("required", ()):
                return None
            tag = target.get("properties", {}).get("type")
            if not isinstance(tag, dict):
                return None
            values = tag.get("enum", [tag["const"]] if "const" in tag else None)
            if not values or any(isinstance(v, dict | list) for v in values):
                return None
            compiled = self.compile(branch)
            for value in values:
                key = _canonical(value)
                if key in table:
                    return None
                table[key] = compiled

        def dispatch(x: Any) -> bool:
            if not isinstance(x, dict) or "type" not in x:
                return False
            check = table.get(_canonical(x["type"]))
            return check is not None and check(x)

        return dispatch
