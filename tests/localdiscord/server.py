"""The local Discord server: one aiohttp app on 127.0.0.1 that is both the REST API and the gateway.

Around every REST handler it does what Discord does before and after: route by the spec's path templates,
authenticate the bot token, check path/query parameters and the request body against the OpenAPI spec
(a bad body is answered 400 code 50035 *and* recorded), apply rate limits (429 + ``retry_after``), and check
the JSON it answers against the spec's response schema.  Everything a test should fail on is recorded in
:attr:`LocalDiscord.problems`; the pytest fixture raises them at teardown.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import errors, multipart
from .gateway import GatewayHub
from .ratelimit import RateLimiter
from .rest import Call, Rest, upload_from_part
from .spec import Spec, Tolerated, describe_errors, discord_form_errors, load_spec
from .state import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, MODAL_SUBMIT, Clock, Interaction
from .world import World

log = logging.getLogger("localdiscord")
API_PREFIX = "/api/v10"
JSON_HEADERS = {"Content-Type": "application/json", "Via": "1.1 google"}


@dataclass
class Problem:
    kind: str
    detail: str
    at: float = field(default_factory=time.monotonic)

    def __str__(self) -> str:
        return f"[{self.kind}] {self.detail}"


@dataclass(frozen=True)
class HeldRequest:
    """What a :class:`Hold`'s predicate sees of a request."""

    method: str
    template: str
    params: dict[str, str]
    body: Any


@dataclass
class Hold:
    """One request the local Discord holds (see :meth:`LocalDiscord.hold`): ``await hold.wait()`` until it
    arrived, then ``hold.release()``. ``after``: the request is applied first and only its answer is held (the
    bot's state after the call: it happened on Discord, the bot does not know it yet)."""

    predicate: Callable[[HeldRequest], bool]
    after: bool
    request: HeldRequest | None = None
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait(self, timeout: float = 5.0) -> HeldRequest:  # noqa: ASYNC109
        await asyncio.wait_for(self.reached.wait(), timeout)
        assert self.request is not None
        return self.request

    def release(self) -> None:
        self.released.set()

    async def _hold(self) -> None:
        self.reached.set()
        await self.released.wait()


@dataclass
class RequestRecord:
    method: str
    path: str
    template: str | None
    status: int
    body: Any
    duration: float


class LocalDiscord:
    """The fake Discord: world state + REST + gateway, served on 127.0.0.1 (a free port)."""

    def __init__(self, *, clock: Clock | None = None, spec: Spec | None = None, validate_responses: bool = True,
                 privileged_intents: dict[str, bool] | None = None, record_requests: bool = True,
                 shard_count: int = 1) -> None:
        self.clock = clock or Clock()
        self.world = World(self.clock)
        self.spec = spec or load_spec()
        self.validate_responses = validate_responses
        self.rate_limits = RateLimiter()
        self.hub = GatewayHub(self)
        self.rest = Rest(self)
        self.privileged_intents = dict(privileged_intents or {})
        #: the shards ``GET /gateway/bot`` recommends
        self.shard_count = shard_count
        self.application_flags = 0
        self.interaction_timeout = 3.0
        self.token_lifetime = 15 * 60.0
        #: followups one interaction may send where the application is not a member (Discord: 5)
        self.max_followups_outside = 5
        self.problems: list[Problem] = []
        self.tolerated: list[Tolerated] = []
        self.unknown_routes: list[str] = []
        self.requests: list[RequestRecord] = []
        self.record_requests = record_requests
        self.interactions_by_token: dict[str, Interaction] = {}
        #: how long Discord remembers a message's nonce (``enforce_nonce``: the same nonce again returns that
        #: message); Discord says "a few minutes"
        self.nonce_window = 120.0
        self.holds: list[Hold] = []
        self.port = 0
        self._runner: web.AppRunner | None = None

    # ---------------------------------------------------------------------------------------- lifecycle
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self) -> LocalDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle_rest)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._handle_attachment)
        app.router.add_get("/", self.hub.handle)
        app.router.add_route("*", "/{tail:.*}", self._handle_other)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        site = web.SockSite(self._runner, sock)
        await site.start()
        self.world.base_url = self.base_url
        return self

    async def stop(self) -> None:
        await self.hub.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def hold(self, predicate: Callable[[HeldRequest], bool], *, after: bool = False) -> Hold:
        """Hold the next request ``predicate`` matches (once): before it is applied, or with ``after`` once it is
        applied and before it is answered -- e.g. to kill the bot between a message being created and the bot
        hearing its id."""
        hold = Hold(predicate, after)
        self.holds.append(hold)
        return hold

    def _take_hold(self, request: HeldRequest) -> Hold | None:
        for hold in self.holds:
            if hold.predicate(request):
                self.holds.remove(hold)
                hold.request = request
                return hold
        return None

    # ------------------------------------------------------------------------------------------ problems
    def problem(self, kind: str, detail: str) -> None:
        self.problems.append(Problem(kind, detail))
        log.info("local discord problem [%s] %s", kind, detail)
        self.world.changed()

    def take_problems(self, kind: str | None = None) -> list[Problem]:
        """Remove and return the recorded problems (of one kind): a test that *expects* them consumes them."""
        taken = [p for p in self.problems if kind is None or p.kind == kind]
        self.problems = [p for p in self.problems if p not in taken]
        return taken

    # ---------------------------------------------------------------------------------------- responses
    @staticmethod
    def _json(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
        return web.Response(status=status, body=json.dumps(body, separators=(",", ":")).encode(),
                            headers={**JSON_HEADERS, **(headers or {})})

    async def _handle_other(self, request: web.Request) -> web.Response:
        self.unknown_routes.append(f"{request.method} {request.path}")
        self.problem("unknown_route", f"{request.method} {request.path} (outside {API_PREFIX})")
        return self._json(404, {"message": "404: Not Found", "code": 0})

    async def _handle_attachment(self, request: web.Request) -> web.Response:
        attachment = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(status=200, body=attachment.data,
                            headers={"Content-Type": attachment.content_type or "application/octet-stream"})

    async def _handle_rest(self, request: web.Request) -> web.Response:
        started = time.perf_counter()
        method = request.method
        raw_path = request.rel_url.raw_path[len(API_PREFIX):]
        status = 500
        template = None
        body: Any = None
        try:
            response, template, body = await self._serve(request, method, raw_path)
            status = response.status
            return response
        except Exception as exc:  # a bug in the fake itself: fail the test
            log.exception("local discord crashed on %s %s", method, raw_path)
            self.problem("server_error", f"{method} {raw_path}: {type(exc).__name__}: {exc}")
            # 400, not 500: discord.py retries 5xx for ~25 s, which would only slow the failing test down
            status = 400
            return self._json(400, {"message": f"local Discord crashed: {type(exc).__name__}: {exc}", "code": 0})
        finally:
            if self.record_requests:
                self.requests.append(RequestRecord(method, raw_path, template, status, body,
                                                   time.perf_counter() - started))

    async def _serve(self, request: web.Request, method: str, path: str) -> tuple[web.Response, str | None, Any]:
        op, params, known = self.spec.match(method, path)
        if op is None:
            what = "method not allowed on a known route" if known else "not a Discord route"
            self.unknown_routes.append(f"{method} {path}")
            self.problem("unknown_route", f"{method} {API_PREFIX}{path} ({what})")
            if known:
                return self._json(405, {"message": "405: Method Not Allowed", "code": 0}), None, None
            return self._json(404, {"message": "404: Not Found", "code": 0}), None, None
        handler = self.rest.handlers.get((method, op.template))
        if handler is None:
            self.unknown_routes.append(f"{method} {op.template}")
            self.problem("unknown_route", f"{method} {op.template} is a Discord route the local Discord does not "
                                          "implement (add it to tests/localdiscord/rest.py)")
            return self._json(404, {"message": "404: Not Found", "code": 0}), op.template, None

        # authentication: bot token unless the operation allows anonymous (interaction/webhook tokens)
        anonymous = any(not s for s in op.raw.get("security", [{"BotToken": []}]))
        if not anonymous and request.headers.get("Authorization") != f"Bot {self.world.token}":
            return self._error(op, errors.unauthorized()), op.template, None

        # path and query parameters
        for name, value in params.items():
            spec_param = op.path_params.get(name)
            message = self.spec.check_parameter(spec_param, value) if spec_param else None
            if message:
                return self._bad_request(op, {name: {"_errors": [errors.inner_error("NUMBER_TYPE_COERCE", message)]}},
                                         f"path parameter {name}={value!r}: {message}"), op.template, None
        for name, value in request.query.items():
            spec_param = op.query_params.get(name)
            message = self.spec.check_parameter(spec_param, value) if spec_param else None
            if message:
                return self._bad_request(op, {name: {"_errors": [errors.inner_error("BASE_TYPE_INVALID", message)]}},
                                         f"query parameter {name}={value!r}: {message}"), op.template, None

        # body
        body, uploads, content_type, failure = await self._read_body(request, op)
        if failure is not None:
            return failure, op.template, body
        if content_type is not None:
            problems, tolerated = op.validate_request(content_type, body)
            if tolerated is not None:
                self.tolerated.append(tolerated)
            if problems:
                return self._bad_request(op, discord_form_errors(problems),
                                         f"request body: {describe_errors(problems)}; body: {_excerpt(body)}"), \
                    op.template, body
        elif op.body_required() and method not in ("GET", "DELETE"):
            required = {"_errors": [errors.inner_error("BASE_TYPE_REQUIRED", "This field is required")]}
            return self._bad_request(op, required, "request body missing"), op.template, None

        # rate limits
        decision = self.rate_limits.check(method, op.template, params)
        if not decision.allowed:
            payload = {"message": "You are being rate limited.", "retry_after": decision.retry_after,
                       "global": False, "code": 0}
            self._check_response(op, 429, payload)
            return self._json(429, payload, decision.headers), op.template, body

        call = Call(method=method, template=op.template, params=params, query=request.query, body=body,
                    uploads=uploads)
        held = self._take_hold(HeldRequest(method, op.template, params, body)) if self.holds else None
        if held is not None and not held.after:
            await held._hold()
        try:
            status, result = await handler(call)
        except errors.ApiError as error:
            response = self._error(op, error)
            response.headers.update(decision.headers)
            return response, op.template, body
        if held is not None and held.after:
            await held._hold()
        if status == 204:
            return web.Response(status=204, headers={**decision.headers, "Via": "1.1 google"}), op.template, body
        self._check_response(op, status, result)
        return self._json(status, result, decision.headers), op.template, body

    async def _read_body(self, request: web.Request, op) -> tuple[Any, list, str | None, web.Response | None]:
        if not request.body_exists:
            return None, [], None, None
        # not request.content_type: aiohttp parses it with the email package (~0.25 ms) and caches only 56 values,
        # and every multipart body has a boundary of its own
        content_type = request.headers.get("Content-Type", "").partition(";")[0].strip().lower() or \
            "application/octet-stream"
        if content_type == "multipart/form-data":
            parts = multipart.parse(await request.read(), request.headers.get("Content-Type", ""))
            if parts is None:
                return None, [], None, self._error(op, errors.ApiError(400, 50035, "Invalid Form Body", {
                    "_errors": [errors.inner_error("CONTENT_TYPE_INVALID", "Malformed multipart body")]}))
            body = None
            uploads = []
            for part in parts:
                name = part.name
                if name == "payload_json":
                    try:
                        body = json.loads(part.text())
                    except ValueError:
                        return None, [], None, self._error(op, errors.ApiError(400, 50109, "The request body "
                                                                                           "contains invalid JSON."))
                elif name.startswith("files[") and name.endswith("]"):
                    uploads.append(upload_from_part(int(name[6:-1]), part.filename or "file", part.content_type,
                                                    part.data))
                else:
                    body = body or {}
                    body[name] = part.text()
            return body if body is not None else {}, uploads, "multipart/form-data", None
        raw = await request.read()
        if not raw:
            return None, [], None, None
        if content_type != "application/json":
            return None, [], None, self._error(op, errors.ApiError(400, 50035, "Invalid Form Body", {
                "_errors": [errors.inner_error("CONTENT_TYPE_INVALID",
                                               f"Expected application/json, got {content_type}")]}))
        try:
            return json.loads(raw), [], "application/json", None
        except ValueError:
            return None, [], None, self._error(op, errors.ApiError(400, 50109, "The request body contains invalid "
                                                                               "JSON."))

    def _bad_request(self, op, form_errors: dict, detail: str) -> web.Response:
        self.problem("spec_request", f"{op.name} breaks Discord's OpenAPI spec: {detail}")
        return self._error(op, errors.invalid_form_body(form_errors))

    def _error(self, op, error: errors.ApiError) -> web.Response:
        body = error.body()
        if op is not None:
            self._check_response(op, error.status, body)
        return self._json(error.status, body)

    def _check_response(self, op, status: int, body: Any) -> None:
        if not self.validate_responses:
            return
        if not op.documents_status(status):
            if status >= 500:
                return
            self.problem("spec_response", f"{op.name} answered {status}, a status the spec does not list")
            return
        failures = op.validate_response(status, body)
        if failures:
            self.problem("spec_response", f"{op.name} {status} response breaks the spec (a local Discord bug): "
                                          f"{describe_errors(failures)}")

    # ------------------------------------------------------------------------------- interaction helpers
    def interaction_metadata(self, ix: Interaction) -> dict:
        data: dict[str, Any] = {
            "id": str(ix.id),
            "type": ix.type,
            "user": ix.user.payload(),
            "authorizing_integration_owners": self.integration_owners(ix),
        }
        if ix.type == MESSAGE_COMPONENT and ix.source is not None:
            data["interacted_message_id"] = str(ix.source.id)
        if ix.type == MODAL_SUBMIT:
            parent = ix.triggered_by
            data["triggering_interaction_metadata"] = self.interaction_metadata(parent) if parent else {
                "id": str(ix.id), "type": APPLICATION_COMMAND, "user": ix.user.payload(),
                "authorizing_integration_owners": self.integration_owners(ix)}
        if ix.original is not None:
            data["original_response_message_id"] = str(ix.original.id)
        return data

    def integration_owners(self, ix: Interaction) -> dict[str, str]:
        if ix.owners:
            return ix.owners
        if ix.guild is not None:
            return {"0": str(ix.guild.id)}
        return {"0": "0"}

    def register_interaction(self, ix: Interaction) -> None:
        self.world.interactions[ix.id] = ix
        self.interactions_by_token[ix.token] = ix
        loop = asyncio.get_running_loop()
        loop.call_later(self.interaction_timeout + 0.05, self._check_answered, ix)

    def _check_answered(self, ix: Interaction) -> None:
        if ix.responded or ix.late or ix.type == AUTOCOMPLETE:
            return
        if self.clock.time() - ix.created_at > self.interaction_timeout:
            ix.late = True
            self.problem("unanswered_interaction",
                         f"{ix.describe()} got no response within {self.interaction_timeout:g} s "
                         "(Discord shows 'This interaction failed')")

    def sweep_unanswered(self) -> None:
        """Record every interaction whose 3 s passed (by the clock) without a response."""
        for ix in list(self.world.interactions.values()):
            self._check_answered(ix)


def _excerpt(body: Any, limit: int = 400) -> str:
    try:
        text = json.dumps(body)
    except TypeError:
        text = repr(body)
    return text if len(text) <= limit else text[:limit] + "..."
