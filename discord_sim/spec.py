"""Discord's published contract for its HTTP API, and the simulator held to it.

Discord publishes an OpenAPI 3.1 description of API v10 (``specs/openapi.json`` of the public
repository discord/discord-api-spec). A copy is pinned beside this module
(``discord-openapi.json.gz``, its source commit in ``discord-openapi.source.json``; ``make
update-discord-spec`` refreshes both) and the simulator judges by it:

- every REST request the bot makes (``request_violations``): the route and method exist,
  path and query parameters and the JSON body (for a multipart upload its ``payload_json``
  part and the files its ``attachments`` name) validate against the operation's schemas;
- the simulator's own answers (``response_violations``) against the operation's response
  schemas, so the client is fed objects shaped like Discord's;
- the parts of an INTERACTION_CREATE the spec describes (``interaction_violations``).

A schema is compiled once per process and operation (JSON Schema 2020-12, jsonschema-rs:
about 0.1 ms for a message with five rows of buttons, a hundredth of the pure-Python
validator's time). A broken rule is a ``Violation``: the operation, the JSON path, the rule
and Discord's error code and wording; ``errors_tree`` lays violations out as the ``errors``
of Discord's 400 Invalid Form Body (code 50035).

Where the spec is not what Discord does, the difference is made here and said in
docs/discord-simulator.md ("Held to Discord's published contract").
"""

from __future__ import annotations

import copy
import functools
import gzip
import json
import re
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema_rs

SPEC_PATH = Path(__file__).with_name("discord-openapi.json.gz")
SOURCE_PATH = Path(__file__).with_name("discord-openapi.source.json")

#: The documents' base URIs in the validators' registry: as published (what Discord sends
#: back), and for requests, with snowflakes accepted as JSON numbers too (see ``_for_requests``).
RESPONSES_URI = "urn:discord-openapi:responses"
REQUESTS_URI = "urn:discord-openapi:requests"

JsonPath = tuple[str | int, ...]

#: The files one message may carry (Discord's docs; the spec's forms name files[0]-files[9]).
MAX_FILES = 10


@dataclass(frozen=True)
class Violation:
    """One rule of Discord's contract broken by a request, an answer or an interaction."""

    #: The operation's id in the spec (``create_message``), or ``INTERACTION_CREATE``.
    operation: str
    #: "POST /channels/1/messages" (what was sent), or the interaction's description.
    request: str
    #: "path", "query", "body", "response 200", "interaction", "simulator" (a limit of
    #: Discord's docs the simulator enforces where the spec is looser).
    where: str
    #: Where in the JSON (``("components", 0, "components", 1, "custom_id")``).
    path: JsonPath
    #: The rule broken, as the spec states it (``maxLength 100 in
    #: ButtonComponentForMessageRequest/properties/custom_id``).
    rule: str
    #: Discord's error code and message for it (``BASE_TYPE_MAX_LENGTH``, "Must be 100 or
    #: fewer in length.").
    code: str
    message: str

    @property
    def json_path(self) -> str:
        text = "$"
        for part in self.path:
            text += f"[{part}]" if isinstance(part, int) else f".{part}"
        return text

    def describe(self) -> str:
        return (
            f"{self.operation} ({self.request}): {self.where} {self.json_path}: "
            f"{self.message} [{self.code}; rule: {self.rule}]"
        )


def errors_tree(violations: Iterable[Violation]) -> dict[str, Any]:
    """Discord's ``errors`` object: nested by JSON path (array indices as strings), each
    leaf ``{"_errors": [{"code", "message"}]}``."""
    tree: dict[str, Any] = {}
    for violation in violations:
        node = tree
        for part in violation.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append(
            {"code": violation.code, "message": violation.message}
        )
    return tree


# --------------------------------------------------------------------- the document


@functools.cache
def load_document() -> dict[str, Any]:
    """The pinned spec, read once per process (the tests never fetch anything)."""
    with gzip.open(SPEC_PATH, "rb") as file:
        document: dict[str, Any] = json.load(file)
    return document


def source() -> dict[str, Any]:
    """Where the pinned copy came from (repository, commit, its date, the file's blob)."""
    info: dict[str, Any] = json.loads(SOURCE_PATH.read_text())
    return info


def _for_requests(document: dict[str, Any]) -> dict[str, Any]:
    # The spec types every snowflake as a string of digits, as Discord sends them. Discord
    # reads a snowflake in a request as a string or a JSON number alike, and discord.py
    # sends numbers (an upload's ``attachments[].id`` is the file's index, 0, 1...;
    # ``allowed_mentions.users``, ``recipient_id``): accepted in requests, never in answers.
    requests = copy.deepcopy(document)
    snowflake = requests["components"]["schemas"]["SnowflakeType"]
    snowflake["type"] = ["string", "integer"]
    snowflake["minimum"] = 0
    snowflake["maximum"] = 2**64 - 1
    return requests


def _for_responses(document: dict[str, Any]) -> dict[str, Any]:
    # The spec's field errors (``errors.<field>._errors[]``) reuse the top-level Error, whose
    # code is an integer (50035). Discord's docs and answers give a field error's code as a
    # string ("BASE_TYPE_REQUIRED"): the docs are followed here.
    responses = copy.deepcopy(document)
    inner = responses["components"]["schemas"]["InnerErrors"]["properties"]["_errors"]
    inner["items"] = {
        "type": "object",
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        "required": ["code", "message"],
    }
    return responses


def _pointer(base: str, parts: Sequence[str | int]) -> dict[str, str]:
    escaped = (str(p).replace("~", "~0").replace("/", "~1") for p in parts)
    return {"$ref": base + "#/" + "/".join(urllib.parse.quote(p, safe="~@") for p in escaped)}


class Contract:
    """The spec's operations, with validators compiled on first use and kept."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.registry = jsonschema_rs.Registry(
            [
                (RESPONSES_URI, _for_responses(document)),
                (REQUESTS_URI, _for_requests(document)),
            ]
        )
        self.operations: list[Operation] = []
        by_shape: dict[tuple[str, int], list[Operation]] = {}
        for template, item in document["paths"].items():
            for method, spec in item.items():
                if method == "parameters" or not isinstance(spec, dict):
                    continue
                operation = Operation(self, method.upper(), template, item, spec)
                self.operations.append(operation)
                by_shape.setdefault((operation.method, len(operation.segments)), []).append(
                    operation
                )
        # The most literal template first: /users/@me before /users/{user_id}.
        self._by_shape = {
            key: sorted(ops, key=lambda op: -op.literal_count) for key, ops in by_shape.items()
        }
        self._validators: dict[tuple[str, tuple[str | int, ...]], jsonschema_rs.Validator] = {}

    def validator(self, base: str, parts: Sequence[str | int]) -> jsonschema_rs.Validator:
        key = (base, tuple(parts))
        validator = self._validators.get(key)
        if validator is None:
            validator = jsonschema_rs.validator_for(
                _pointer(base, parts), registry=self.registry, validate_formats=False
            )
            self._validators[key] = validator
        return validator

    def schema_validator(self, name: str, *, request: bool = False) -> jsonschema_rs.Validator:
        """A validator for ``#/components/schemas/<name>``."""
        return self.validator(
            REQUESTS_URI if request else RESPONSES_URI, ("components", "schemas", name)
        )

    def operation(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation a concrete request path is for, and its path parameters."""
        segments = path.strip("/").split("/")
        for operation in self._by_shape.get((method, len(segments)), ()):
            params = operation.match(segments)
            if params is not None:
                return operation, params
        return None

    def prepare(self, routes: Iterable[tuple[str, str]]) -> None:
        """Compile the validators of these routes (``("POST", "/channels/{id}/messages")``)
        and of the interaction's parts now, so no test pays for it in its first request."""
        for method, template in routes:
            sample = re.sub(r"\{[^}]+\}", "1", template)
            found = self.operation(method, sample)
            if found is None:
                continue
            operation = found[0]
            for kind in operation.body_types:
                operation.body_validator(kind)
            for location, name in operation.parameters:
                operation.parameter_validator(location, name)
            for status in (200, 400, 429):
                operation.response_validator(status)
        for _, schema in INTERACTION_PARTS:
            self.schema_validator(schema)
        for schema in (
            "ApplicationCommandOptionType",
            "GuildRoleResponse",
            "BasicGuildMemberResponse",
        ):
            self.schema_validator(schema)

    def resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """A schema with its top-level ``$ref`` (into this document) followed."""
        while "$ref" in schema:
            ref = schema["$ref"]
            node: Any = self.document
            for part in ref.removeprefix("#/").split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            schema = node
        return schema


_PARAM = re.compile(r"^\{(\w+)\}$")


class Operation:
    """One method of one path of the spec."""

    def __init__(
        self,
        contract: Contract,
        method: str,
        template: str,
        item: dict[str, Any],
        spec: dict[str, Any],
    ) -> None:
        self.contract = contract
        self.method = method
        self.template = template
        self.id: str = spec.get("operationId", f"{method} {template}")
        self.segments = tuple(template.strip("/").split("/"))
        self.literal_count = sum(1 for s in self.segments if not _PARAM.match(s))
        self._spec = spec
        self._where = ("paths", template, method.lower())
        self.parameters: dict[tuple[str, str], tuple[JsonPath, dict[str, Any]]] = {}
        for origin, params in (
            (("paths", template, "parameters"), item.get("parameters", [])),
            ((*self._where, "parameters"), spec.get("parameters", [])),
        ):
            for index, param in enumerate(params):
                param = contract.resolve(param)
                self.parameters[(param["in"], param["name"])] = (
                    (*origin, index, "schema"),
                    dict(param),
                )
        body = spec.get("requestBody") or {}
        self.body_required = bool(body.get("required"))
        self.body_types = tuple(body.get("content", {}))
        self.file_fields = frozenset(_file_fields(contract, body))
        if "multipart/form-data" in self.body_types and not self.file_fields:
            # The interaction callback's form names no file parts in the spec, but Discord's
            # docs take files with a response message as with any other: files[0]-files[9].
            self.file_fields = frozenset(f"files[{n}]" for n in range(MAX_FILES))

    def match(self, segments: Sequence[str]) -> dict[str, str] | None:
        params: dict[str, str] = {}
        for pattern, value in zip(self.segments, segments, strict=True):
            name = _PARAM.match(pattern)
            if name is None:
                if pattern != value:
                    return None
            elif value.startswith("@"):
                return None  # /messages/@original is its own operation
            else:
                params[name.group(1)] = urllib.parse.unquote(value)
        return params

    def body_validator(self, media_type: str) -> jsonschema_rs.Validator | None:
        if media_type not in self.body_types:
            return None
        return self.contract.validator(
            REQUESTS_URI, (*self._where, "requestBody", "content", media_type, "schema")
        )

    def parameter_validator(self, location: str, name: str) -> jsonschema_rs.Validator | None:
        found = self.parameters.get((location, name))
        if found is None:
            return None
        return self.contract.validator(REQUESTS_URI, found[0])

    def parameter_schema(self, location: str, name: str) -> Mapping[str, Any]:
        return self.contract.resolve(self.parameters[(location, name)][1]["schema"])

    def response_validator(self, status: int) -> jsonschema_rs.Validator | None:
        """The validator of a JSON answer with this status (None where the spec has no body
        for it)."""
        responses = self._spec.get("responses", {})
        key = next(
            (k for k in (str(status), f"{str(status)[0]}XX") if k in responses),
            None,
        )
        if key is None:
            return None
        response = responses[key]
        parts: JsonPath = (*self._where, "responses", key)
        if "$ref" in response:
            parts = tuple(response["$ref"].removeprefix("#/").split("/"))
            response = self.contract.resolve(response)
        if "application/json" not in response.get("content", {}):
            return None
        return self.contract.validator(
            RESPONSES_URI, (*parts, "content", "application/json", "schema")
        )

    def __repr__(self) -> str:
        return f"<Operation {self.id}: {self.method} {self.template}>"


def _file_fields(contract: Contract, body: dict[str, Any]) -> Iterator[str]:
    """The file parts a multipart body may carry (``files[0]`` … ``files[9]``)."""
    schema = body.get("content", {}).get("multipart/form-data", {}).get("schema", {})
    stack = [schema]
    while stack:
        node = contract.resolve(stack.pop())
        stack.extend(node.get("allOf", []))
        for name, prop in node.get("properties", {}).items():
            if prop.get("contentEncoding") == "binary":
                yield name


@functools.cache
def contract() -> Contract:
    """The process's one contract (validators are compiled into it as they are needed)."""
    return Contract(load_document())


# --------------------------------------------------------------------- explaining errors


@dataclass
class _Problem:
    path: JsonPath
    keyword: str
    rule: str
    code: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)


def _kind(error: jsonschema_rs.ValidationError) -> str:
    return type(error.kind).__name__


def _rule(error: jsonschema_rs.ValidationError, keyword: str, limit: Any) -> str:
    location = str(getattr(error, "absolute_keyword_location", "") or "")
    where = (
        location.partition("#/")[2] if "#/" in location else "/".join(map(str, error.schema_path))
    )
    where = urllib.parse.unquote(where).removeprefix("components/schemas/")
    where = where.replace("~1", "/").replace("~0", "~")
    # the keyword is the location's last part: name the schema and property only
    where = where.rsplit("/", 1)[0] if where.endswith(keyword) else where
    shown = "" if limit is None else f" {json.dumps(limit)}"
    return f"{keyword}{shown} in {where}"


def _discord_words(kind: str, details: dict[str, Any], instance: Any) -> tuple[str, str, str, Any]:
    """(keyword, Discord's error code, Discord's message, the limit) for one error."""
    if kind == "MaxLength":
        n = details["limit"]
        return "maxLength", "BASE_TYPE_MAX_LENGTH", f"Must be {n} or fewer in length.", n
    if kind == "MinLength":
        n = details["limit"]
        return "minLength", "BASE_TYPE_MIN_LENGTH", f"Must be {n} or more in length.", n
    if kind == "MaxItems":
        n = details["limit"]
        return "maxItems", "BASE_TYPE_MAX_LENGTH", f"Must be {n} or fewer in length.", n
    if kind == "MinItems":
        n = details["limit"]
        return "minItems", "BASE_TYPE_MIN_LENGTH", f"Must be {n} or more in length.", n
    if kind == "Maximum":
        n = details["limit"]
        return "maximum", "NUMBER_TYPE_MAX", f"int value should be less than or equal to {n}.", n
    if kind == "Minimum":
        n = details["limit"]
        return "minimum", "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {n}.", n
    if kind == "Required":
        return "required", "BASE_TYPE_REQUIRED", "This field is required", details["property"]
    if kind in ("Enum", "Constant"):
        options = details.get("options", details.get("expected_value"))
        shown = options if isinstance(options, list) else [options]
        listed = ", ".join(json.dumps(o) for o in shown)
        return "enum", "BASE_TYPE_CHOICES", f"Value must be one of ({listed}).", options
    if kind == "Type":
        types = details.get("types") or [details.get("type")]
        value = json.dumps(instance)[:40]
        if "integer" in types or "number" in types:
            return "type", "NUMBER_TYPE_COERCE", f"Value {value} is not int.", types
        if "string" in types:
            return "type", "STRING_TYPE_CONVERT", f"Could not interpret {value} as string.", types
        if "array" in types:
            return "type", "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType", types
        if "object" in types:
            return "type", "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType", types
        if "boolean" in types:
            return "type", "BOOLEAN_TYPE_CONVERT", "Must be either true or false.", types
        return "type", "BASE_TYPE_INVALID", f"Must be of type {' or '.join(types)}.", types
    if kind == "Pattern":
        pattern = details.get("pattern")
        if pattern == "^(0|[1-9][0-9]*)$":
            return (
                "pattern",
                "NUMBER_TYPE_COERCE",
                f"Value {json.dumps(instance)} is not snowflake.",
                pattern,
            )
        return (
            "pattern",
            "STRING_TYPE_REGEX",
            "String value did not match validation regex.",
            pattern,
        )
    if kind == "UniqueItems":
        return "uniqueItems", "LIST_ITEM_VALUE_DUPLICATE", "The list contains duplicates.", None
    if kind == "AdditionalProperties":
        unexpected = details.get("unexpected")
        return "additionalProperties", "UNKNOWN_FIELD", f"Unknown fields {unexpected}.", False
    return kind, "BASE_TYPE_INVALID", "Invalid value.", None


def _at(instance: Any, path: JsonPath) -> Any:
    for part in path:
        try:
            instance = instance[part]
        except (KeyError, IndexError, TypeError):
            return None
    return instance


def _union_type_values(document: dict[str, Any], contract_: Contract, location: str) -> list[Any]:
    """The ``type`` values a union's branches accept (for UNION_TYPE_CHOICES)."""
    where = urllib.parse.unquote(location.partition("#/")[2])
    node: Any = document
    for part in where.split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    values: list[Any] = []
    for branch in node:
        branch = contract_.resolve(branch)
        values.extend(branch.get("properties", {}).get("type", {}).get("enum", []))
    return sorted(set(values), key=str)


def _problems(
    error: jsonschema_rs.ValidationError, instance: Any, contract_: Contract
) -> list[_Problem]:
    kind = _kind(error)
    path: JsonPath = tuple(error.instance_path)
    if isinstance(
        error.kind,
        jsonschema_rs.ValidationErrorKind.OneOfNotValid | jsonschema_rs.ValidationErrorKind.AnyOf,
    ):
        branches = [list(b) for b in error.kind.context]
        here = _at(instance, path)

        def mismatched(branch: list[jsonschema_rs.ValidationError]) -> bool:
            for e in branch:
                at = tuple(e.instance_path)
                if at == (*path, "type") and _kind(e) in ("Enum", "Constant"):
                    return True  # the discriminator: another kind of component
                if at == path and _kind(e) == "Type":
                    return True  # the null of a nullable reference, or another JSON type
            return False

        consts = [
            e.kind.as_dict().get("expected_value")
            for b in branches
            for e in b
            if tuple(e.instance_path) == path and _kind(e) == "Constant"
        ]
        if len(consts) == len(branches) and all(len(b) == 1 for b in branches):
            # an enumeration written as a oneOf of constants (locales, kinds of interaction)
            listed = ", ".join(json.dumps(c) for c in consts)
            return [
                _Problem(
                    path,
                    "oneOf",
                    _rule(error, "oneOf", None),
                    "BASE_TYPE_CHOICES",
                    f"Value must be one of ({listed}).",
                )
            ]
        fitting = [b for b in branches if not mismatched(b)]
        if fitting:
            best = min(fitting, key=len)
            return [p for e in best for p in _problems(e, instance, contract_)]
        if isinstance(here, dict) and "type" in here:
            location = str(getattr(error, "absolute_keyword_location", "") or "")
            try:
                values = _union_type_values(load_document(), contract_, location)
            except (KeyError, IndexError, ValueError):
                values = []
            listed = ", ".join(json.dumps(v) for v in values)
            return [
                _Problem(
                    (*path, "type"),
                    "oneOf",
                    _rule(error, "oneOf", None),
                    "UNION_TYPE_CHOICES",
                    f'Value of field "type" must be one of ({listed}).',
                )
            ]
        if branches:
            best = min(branches, key=len)
            return [p for e in best for p in _problems(e, instance, contract_)]
    if kind == "OneOfMultipleValid":
        return [
            _Problem(
                path,
                "oneOf",
                _rule(error, "oneOf", None),
                "BASE_TYPE_INVALID",
                "The value fits more than one of its kinds.",
            )
        ]
    details = error.kind.as_dict()
    keyword, code, message, limit = _discord_words(kind, details, _at(instance, path))
    if kind == "Required":
        path = (*path, details["property"])
        limit = None
    return [_Problem(path, keyword, _rule(error, keyword, limit), code, message)]


def violations_of(
    validator: jsonschema_rs.Validator,
    instance: Any,
    *,
    operation: str,
    request: str,
    where: str,
    prefix: JsonPath = (),
) -> list[Violation]:
    """Every rule the instance breaks (none, quickly, for a valid one)."""
    if validator.is_valid(instance):
        return []
    found: list[Violation] = []
    seen: set[tuple[JsonPath, str]] = set()
    contract_ = contract()
    for error in validator.iter_errors(instance):
        for problem in _problems(error, instance, contract_):
            key = (problem.path, problem.rule)
            if key in seen:
                continue
            seen.add(key)
            found.append(
                Violation(
                    operation=operation,
                    request=request,
                    where=where,
                    path=(*prefix, *problem.path),
                    rule=problem.rule,
                    code=problem.code,
                    message=problem.message,
                )
            )
    return found


# --------------------------------------------------------------------- requests and answers


def _coerce(value: str, schema: Mapping[str, Any]) -> Any:
    """A query or path string as the parameter's JSON type (as Discord reads it)."""
    types = schema.get("type")
    types = types if isinstance(types, list) else [types]
    if "integer" in types:
        try:
            return int(value)
        except ValueError:
            return value
    if "number" in types:
        try:
            return float(value)
        except ValueError:
            return value
    if "boolean" in types:
        lowered = value.lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0"):
            return False
    return value


def request_violations(
    method: str,
    path: str,
    query: Mapping[str, str],
    media_type: str | None,
    body: Any,
    files: Mapping[int, Any],
) -> tuple[str | None, list[Violation]]:
    """The operation a request is for and every rule of the spec it breaks.

    ``path`` is the API path (without ``/api/v10``); ``body`` the JSON body or a multipart
    body's ``payload_json`` (None without a body); ``files`` the uploaded ``files[n]`` by n.
    """
    contract_ = contract()
    request = f"{method} {path}"
    found = contract_.operation(method, path)
    if found is None:
        return None, [
            Violation(
                operation="(no operation)",
                request=request,
                where="route",
                path=(),
                rule="paths: no operation of Discord's API has this method and path",
                code="UNKNOWN_ROUTE",
                message="404: Not Found",
            )
        ]
    operation, params = found
    violations: list[Violation] = []

    def check(location: str, name: str, raw: str) -> None:
        validator = operation.parameter_validator(location, name)
        if validator is None:
            violations.append(
                Violation(
                    operation.id,
                    request,
                    location,
                    (name,),
                    f"parameters: {operation.id} has no {location} parameter {name!r}",
                    "UNKNOWN_PARAMETER",
                    f"Unknown {location} parameter {name!r}.",
                )
            )
            return
        value = _coerce(raw, operation.parameter_schema(location, name))
        violations.extend(
            violations_of(
                validator,
                value,
                operation=operation.id,
                request=request,
                where=location,
                prefix=(name,),
            )
        )

    for name, raw in params.items():
        check("path", name, raw)
    for name, raw in query.items():
        check("query", name, raw)

    if body is None and not files:
        if operation.body_required:
            violations.append(
                Violation(
                    operation.id,
                    request,
                    "body",
                    (),
                    f"requestBody: required by {operation.id}",
                    "BASE_TYPE_REQUIRED",
                    "This field is required",
                )
            )
        return operation.id, violations
    kind = media_type or "application/json"
    validator = operation.body_validator(kind)
    if validator is None:
        violations.append(
            Violation(
                operation.id,
                request,
                "body",
                (),
                f"requestBody: {operation.id} takes {', '.join(operation.body_types) or 'no body'}",
                "CONTENT_TYPE_INVALID",
                f"Content type {kind} is not accepted here.",
            )
        )
        return operation.id, violations
    violations.extend(
        violations_of(
            validator,
            body if body is not None else {},
            operation=operation.id,
            request=request,
            where="body",
        )
    )
    if kind == "multipart/form-data":
        violations.extend(_upload_violations(operation, request, body, files))
    return operation.id, violations


def _upload_violations(
    operation: Operation, request: str, body: Any, files: Mapping[int, Any]
) -> list[Violation]:
    """The uploaded files against the form's file parts and the ``attachments`` naming them."""
    violations: list[Violation] = []
    for index in sorted(files):
        if f"files[{index}]" not in operation.file_fields:
            violations.append(
                Violation(
                    operation.id,
                    request,
                    "body",
                    (f"files[{index}]",),
                    f"multipart/form-data: {operation.id} takes files[0] to "
                    f"files[{len(operation.file_fields) - 1}]",
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {len(operation.file_fields)} or fewer in length.",
                )
            )
    attachments = body.get("attachments") if isinstance(body, dict) else None
    for position, attachment in enumerate(attachments or []):
        if not isinstance(attachment, dict) or "filename" not in attachment:
            continue  # an attachment kept from before (by its snowflake), not a new file
        raw = attachment.get("id")
        if raw is None:
            continue
        try:
            index = int(raw)
        except (TypeError, ValueError):
            continue
        if index not in files:
            violations.append(
                Violation(
                    operation.id,
                    request,
                    "body",
                    ("attachments", position, "id"),
                    f"attachments[].id names the uploaded part files[{index}]",
                    "ATTACHMENT_NOT_FOUND",
                    f"files[{index}] was not uploaded with this request.",
                )
            )
    return violations


def response_violations(method: str, path: str, status: int, body: Any) -> list[Violation]:
    """Every rule of the spec the simulator's JSON answer breaks."""
    found = contract().operation(method, path)
    if found is None:
        return []
    operation = found[0]
    validator = operation.response_validator(status)
    if validator is None:
        return []
    return violations_of(
        validator,
        body,
        operation=operation.id,
        request=f"{method} {path}",
        where=f"response {status}",
    )


#: The parts of an INTERACTION_CREATE the spec has schemas for (its interactions arrive
#: over the gateway, which the spec does not describe): path -> schema.
INTERACTION_PARTS: tuple[tuple[JsonPath, str], ...] = (
    (("type",), "InteractionTypes"),
    (("locale",), "AvailableLocalesEnum"),
    (("guild_locale",), "AvailableLocalesEnum"),
    (("context",), "InteractionContextType"),
    (("user",), "UserResponse"),
    (("member",), "GuildMemberResponse"),
    (("message",), "MessageResponse"),
    (("data", "type"), "ApplicationCommandType"),
    (("data", "component_type"), "MessageComponentTypes"),
)


def interaction_violations(payload: Mapping[str, Any], describe: str) -> list[Violation]:
    """The rules of the spec an INTERACTION_CREATE payload breaks where the spec has them:
    its kind, locales and context; the user, member, channel and message; the command's
    kind and options' types; the component's type; the resolved users, members and roles."""
    contract_ = contract()
    violations: list[Violation] = []

    def check(path: JsonPath, value: Any, schema: str) -> None:
        violations.extend(
            violations_of(
                contract_.schema_validator(schema),
                value,
                operation="INTERACTION_CREATE",
                request=describe,
                where="interaction",
                prefix=path,
            )
        )

    for path, schema in INTERACTION_PARTS:
        value = _at(payload, path)
        if value is not None:
            check(path, value, schema)
    if isinstance(payload.get("channel"), dict):
        # the channel as GET /channels/{id} answers it (a server channel or a DM)
        get_channel = contract_.operation("GET", "/channels/1")
        assert get_channel is not None
        channel = get_channel[0].response_validator(200)
        assert channel is not None
        violations.extend(
            violations_of(
                channel,
                payload["channel"],
                operation="INTERACTION_CREATE",
                request=describe,
                where="interaction",
                prefix=("channel",),
            )
        )
    data = payload.get("data") or {}

    def options(items: Any, path: JsonPath) -> None:
        for index, option in enumerate(items or []):
            check((*path, index, "type"), option.get("type"), "ApplicationCommandOptionType")
            options(option.get("options"), (*path, index, "options"))

    options(data.get("options"), ("data", "options"))
    resolved = data.get("resolved") or {}
    for key, value in (resolved.get("users") or {}).items():
        check(("data", "resolved", "users", key), value, "UserResponse")
    for key, value in (resolved.get("roles") or {}).items():
        check(("data", "resolved", "roles", key), value, "GuildRoleResponse")
    for key, value in (resolved.get("members") or {}).items():
        # resolved members come without their user (it is in resolved.users)
        check(("data", "resolved", "members", key), value, "BasicGuildMemberResponse")
    return violations
