"""Discord's own OpenAPI description, used to route requests and to validate every body both ways.

The spec (Discord's own ``openapi.json``, kept gzipped with its MIT licence in ``discord_api_spec/`` so the tests
run on any clone; ``DISCORD_OPENAPI_SPEC`` points at another copy; OpenAPI 3.1, so JSON Schema 2020-12) is loaded once
per process.  Requests are matched to an operation by path template and method (literal segments win over
``{parameters}``, as in ``/webhooks/{id}/{token}/messages/@original``).  Validators are compiled lazily and
cached per (operation, content type) and per (operation, status), so a request costs one dict lookup and one
validation.

One deliberate, reported tolerance: the spec types every snowflake as a JSON *string*, while discord.py sends
some as JSON integers (``recipient_id`` of ``POST /users/@me/channels``, the ``id`` of each entry of
``attachments`` in uploads).  Discord itself accepts both.  A request body that fails the strict schema but
passes once integers are allowed where the spec says ``SnowflakeType`` is accepted and recorded as a
:class:`Tolerated` note (``server.tolerated``), never silently.  Responses the fake sends are always strict.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .fastschema import Compiler, Unsupported

BUNDLED_SPEC = Path(__file__).resolve().parent / "discord_api_spec" / "openapi.json.gz"
SPEC_PATH = Path(os.environ.get("DISCORD_OPENAPI_SPEC", BUNDLED_SPEC))
SPEC_URI = "urn:discord-openapi"
RELAXED_URI = "urn:discord-openapi-relaxed"
_SNOWFLAKE_RE = re.compile(r"^(0|[1-9][0-9]*)$")


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@dataclass(frozen=True)
class Tolerated:
    """A request the strict spec rejects but Discord accepts (see the module docstring)."""

    operation: str
    what: str


@dataclass
class Operation:
    method: str
    template: str
    operation_id: str
    spec: Spec = field(repr=False)
    raw: dict = field(repr=False)
    path_params: dict[str, dict] = field(repr=False)
    query_params: dict[str, dict] = field(repr=False)
    _request_validators: dict[str, tuple[Any, Any] | None] = field(default_factory=dict, repr=False)
    _response_validators: dict[int, Any] = field(default_factory=dict, repr=False)

    @property
    def name(self) -> str:
        return f"{self.method} {self.template}"

    # ----------------------------------------------------------------- requests
    def request_content_types(self) -> list[str]:
        body = self.raw.get("requestBody")
        return list(body["content"]) if body else []

    def body_required(self) -> bool:
        body = self.raw.get("requestBody")
        return bool(body and body.get("required"))

    def _request_validator_pair(self, content_type: str):
        if content_type not in self._request_validators:
            body = self.raw.get("requestBody")
            if not body or content_type not in body["content"]:
                self._request_validators[content_type] = None
            else:
                ptr = "#/" + _pointer("paths", self.template, self.method.lower(), "requestBody", "content",
                                      content_type, "schema")
                self._request_validators[content_type] = (
                    self.spec.validator_for(SPEC_URI + ptr),
                    self.spec.validator_for(RELAXED_URI + ptr),
                )
        return self._request_validators[content_type]

    def validate_request(self, content_type: str, body: Any) -> tuple[list[ValidationError], Tolerated | None]:
        """Errors of ``body`` against the request schema (empty when valid) and any tolerance applied."""
        pair = self._request_validator_pair(content_type)
        if pair is None:
            return [], None
        strict, relaxed = pair
        # discord.py sends some snowflakes as integers in most uploads (attachments[n].id), so the tolerated
        # case is common: decide it with the compiled predicates, and ask jsonschema (slow: ~70 ms for a
        # message body) only when the strict schema cannot be compiled or the body really breaks the spec.
        if strict.fast is not None and strict.fast(body):
            return [], None
        if relaxed.is_valid(body):
            if strict.fast is None and strict.is_valid(body):
                return [], None
            where = _int_snowflake_paths(body) or "(body)"
            return [], Tolerated(self.name, f"integer snowflake(s) where the spec says string: {where}")
        return list(strict.iter_errors(body)), None

    # ---------------------------------------------------------------- responses
    def response_validator(self, status: int):
        if status not in self._response_validators:
            responses = self.raw.get("responses", {})
            key = str(status)
            if key not in responses:
                key = f"{str(status)[0]}XX"
            response = responses.get(key)
            validator = None
            if response is not None:
                if "$ref" in response:
                    response = self.spec.resolve_local(response["$ref"])
                    content = response.get("content", {})
                    if "application/json" in content:
                        validator = self.spec.validator_for_schema(content["application/json"]["schema"])
                    else:
                        validator = False
                else:
                    content = response.get("content", {})
                    if "application/json" in content:
                        ptr = "#/" + _pointer("paths", self.template, self.method.lower(), "responses", key,
                                              "content", "application/json", "schema")
                        validator = self.spec.validator_for(SPEC_URI + ptr)
                    else:
                        validator = False  # the spec says: no body for this status
            self._response_validators[status] = validator
        return self._response_validators[status]

    def documents_status(self, status: int) -> bool:
        responses = self.raw.get("responses", {})
        return str(status) in responses or f"{str(status)[0]}XX" in responses

    def validate_response(self, status: int, body: Any) -> list[ValidationError]:
        validator = self.response_validator(status)
        if not validator:
            return []
        if validator.is_valid(body):
            return []
        return list(validator.iter_errors(body))


def _int_snowflake_paths(body: Any) -> str:
    # a compact description of where integers sit in the body (only used to describe a tolerance)
    found: list[str] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, bool):
            return
        if isinstance(value, int) and (path.endswith("id") or path.endswith("]")):
            found.append(path)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{path}.{k}" if path else k)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{path}[{i}]")

    walk(body, "")
    return ", ".join(found)


class Checker:
    """A schema's validator: the compiled predicate answers "valid?"; jsonschema explains failures.

    With ``Checker.crosscheck = True`` every answer is also computed by jsonschema and any disagreement is
    appended to ``Checker.disagreements`` (the fake's own tests use it to keep the compiler honest).
    """

    __slots__ = ("fast", "slow")
    crosscheck = False
    disagreements: list = []  # noqa: RUF012 - deliberately shared

    def __init__(self, fast, slow: Draft202012Validator) -> None:
        self.fast = fast
        self.slow = slow

    def is_valid(self, instance: Any) -> bool:
        if Checker.crosscheck and self.fast is not None:
            fast, slow = self.fast(instance), self.slow.is_valid(instance)
            if fast != slow:
                Checker.disagreements.append((self.slow.schema, instance, fast, slow))
            return slow
        if self.fast is not None and self.fast(instance):
            return True
        return self.slow.is_valid(instance)

    def iter_errors(self, instance: Any):
        return self.slow.iter_errors(instance)


class _Node:
    __slots__ = ("literal", "operations", "param", "param_name", "template")

    def __init__(self) -> None:
        self.literal: dict[str, _Node] = {}
        self.param: _Node | None = None
        self.param_name: str | None = None
        self.operations: dict[str, Operation] = {}
        self.template: str | None = None


class Spec:
    def __init__(self, path: Path = SPEC_PATH) -> None:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            self.document: dict = json.load(fh)
        relaxed = copy.deepcopy(self.document)
        relaxed["components"]["schemas"]["SnowflakeType"] = {
            "anyOf": [
                self.document["components"]["schemas"]["SnowflakeType"],
                {"type": "integer", "minimum": 0},
            ]
        }
        self.registry = Registry().with_resources([
            (SPEC_URI, Resource(contents=self.document, specification=DRAFT202012)),
            (RELAXED_URI, Resource(contents=relaxed, specification=DRAFT202012)),
        ])
        self._validators: dict[str, Checker] = {}
        self._compilers = {SPEC_URI: Compiler(self.document), RELAXED_URI: Compiler(relaxed)}
        self.root = _Node()
        for template, item in self.document["paths"].items():
            shared = {p["name"]: p for p in item.get("parameters", [])}
            for method, op in item.items():
                if method == "parameters":
                    continue
                params = dict(shared)
                params.update({p["name"]: p for p in op.get("parameters", [])})
                operation = Operation(
                    method=method.upper(),
                    template=template,
                    operation_id=op.get("operationId", ""),
                    spec=self,
                    raw=op,
                    path_params={k: v for k, v in params.items() if v.get("in") == "path"},
                    query_params={k: v for k, v in params.items() if v.get("in") == "query"},
                )
                self._insert(template, operation)

    def _insert(self, template: str, operation: Operation) -> None:
        node = self.root
        for segment in template.strip("/").split("/"):
            if segment.startswith("{") and segment.endswith("}"):
                if node.param is None:
                    node.param = _Node()
                    node.param_name = segment[1:-1]
                node = node.param
            else:
                node = node.literal.setdefault(segment, _Node())
        node.template = template
        node.operations[operation.method] = operation

    def match(self, method: str, path: str) -> tuple[Operation | None, dict[str, str], bool]:
        """(operation, path parameters, path known) for a request path below ``/api/v10``."""
        segments = [unquote(s) for s in path.strip("/").split("/")]
        found = self._walk(self.root, segments, 0, {})
        if found is None:
            return None, {}, False
        node, params = found
        return node.operations.get(method.upper()), params, True

    def _walk(self, node: _Node, segments: list[str], index: int, params: dict[str, str]):
        if index == len(segments):
            return (node, params) if node.operations else None
        segment = segments[index]
        child = node.literal.get(segment)
        if child is not None:
            found = self._walk(child, segments, index + 1, params)
            if found is not None:
                return found
        if node.param is not None and segment:
            found = self._walk(node.param, segments, index + 1, {**params, node.param_name: segment})
            if found is not None:
                return found
        return None

    def resolve_local(self, ref: str) -> dict:
        target: Any = self.document
        for part in ref.lstrip("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        return target

    def validator_for(self, uri: str) -> Checker:
        """The (cached) checker of the schema at ``uri`` (``urn:discord-openapi#/json/pointer``)."""
        validator = self._validators.get(uri)
        if validator is None:
            base, _, pointer = uri.partition("#")
            try:
                fast = self._compilers[base].ref("#" + pointer)
            except Unsupported:
                fast = None
            validator = Checker(fast, Draft202012Validator({"$ref": uri}, registry=self.registry))
            self._validators[uri] = validator
        return validator

    def validator_for_schema(self, schema: dict) -> Checker:
        if set(schema) == {"$ref"} and schema["$ref"].startswith("#/"):
            return self.validator_for(SPEC_URI + schema["$ref"])
        key = json.dumps(schema, sort_keys=True)
        validator = self._validators.get(key)
        if validator is None:
            try:
                fast = self._compilers[SPEC_URI].compile(schema)
            except Unsupported:
                fast = None
            validator = Checker(fast, Draft202012Validator({"$id": SPEC_URI, **schema}, registry=self.registry))
            self._validators[key] = validator
        return validator

    def check_parameter(self, param: dict, raw: str) -> str | None:
        """A message when the path/query parameter value ``raw`` breaks its schema (parsed as Discord does)."""
        schema = param.get("schema", {})
        if "$ref" in schema:
            schema = self.resolve_local(schema["$ref"])
        kind = schema.get("type")
        if schema.get("format") == "snowflake" or schema.get("pattern") == _SNOWFLAKE_RE.pattern:
            return None if _SNOWFLAKE_RE.match(raw) else f'Value "{raw}" is not snowflake.'
        if kind == "boolean":
            return None if raw.lower() in {"true", "false", "1", "0"} else f'Value "{raw}" is not a boolean.'
        if kind == "integer":
            try:
                value = int(raw)
            except ValueError:
                return f'Value "{raw}" is not int.'
            if "minimum" in schema and value < schema["minimum"]:
                return f"Int value should be greater than or equal to {schema['minimum']}."
            if "maximum" in schema and value > schema["maximum"]:
                return f"Int value should be less than or equal to {schema['maximum']}."
            return None
        if kind == "string" and "maxLength" in schema and len(raw) > schema["maxLength"]:
            return f"Must be {schema['maxLength']} or fewer in length."
        return None


@cache
def load_spec(path: Path = SPEC_PATH) -> Spec:
    return Spec(path)


def describe_errors(errors: list[ValidationError], limit: int = 3) -> str:
    """A short human description of schema errors: the best match first, with its JSON path."""
    if not errors:
        return ""
    best = best_match(errors)
    lines = [f"{best.json_path}: {best.message[:300]}"]
    for error in errors:
        if len(lines) >= limit:
            break
        line = f"{error.json_path}: {error.message[:200]}"
        if line not in lines:
            lines.append(line)
    return "; ".join(lines)


def discord_form_errors(errors: list[ValidationError]) -> dict:
    """Discord's ``errors`` object for a 50035 Invalid Form Body, built from the schema errors."""
    result: dict = {}
    best = best_match(errors)
    chosen = [best, *[e for e in errors if e is not best][:4]]
    for error in chosen:
        node = result
        for part in error.absolute_path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": 50035, "message": error.message[:300]})
    if "_errors" in result and len(result) > 1:
        # an object can't carry both children and _errors under ErrorDetails' oneOf; keep the children
        del result["_errors"]
    return result
