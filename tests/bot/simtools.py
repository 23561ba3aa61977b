"""SimCord tools shared by the bot's tests and the benchmark (``bench/bot.py``).

* :func:`rest_kind`: what each REST call of the bot was for, read from SimCord's log
  (``env.http_requests``), so that the REST tests and the benchmark count the same things
  under the same names;
* :class:`DiscordContract`: Discord's OpenAPI description of its HTTP API, which every
  request in SimCord's log must follow (checked after each bot test, see ``conftest.py``);
* :func:`no_answer`: REST calls that get no answer at all (a network fault), which
  SimCord's ``inject_error`` (HTTP error answers only) cannot make.

They live with the tests because they are about SimCord, which only the tests and the
benchmark use; the benchmark imports this module from the repository root.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

import simcord
from simcord.http import client as simcord_client

if TYPE_CHECKING:
    import pytest


class RestKind(StrEnum):
    """A kind of REST call, labelled as the benchmark prints it."""

    RESPONSE = "interaction responses"
    WEBHOOK_EDIT = "hand redraws (webhook edits)"
    """An ephemeral hand edited through its interaction token (or a deferred answer)."""
    FOLLOWUP = "followups (webhook posts)"
    EDIT = "table edits (and round summaries)"
    POST = "posts (new tables, standings, pings)"
    DELETE = "deletes (old pings)"
    OTHER = "other (login, command sync)"


class RestCall(Protocol):
    """What the classifier reads of one entry of SimCord's REST log."""

    @property
    def method(self) -> str: ...
    @property
    def path(self) -> str: ...


def rest_kind(method: str, path: str) -> RestKind:
    """The kind of the REST call ``method path`` (``path`` as SimCord logs it)."""
    if path.startswith("/interactions/"):
        return RestKind.RESPONSE
    if path.startswith("/webhooks/"):
        if method == "PATCH":
            return RestKind.WEBHOOK_EDIT
        if method == "POST":
            return RestKind.FOLLOWUP
    if path.startswith("/channels/"):
        if method == "PATCH":
            return RestKind.EDIT
        if method == "POST":
            return RestKind.POST
        if method == "DELETE":
            return RestKind.DELETE
    return RestKind.OTHER


def rest_kinds(calls: Iterable[RestCall]) -> Counter[RestKind]:
    """How many calls of each kind ``calls`` holds."""
    return Counter(rest_kind(c.method, c.path) for c in calls)


# --- no answer from Discord -------------------------------------------------------------------


def no_answer(
    monkeypatch: pytest.MonkeyPatch,
    method: str,
    path: str,
    *,
    error: type[BaseException] = TimeoutError,
    times: int | None = 1,
    delivered: bool = False,
) -> Callable[[], None]:
    """Make the bot's matching REST calls get no answer: ``error`` is raised where discord.py
    would raise what aiohttp raises for a timeout or a dropped connection (discord.py turns
    only HTTP answers into ``discord.HTTPException``). ``method`` and ``path`` match as in
    SimCord's ``inject_error`` (``"*"``, fnmatch on the API path); ``times=None`` for the
    rest of the test. ``delivered``: Discord carried the request out, and its answer was lost
    on the way back (so the bot cannot tell whether it counted). Returns what ends the
    fault."""
    left = [times]

    def hit(route: Any) -> bool:
        api_path = re.sub(r"^/api/v\d+", "", urlsplit(route.url).path)
        if left[0] == 0 or not fnmatch.fnmatchcase(api_path, path):
            return False
        if method not in ("*", route.method):
            return False
        if left[0] is not None:
            left[0] -= 1
        return True

    for fake in (simcord_client.FakeHTTPClient, simcord_client.FakeWebhookAdapter):
        real = fake.request

        async def request(
            self: Any, route: Any, *args: Any, _real: Any = real, **kwargs: Any
        ) -> Any:
            if not hit(route):
                return await _real(self, route, *args, **kwargs)
            if delivered:
                await _real(self, route, *args, **kwargs)
            raise error()

        monkeypatch.setattr(fake, "request", request)

    def end() -> None:
        left[0] = 0

    return end


# --- Discord's own contract ------------------------------------------------------------------

OPENAPI_PATH = Path("discord-api") / "openapi.json"
"""Discord's OpenAPI description, under the ``shared`` folder beside the repository."""
OPENAPI_ENV = "WIZARD_DISCORD_OPENAPI"
"""Names another copy of ``openapi.json`` (for a checkout laid out differently)."""
SPEC_URI = "urn:discord:openapi"


def find_openapi(root: Path) -> Path | None:
    """``openapi.json`` for the repository at ``root``: ``../shared/discord-api/`` (CI's
    layout, the repository cloned to ``X/main`` beside ``X/shared``), else the nearest
    ``shared`` folder further up (a git worktree nested deeper), else ``None``."""
    named = os.environ.get(OPENAPI_ENV)
    if named:
        return Path(named) if Path(named).is_file() else None
    for folder in root.resolve().parents:
        candidate = folder / "shared" / OPENAPI_PATH
        if candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True)
class Operation:
    """One method of one path template of the spec, with its compiled validators."""

    template: str
    method: str
    body: Any | None
    """The request body's validator (JSON), or ``None`` when the operation takes none."""
    body_required: bool
    query: dict[str, Any]
    """Validator of each query parameter, by name."""


class DiscordContract:
    """Discord's OpenAPI 3.1 description of its HTTP API, compiled once, checking requests.

    Each logged request is matched to a path template of the spec (the most literal match
    wins, so ``…/messages/@original`` is not taken for ``…/messages/{message_id}``); its
    JSON body is validated with Draft 2020-12 against the operation's request schema, with
    every ``$ref`` resolved in the spec, and each query parameter against its own schema.
    Validators are compiled on first use of an operation and kept.

    One known difference is forgiven, as the spec's README says: discord.py sends the ids
    of attachments inside ``payload_json`` as integers, which Discord accepts although the
    schema says string.
    """

    def __init__(self, spec: dict[str, Any]) -> None:
        from jsonschema import Draft202012Validator, validators
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        mark_quick_tests(spec, spec)
        self._validator_class = validators.extend(
            Draft202012Validator,
            {
                "oneOf": _one_of,
                "anyOf": _any_of,
                "$ref": _remembering_ref(Draft202012Validator.VALIDATORS["$ref"]),
            },
        )
        resource = Resource.from_contents(spec, default_specification=DRAFT202012)
        self._registry: Any = Registry().with_resource(SPEC_URI, resource).crawl()
        self._spec = spec
        self._templates: dict[str, list[tuple[list[str], str]]] = {}
        for template, item in spec["paths"].items():
            for method in item:
                if method in ("get", "put", "post", "patch", "delete"):
                    segments = template.strip("/").split("/")
                    self._templates.setdefault(method.upper(), []).append((segments, template))
        self._operations: dict[tuple[str, str], Operation] = {}

    @classmethod
    def load(cls, path: Path) -> DiscordContract:
        """The contract of the spec in ``path``."""
        return cls(json.loads(path.read_text(encoding="utf-8")))

    def match(self, method: str, path: str) -> str | None:
        """The spec's path template for ``method path``, or ``None`` when Discord has none."""
        segments = path.split("?", 1)[0].strip("/").split("/")
        best: tuple[int, str] | None = None
        for template, name in self._templates.get(method.upper(), ()):
            if len(template) != len(segments):
                continue
            literals = 0
            for part, segment in zip(template, segments, strict=True):
                if part.startswith("{") and part.endswith("}"):
                    if not segment:
                        break
                elif part == segment:
                    literals += 1
                else:
                    break
            else:
                if best is None or literals > best[0]:
                    best = (literals, name)
        return None if best is None else best[1]

    def _validator(self, pointer: str) -> Any:
        # A reference into the spec, so that the schema's own "#/components/…" references
        # resolve against the spec document.
        schema = {"$ref": f"{SPEC_URI}#{pointer}"}
        return self._validator_class(schema, registry=self._registry)

    def operation(self, method: str, template: str) -> Operation:
        """The compiled operation ``method template`` (compiled once, then kept)."""
        key = (method.upper(), template)
        known = self._operations.get(key)
        if known is not None:
            return known
        item = self._spec["paths"][template]
        spec_op = item[method.lower()]
        escaped = template.replace("~", "~0").replace("/", "~1")
        base = f"/paths/{escaped}/{method.lower()}"
        body = None
        required = False
        request_body = spec_op.get("requestBody")
        if request_body is not None:
            content = request_body.get("content", {})
            if "application/json" in content:
                body = self._validator(f"{base}/requestBody/content/application~1json/schema")
            required = bool(request_body.get("required"))
        query = {}
        for owner, parameters in (
            (f"/paths/{escaped}/parameters", item.get("parameters", [])),
            (f"{base}/parameters", spec_op.get("parameters", [])),
        ):
            for i, parameter in enumerate(parameters):
                if parameter.get("in") == "query":
                    query[parameter["name"]] = self._validator(f"{owner}/{i}/schema")
        built = Operation(template, method.upper(), body, required, query)
        self._operations[key] = built
        return built

    def problems(self, method: str, path: str, params: Any, body: Any) -> list[str]:
        """What in the request ``method path`` Discord's description does not allow."""
        template = self.match(method, path)
        if template is None:
            return [f"{method} {path}: no such route in Discord's API"]
        operation = self.operation(method, template)
        found = []
        if body is not None:
            if operation.body is None:
                found.append(f"{method} {template}: a body where Discord takes none")
            else:
                body = forgive_known_differences(body)
                for error in operation.body.iter_errors(body):
                    found.append(f"{method} {template}: {describe_error(error)}")
        elif operation.body_required:
            found.append(f"{method} {template}: no body where Discord needs one")
        for name, value in (params or {}).items():
            validator = operation.query.get(name)
            if validator is None:
                found.append(f"{method} {template}: unknown query parameter {name!r}")
            elif not any(validator.is_valid(v) for v in query_values(value)):
                found.append(f"{method} {template}: query parameter {name}={value!r} is invalid")
        return found

    def check(self, requests: Iterable[simcord.HttpLogEntry]) -> list[str]:
        """The problems of every request of a SimCord log, in order."""
        found = []
        for request in requests:
            found += self.problems(request.method, request.path, request.params, request.json)
        return found


QUICK_TESTS = "x-wizard-quick-tests"
"""Added to a schema with ``oneOf``/``anyOf``: a quick test of each branch."""


def _resolve(spec: dict[str, Any], schema: Any) -> Any:
    """``schema`` with its local ``$ref`` chain followed (within the spec document)."""
    seen = 0
    while isinstance(schema, dict) and str(schema.get("$ref", "")).startswith("#/") and seen < 20:
        node: Any = spec
        for part in schema["$ref"][2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        schema, seen = node, seen + 1
    return schema


PLAIN = frozenset({"title", "description"})
"""Keywords that say nothing about what a schema accepts."""


def _quick_test(branch: Any) -> tuple[str, Any] | None:
    """How to tell at a glance that a branch cannot accept an instance, if there is a way:
    ``("const", value)`` for a bare constant (Discord spells enums as ``oneOf`` of
    constants), ``("null", None)`` for ``{"type": "null"}``, ``("type", values)`` for an
    object whose ``type`` property is one of ``values`` (message components, interaction
    responses). Rejecting a branch by it gives the verdict the branch would give."""
    if not isinstance(branch, dict):
        return None
    if "const" in branch and set(branch) - PLAIN == {"const"}:
        return ("const", branch["const"])
    if branch.get("type") == "null" and set(branch) - PLAIN == {"type"}:
        return ("null", None)
    prop = branch.get("properties", {}).get("type")
    if branch.get("type") == "object" and isinstance(prop, dict):
        if "const" in prop:
            return ("type", [prop["const"]])
        if isinstance(prop.get("enum"), list):
            return ("type", list(prop["enum"]))
    return None


def _same(a: Any, b: Any) -> bool:
    """JSON equality, where ``true`` is not ``1``."""
    return bool(a == b and type(a) is type(b))


def _may_accept(test: tuple[str, Any] | None, instance: Any) -> bool:
    if test is None:
        return True
    kind, value = test
    if kind == "const":
        return isinstance(instance, (dict, list)) or _same(instance, value)
    if kind == "null":
        return instance is None
    if not isinstance(instance, dict):
        return False  # the branch is an object schema
    return "type" not in instance or any(_same(instance["type"], v) for v in value)


def mark_quick_tests(spec: dict[str, Any], node: Any) -> None:
    """Note, beside every ``oneOf``/``anyOf``, a quick test of each branch.

    Discord's unions (message components, interaction responses) are told apart by their
    ``type`` number, as OpenAPI's discriminators are, and its enums are unions of
    constants. Trying only the branches that pass their quick test gives the same verdict
    (the others would fail anyway) for a fraction of the work: a button is no longer tried
    as every kind of component, nor its style against every style in turn.
    """
    if isinstance(node, list):
        for item in node:
            mark_quick_tests(spec, item)
        return
    if not isinstance(node, dict):
        return
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if isinstance(branches, list):
            node.setdefault(QUICK_TESTS, {})[keyword] = [
                _quick_test(_resolve(spec, b)) for b in branches
            ]
    for key, value in list(node.items()):
        if key != QUICK_TESTS:
            mark_quick_tests(spec, value)


def _fitting(keyword: str, branches: list[Any], instance: Any, schema: Any) -> list[int]:
    """Indexes of the branches that are not rejected at a glance (see :func:`_quick_test`)."""
    tests = schema.get(QUICK_TESTS, {}).get(keyword) if isinstance(schema, dict) else None
    if not tests:
        return list(range(len(branches)))
    return [i for i, test in enumerate(tests) if _may_accept(test, instance)]


VALID_CACHE_LIMIT = 200_000


def _remembering_ref(resolve: Any) -> Any:
    """``$ref`` that remembers which instances a referenced schema accepted.

    The same buttons, rows, embeds and footers come back in request after request; each
    is validated once. Only acceptance is kept (an error's path is filled in by the
    schemas around it, so errors are found afresh each time; they are rare)."""
    accepted: set[tuple[str, str]] = set()

    def ref(validator: Any, target: str, instance: Any, schema: Any) -> Iterator[Any]:
        key = (target, json.dumps(instance, sort_keys=True, separators=(",", ":")))
        if key in accepted:
            return
        errors = list(resolve(validator, target, instance, schema))
        if not errors:
            if len(accepted) > VALID_CACHE_LIMIT:
                accepted.clear()
            accepted.add(key)
        yield from errors

    return ref


def _one_of(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Iterator[Any]:
    """``oneOf`` (Draft 2020-12), trying only the branches not rejected at a glance."""
    from jsonschema.exceptions import ValidationError

    errors: list[Any] = []
    valid = 0
    for i in _fitting("oneOf", branches, instance, schema):
        found = list(validator.descend(instance, branches[i], schema_path=i))
        if found:
            errors.extend(found)
            continue
        valid += 1
        if valid > 1:
            yield ValidationError(f"{instance!r} is valid under more than one of the schemas")
            return
    if not valid:
        yield ValidationError(
            f"{instance!r} is not valid under any of the given schemas", context=errors
        )


def _any_of(validator: Any, branches: list[Any], instance: Any, schema: Any) -> Iterator[Any]:
    """``anyOf`` (Draft 2020-12), trying only the branches not rejected at a glance."""
    from jsonschema.exceptions import ValidationError

    errors: list[Any] = []
    for i in _fitting("anyOf", branches, instance, schema):
        found = list(validator.descend(instance, branches[i], schema_path=i))
        if not found:
            return
        errors.extend(found)
    yield ValidationError(
        f"{instance!r} is not valid under any of the given schemas", context=errors
    )


def forgive_known_differences(body: Any) -> Any:
    """``body`` with attachment ids as strings: discord.py writes them as integers inside
    ``payload_json``, which Discord accepts (the spec's README names this difference)."""
    if not isinstance(body, dict) or not isinstance(body.get("attachments"), list):
        return body
    attachments = [
        {**a, "id": str(a["id"])} if isinstance(a, dict) and isinstance(a.get("id"), int) else a
        for a in body["attachments"]
    ]
    return {**body, "attachments": attachments}


BOOLEAN_QUERY = {"true": True, "1": True, "false": False, "0": False}
"""Discord reads a boolean query string as ``True``/``true``/``1`` or ``False``/``false``/``0``
(its reference, "Boolean Query Strings"); the spec types such parameters as boolean."""


def query_values(value: Any) -> list[Any]:
    """What a query parameter's value may be read as: the text of the URL, the JSON value
    that text spells (``5``), or the boolean Discord reads in it."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    values: list[Any] = [text]
    with contextlib.suppress(ValueError):
        values.append(json.loads(text))
    if text.lower() in BOOLEAN_QUERY:
        values.append(BOOLEAN_QUERY[text.lower()])
    return values


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _where(error: Any) -> str:
    return "body" + "".join(
        f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path
    )


def _said(error: Any) -> str:
    """jsonschema's message with the instance shortened, and the rule it broke."""
    message = str(error.message).replace(repr(error.instance), _short(error.instance))
    rule = f"{error.validator} {_short(error.validator_value, 40)}"
    return f"{message} ({rule})"


def describe_error(error: Any) -> str:
    """One line for a validation error: where in the body, what is wrong, which rule."""
    if error.context:
        # For oneOf/anyOf, the deepest reason of the closest branch says the most.
        from jsonschema.exceptions import best_match

        deepest = best_match(error.context)
        return f"{_where(deepest)}: {_said(deepest)}"
    return f"{_where(error)}: {_said(error)}"
