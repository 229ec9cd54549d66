"""The aiohttp application: Discord's REST API (v10) for what a bot calls, plus the gateway.

Responses follow the shapes discord.py parses, errors carry Discord's JSON error codes
(10003 Unknown Channel, 10062 Unknown interaction, 40060 already acknowledged, 50007 DMs
closed, 50035 Invalid Form Body…), and the limits a bot can trip over are enforced (2000
characters, 10 embeds, 5 rows of 5 buttons, 25 autocomplete choices, the upload size, the
3 s window for the first response). Anything the simulator does not implement answers 404
and is listed in ``state.unhandled_requests`` so a test can see it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .activities import OAuthError
from .command_schema import command_problem
from .forms import UploadedFile, media_type, parse_any_json, parse_form
from .gateway import Gateway
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    LAUNCH_ACTIVITY,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    SimInteraction,
    SimModal,
)
from .layout_rules import layout_problems
from .models import (
    ACTION_ROW,
    COMPONENTS_V2_FLAG,
    EPHEMERAL_FLAG,
    SELECT_TYPES,
    SimAttachment,
    SimChannel,
    SimMessage,
    complete_components,
    count_components,
    walk_component_paths,
)
from .ratelimits import injected_limit_headers
from .responses import JSON_KEY, error_response, form_error, json_response, too_long
from .spec import (
    Violation,
    errors_tree,
    request_violations,
    response_violations,
)
from .state import RequestRecord, SimHTTPError, SimState
from .thread_routes import ThreadRoutes

API_PREFIX = "/api/v10"
OAUTH_TOKEN = "/oauth2/token"
#: The routes a user's Bearer token may call (with the scope each needs; see ``get_me``).
BEARER_ROUTES = {("GET", "/users/@me")}
LOADING_FLAG = 1 << 7
#: Message types: a reply, and the response to a slash command.
REPLY_TYPE = 19
# How long Discord holds a nonce sent with enforce_nonce ("the past few minutes").
NONCE_SECONDS = 300.0
CHAT_INPUT_COMMAND_TYPE = 20

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: What the middleware keeps on a request: its operation's id in the spec, its parsed body.
OPERATION_KEY = web.RequestKey("sim_operation", object)
BODY_KEY = web.RequestKey("sim_body", object)


def _filenames(
    payload: dict[str, Any], files: dict[int, UploadedFile], message: SimMessage | None
) -> list[str]:
    """The names of the files a message has once this request is done: those uploaded
    with it (named as its ``attachments`` say), and an edited message's files it keeps
    (all of them when the edit names no ``attachments``)."""
    meta = payload.get("attachments")
    described = {
        int(m["id"]): m["filename"]
        for m in meta or []
        if isinstance(m, dict) and "filename" in m and str(m.get("id", "")).isdigit()
    }
    names = [described.get(index, name) for index, (name, _, _) in sorted(files.items())]
    if message is not None:
        if meta is None:
            names += [a.filename for a in message.attachments]
        else:
            kept = {
                int(m["id"])
                for m in meta
                if isinstance(m, dict) and "filename" not in m and str(m.get("id", "")).isdigit()
            }
            names += [a.filename for a in message.attachments if a.id in kept]
    return names


class SimServer:
    """Routes REST calls and the gateway onto a ``SimState``."""

    def __init__(
        self,
        state: SimState,
        *,
        response_deadline: float,
        token_lifetime: float,
        validate_responses: bool = True,
    ) -> None:
        self.state = state
        #: Whether the simulator's own answers are checked against the spec's response
        #: schemas (requests are always checked).
        self.validate_responses = validate_responses
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.gateway = Gateway(state)
        self.threads = ThreadRoutes(self.state, self._read_body)
        self.app = web.Application(
            middlewares=[self._middleware],
            client_max_size=state.attachment_size_limit * 3 + 1024 * 1024,
        )
        self._add_routes()

    # ----------------------------------------------------------------- plumbing

    def _add_routes(self) -> None:
        r = self.app.router
        p = API_PREFIX
        r.add_get("/gateway", self.gateway.handle)
        r.add_get("/attachments/{attachment_id}/{filename}", self.get_attachment)
        # not in the published spec (a form-encoded OAuth2 endpoint): held to Discord's docs
        r.add_post(API_PREFIX + OAUTH_TOKEN, self.oauth_token)
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway),
            ("GET", "/users/@me", self.get_me),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            (
                "GET",
                "/applications/{application_id}/activity-instances/{instance_id}",
                self.get_activity_instance,
            ),
            ("GET", "/users/{user_id}", self.get_user),
            ("POST", "/users/@me/channels", self.create_dm),
            ("PUT", "/applications/{application_id}/commands", self.put_commands),
            ("GET", "/applications/{application_id}/commands", self.get_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self.get_commands),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_guild_roles),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            (
                "GET",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self.get_webhook_message,
            ),
            ("POST", "/webhooks/{application_id}/{token}", self.create_followup),
            (
                "PATCH",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self.edit_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{application_id}/{token}/messages/{message_id}",
                self.delete_webhook_message,
            ),
        ]
        routes += self.threads.routes()
        for method, path, handler in routes:
            r.add_route(method, p + path, handler)
        self.routes = [(method, path) for method, path, _ in routes]
        r.add_route("*", "/{tail:.*}", self.unhandled)

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway" or request.path.startswith("/attachments/"):
            return await handler(request)
        if request.path == API_PREFIX + OAUTH_TOKEN:
            response = await handler(request)
            self.state.requests.append(
                RequestRecord(
                    request.method, OAUTH_TOKEN, OAUTH_TOKEN, response.status, time.monotonic()
                )
            )
            return response
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        template = canonical.removeprefix(API_PREFIX)
        path = request.path.removeprefix(API_PREFIX)
        response = await self._answer(request, handler, template, path)
        if self.validate_responses and JSON_KEY in response:
            self.state.spec_violations.extend(
                response_violations(request.method, path, response.status, response[JSON_KEY])
            )
        category = self.state.categorise(
            request.method, template, request.match_info.get("channel_id")
        )
        record = RequestRecord(
            request.method, template, path, response.status, time.monotonic(), category
        )
        self.state.requests.append(record)
        if handler == self.unhandled:
            self.state.unhandled_requests.append(record)
        return response

    async def _answer(
        self, request: web.Request, handler: Handler, template: str, path: str
    ) -> web.StreamResponse:
        needs_auth = not template.startswith(("/interactions/", "/webhooks/"))
        authorization = request.headers.get("Authorization")
        # A user's Bearer token (an Activity's sign-in) opens only what its scopes grant:
        # here, reading that user with ``identify``.
        as_user = (request.method, template) in BEARER_ROUTES and (
            self.state.activities.bearer(authorization) is not None
        )
        if needs_auth and not as_user and authorization != f"Bot {self.state.token}":
            return error_response(401, 0, "401: Unauthorized")
        try:
            refusal = await self._check_contract(request, path)
        except SimHTTPError as error:
            return self._error_response(request, error)
        if refusal is not None:
            return refusal
        fault = self.state.take_fault(request.method, template, path)
        if fault is not None and fault.status:
            response: web.StreamResponse = json_response(fault.body, fault.status)
            if fault.status == 429:
                response.headers.update(injected_limit_headers(request.method, template, fault))
            response.headers.update(fault.headers)
            return response
        verdict = self.state.rate_limiter.check(request.method, template, dict(request.match_info))
        if not verdict.allowed:
            response = json_response(verdict.body(), 429)
            response.headers.update(verdict.headers)
            return response
        try:
            response = await handler(request)
        except SimHTTPError as error:
            response = self._error_response(request, error)
        response.headers.update(verdict.headers)
        if fault is not None and fault.answer_after:
            # done, but the answer is slow to come back (the client may give up waiting)
            await asyncio.sleep(fault.answer_after)
        return response

    async def _check_contract(self, request: web.Request, path: str) -> web.Response | None:
        """Refuse a request Discord's published contract would refuse (and record why)."""
        kind, body, files = await self._body(request)
        operation, violations = request_violations(
            request.method, path, request.query, kind, body, files
        )
        request[OPERATION_KEY] = operation
        if not violations:
            return None
        self.state.spec_violations.extend(violations)
        if operation is None:
            return error_response(404, 0, "404: Not Found")
        return error_response(400, 50035, "Invalid Form Body", errors_tree(violations))

    def _error_response(self, request: web.Request, error: SimHTTPError) -> web.Response:
        if not error.problems:
            return error_response(error.status, error.code, error.message)
        # A limit of Discord's the simulator checks itself (where the spec is looser, or
        # says nothing): a broken rule like the spec's, which fails the test too.
        violations = [
            Violation(
                operation=request.get(OPERATION_KEY) or "(no operation)",
                request=f"{request.method} {request.path.removeprefix(API_PREFIX)}",
                where="simulator",
                path=path,
                rule=rule,
                code=code,
                message=message,
            )
            for path, code, message, rule in error.problems
        ]
        self.state.spec_violations.extend(violations)
        return error_response(error.status, error.code, error.message, errors_tree(violations))

    async def unhandled(self, request: web.Request) -> web.Response:
        return error_response(404, 0, "404: Not Found")

    async def _body(self, request: web.Request) -> tuple[str | None, Any, dict[int, UploadedFile]]:
        """The request's media type, its JSON (a multipart body's ``payload_json``) and the
        uploaded files by index (``files[n]``); read once and kept on the request."""
        cached: tuple[str | None, Any, dict[int, UploadedFile]] | None = request.get(BODY_KEY)
        if cached is not None:
            return cached
        if not request.can_read_body:
            cached = (None, None, {})
        else:
            content_type = request.headers.get("Content-Type", "")
            kind = media_type(content_type) or "application/json"
            raw = await request.read()
            if not raw:
                cached = (None, None, {})
            elif kind.startswith("multipart/"):
                payload, files = parse_form(content_type, raw)
                cached = (kind, payload, files)
            else:
                cached = (kind, parse_any_json(raw), {})
        request[BODY_KEY] = cached
        return cached

    async def _read_body(
        self, request: web.Request
    ) -> tuple[dict[str, Any], dict[int, UploadedFile]]:
        """The JSON payload (an object) and the uploaded files by index (``files[n]``)."""
        _, payload, files = await self._body(request)
        if payload is None:
            return {}, files
        if not isinstance(payload, dict):
            raise SimHTTPError(400, 50109, "The request body contains invalid JSON.")
        return payload, files

    def _attachments(
        self, meta: list[dict[str, Any]] | None, files: dict[int, UploadedFile]
    ) -> list[SimAttachment]:
        described = {int(m["id"]): m for m in meta or [] if "filename" in m}
        attachments = []
        for index in sorted(files):
            filename, data, content_type = files[index]
            info = described.get(index, {})
            name = info.get("filename", filename)
            attachments.append(
                SimAttachment(
                    id=self.state.snowflakes.next(),
                    filename=name,
                    data=data,
                    content_type=content_type
                    if content_type != "application/octet-stream"
                    else _guess_type(name),
                    description=info.get("description"),
                    spoiler=name.startswith("SPOILER_"),
                )
            )
        self.state.check_attachments(attachments)
        return attachments

    def _validate(
        self,
        payload: dict[str, Any],
        *,
        creating: bool,
        has_files: bool,
        kept_flags: int = 0,
        files: dict[int, UploadedFile] | None = None,
        editing: SimMessage | None = None,
    ) -> None:
        """Discord's documented limits where the spec is looser or silent (the spec allows
        4000 characters and 40 top-level components; Discord takes 2000 characters from a
        bot, and 5 action rows of 5 buttons or one select without Components v2's flag).
        Components v2's rules first (:mod:`.layout_rules`): what may hold what, how much,
        and that the pictures named are the message's files (``files`` uploaded with it,
        those of the message ``editing`` it keeps)."""
        for where, code, why in layout_problems(
            payload,
            was_v2=bool(kept_flags & COMPONENTS_V2_FLAG),
            filenames=_filenames(payload, files or {}, editing),
        ):
            raise form_error(where, why, code, f"Components v2: {why}")
        content = payload.get("content")
        if content is not None and len(str(content)) > 2000:
            raise too_long("content", 2000, "characters of content")
        embeds = payload.get("embeds") or []
        if len(embeds) > 10:
            raise too_long("embeds", 10, "embeds")
        for number, embed in enumerate(embeds):
            if len(str(embed.get("description") or "")) > 4096:
                raise too_long(("embeds", number, "description"), 4096, "characters")
            if len(str(embed.get("title") or "")) > 256:
                raise too_long(("embeds", number, "title"), 256, "characters")
            if len(embed.get("fields") or []) > 25:
                raise too_long(("embeds", number, "fields"), 25, "fields")
        components = payload.get("components") or []
        # an edit cannot take IS_COMPONENTS_V2 away from a message once it has it
        flags = int(payload.get("flags") or 0) | (kept_flags & COMPONENTS_V2_FLAG)
        if flags & COMPONENTS_V2_FLAG:
            # Components v2: the components are the message (Discord's docs: no content, no
            # embeds; up to 40 components in all, those inside rows, sections and
            # containers counted too)
            for legacy in ("content", "embeds", "poll", "stickers"):
                if payload.get(legacy):
                    raise form_error(
                        legacy,
                        f"The '{legacy}' field cannot be used when using "
                        "MessageFlags.IS_COMPONENTS_V2",
                        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                        "no content, embeds, poll or stickers with IS_COMPONENTS_V2",
                    )
            if count_components(components) > 40:
                raise too_long("components", 40, "components in all, nested ones counted")
        else:
            if len(components) > 5:
                raise too_long("components", 5, "action rows")
            for number, row in enumerate(components):
                if row.get("type") != ACTION_ROW:
                    raise form_error(
                        ("components", number, "type"),
                        "Value must be one of (1).",
                        "BASE_TYPE_CHOICES",
                        "top-level components are action rows without the IS_COMPONENTS_V2 flag",
                    )
                children = row.get("components") or []
                selects = [c for c in children if c.get("type") in SELECT_TYPES]
                if selects and len(children) > 1:
                    raise form_error(
                        ("components", number, "components"),
                        "A row holds up to 5 buttons or a single select.",
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "an action row holds up to 5 buttons or a single select",
                    )
        seen: set[str] = set()
        for where, component in walk_component_paths(components, ("components",)):
            custom_id = component.get("custom_id")
            if custom_id is not None:
                if custom_id in seen:
                    raise form_error(
                        (*where, "custom_id"),
                        f"Component custom id {custom_id!r} is duplicated.",
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "custom ids are unique within a message",
                    )
                seen.add(custom_id)
        if creating and not (content or embeds or components or has_files or payload.get("poll")):
            raise SimHTTPError(400, 50006, "Cannot send an empty message")

    def _new_message(
        self,
        channel: SimChannel,
        payload: dict[str, Any],
        attachments: list[SimAttachment],
        **extra: Any,
    ) -> SimMessage:
        return SimMessage(
            id=self.state.snowflakes.next(),
            channel=channel,
            author=self.state.bot_user,
            content=payload.get("content"),
            embeds=list(payload.get("embeds") or []),
            components=complete_components(
                list(payload.get("components") or []), attachments, self.state.base_url
            ),
            attachments=attachments,
            flags=int(payload.get("flags") or 0),
            allowed_mentions=payload.get("allowed_mentions"),
            tts=bool(payload.get("tts", False)),
            **extra,
        )

    def _message_json(self, message: SimMessage) -> web.Response:
        return json_response(message.to_payload(self.state.base_url, copy_parts=False))

    # ----------------------------------------------------------------- login and gateway

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway.url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.Response:
        grant = self.state.activities.bearer(request.headers.get("Authorization"))
        if grant is not None:
            if "identify" not in grant.scopes:
                return error_response(401, 0, "401: Unauthorized")
            person = self.state.users[grant.user_id]
            return json_response(
                person.to_payload()
                | {"verified": True, "mfa_enabled": False, "locale": person.locale}
            )
        user = self.state.bot_user.to_payload() | {
            "verified": True,
            "mfa_enabled": False,
            "locale": "en-US",
        }
        return json_response(user)

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self.state.application_id),
                "name": self.state.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.state.application_owner.to_payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                # the rest of what the spec's PrivateApplicationResponse requires
                "type": None,
                "flags_new": "0",
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "approximate_guild_count": len(self.state.guilds),
                "approximate_user_install_count": 0,
                "approximate_user_authorization_count": 0,
                "explicit_content_filter": 0,
                "eligible_oauth2_scopes": ["bot", "applications.commands"],
            }
        )

    # ----------------------------------------------------------------- an Activity

    async def oauth_token(self, request: web.Request) -> web.Response:
        if request.content_type != "application/x-www-form-urlencoded":
            body = {"error": "invalid_request", "error_description": "Form body expected."}
            return json_response(body, 400)
        form = {key: str(value) for key, value in (await request.post()).items()}
        try:
            answer = self.state.activities.exchange(form, request.headers.get("Authorization"))
        except OAuthError as error:
            return json_response(error.body, error.status)
        return json_response(answer)

    async def get_activity_instance(self, request: web.Request) -> web.Response:
        activities = self.state.activities
        if int(request.match_info["application_id"]) != self.state.application_id:
            raise SimHTTPError(403, 50001, "Missing Access")
        instance = activities.instances.get(request.match_info["instance_id"])
        if instance is None:
            raise SimHTTPError(404, 0, "404: Not Found")
        return json_response(instance.to_payload(self.state.application_id))

    async def get_attachment(self, request: web.Request) -> web.Response:
        wanted = int(request.match_info["attachment_id"])
        for message in self.state.messages.values():
            for attachment in message.attachments:
                if attachment.id == wanted:
                    return web.Response(
                        body=attachment.data,
                        content_type=attachment.content_type or "application/octet-stream",
                    )
        return web.Response(status=404)

    # ----------------------------------------------------------------- users, guilds, channels

    async def get_user(self, request: web.Request) -> web.Response:
        return json_response(self.state.get_user(int(request.match_info["user_id"])).to_payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self._read_body(request)
        user = self.state.get_user(int(body["recipient_id"]))
        return json_response(self.state.dm_channel(user).to_payload())

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(
            self.state.get_channel(int(request.match_info["channel_id"])).to_payload()
        )

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.state.get_guild(int(request.match_info["guild_id"]))
        payload = guild.to_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key, None)
        payload["approximate_member_count"] = len(guild.members)
        return json_response(payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.state.get_guild(int(request.match_info["guild_id"]))
        return json_response([c.to_payload() for c in guild.channels])

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        guild = self.state.get_guild(int(request.match_info["guild_id"]))
        return json_response([r.to_payload() for r in guild.roles])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.state.get_guild(int(request.match_info["guild_id"]))
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise SimHTTPError(404, 10007, "Unknown Member")
        return json_response(member.to_payload())

    # ----------------------------------------------------------------- commands

    def _check_application(self, request: web.Request) -> None:
        if int(request.match_info["application_id"]) != self.state.application_id:
            raise SimHTTPError(403, 50001, "Missing Access")

    async def put_commands(self, request: web.Request) -> web.Response:
        self._check_application(request)
        guild_id = request.match_info.get("guild_id")
        if guild_id is not None:
            self.state.get_guild(int(guild_id))
        _, commands, _ = await self._body(request)
        if not isinstance(commands, list):
            raise SimHTTPError(400, 50109, "The request body contains invalid JSON.")
        for index, command in enumerate(commands):
            problem = command_problem(index, command)
            if problem is not None:
                raise form_error(*problem)
        names = [c["name"] for c in commands]
        if len(names) != len(set(names)):
            raise form_error("name", "Application command names must be unique")
        return json_response(
            self.state.sync_commands(int(guild_id) if guild_id else None, commands)
        )

    async def get_commands(self, request: web.Request) -> web.Response:
        self._check_application(request)
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return json_response(self.state.global_commands)
        return json_response(self.state.guild_commands.get(int(guild_id), []))

    # ----------------------------------------------------------------- channel messages

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self.state.get_channel(int(request.match_info["channel_id"]))
        payload, files = await self._read_body(request)
        self.state.check_can_send(channel)
        self._validate(payload, creating=True, has_files=bool(files), files=files)
        # Discord: with enforce_nonce, a nonce the same author used within the last few
        # minutes returns the message made then, and creates none.
        nonce = payload.get("nonce")
        key = (self.state.bot_user.id, str(nonce))
        if nonce is not None and payload.get("enforce_nonce"):
            made = self.state.nonces.get(key)
            if made is not None and time.time() - made[0] < NONCE_SECONDS and not made[1].deleted:
                return self._message_json(made[1])
        attachments = self._attachments(payload.get("attachments"), files)
        reference = payload.get("message_reference")
        message_type = 0
        if reference is not None:
            referenced = self.state.messages.get(int(reference["message_id"]))
            if referenced is None or referenced.deleted:
                if reference.get("fail_if_not_exists", True):
                    raise form_error(
                        ("message_reference", "message_id"),
                        "Unknown message",
                        "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                    )
                reference = None
            else:
                message_type = REPLY_TYPE
                reference = {
                    "message_id": str(referenced.id),
                    "channel_id": str(referenced.channel.id),
                    "type": 0,
                } | ({"guild_id": str(channel.guild.id)} if channel.guild else {})
        message = self._new_message(
            channel, payload, attachments, message_reference=reference, type=message_type
        )
        message.flags &= ~EPHEMERAL_FLAG  # only interaction responses can be ephemeral
        message.nonce = nonce
        if nonce is not None and payload.get("enforce_nonce"):
            self.state.nonces[key] = (time.time(), message)
        self.state.store_message(message)
        response = message.to_payload(self.state.base_url, copy_parts=False)
        if nonce is not None:
            response["nonce"] = nonce
        return json_response(response)

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self.state.get_channel(int(request.match_info["channel_id"]))
        limit = min(int(request.query.get("limit", 50)), 100)
        messages = [m for m in channel.messages if not m.ephemeral]
        if "before" in request.query:
            messages = [m for m in messages if m.id < int(request.query["before"])]
        if "after" in request.query:
            after = int(request.query["after"])
            messages = [m for m in messages if m.id > after][:limit]
        newest_first = list(reversed(messages))[:limit]
        return json_response(
            [m.to_payload(self.state.base_url, copy_parts=False) for m in newest_first]
        )

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self.state.get_channel(int(request.match_info["channel_id"]))
        message = self.state.get_message(channel, int(request.match_info["message_id"]))
        if message.ephemeral:
            raise SimHTTPError(404, 10008, "Unknown Message")
        return self._message_json(message)

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self.state.get_channel(int(request.match_info["channel_id"]))
        message = self.state.get_message(channel, int(request.match_info["message_id"]))
        if message.ephemeral:
            raise SimHTTPError(404, 10008, "Unknown Message")
        if message.author is not self.state.bot_user:
            raise SimHTTPError(403, 50005, "Cannot edit a message authored by another user")
        self.state.check_thread_open(channel)
        payload, files = await self._read_body(request)
        self._validate(
            payload,
            creating=False,
            has_files=bool(files),
            kept_flags=message.flags,
            files=files,
            editing=message,
        )
        attachments = self._attachments(payload.get("attachments"), files)
        self.state.edit_message(message, payload, attachments)
        return self._message_json(message)

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self.state.get_channel(int(request.match_info["channel_id"]))
        message = self.state.get_message(channel, int(request.match_info["message_id"]))
        if message.ephemeral:
            raise SimHTTPError(404, 10008, "Unknown Message")
        if channel.is_dm and message.author is not self.state.bot_user:
            raise SimHTTPError(403, 50003, "Cannot execute action on a DM channel")
        self.state.check_thread_open(channel)
        self.state.delete_message(message)
        return web.Response(status=204)

    async def typing(self, request: web.Request) -> web.Response:
        self.state.get_channel(int(request.match_info["channel_id"]))
        return web.Response(status=204)

    # ----------------------------------------------------------------- interactions

    def _interaction_for_token(self, request: web.Request) -> SimInteraction:
        self._check_application(request)
        interaction = self.state.interactions_by_token.get(request.match_info["token"])
        if interaction is None:
            raise SimHTTPError(404, 10015, "Unknown Webhook")
        if time.monotonic() - interaction.created_at > self.token_lifetime:
            raise SimHTTPError(401, 50027, "Invalid Webhook Token")
        if not interaction.responded:
            # Followups and edits need the initial response first.
            raise SimHTTPError(404, 10015, "Unknown Webhook")
        return interaction

    async def interaction_callback(self, request: web.Request) -> web.Response:
        interaction = self.state.interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise SimHTTPError(404, 10062, "Unknown interaction")
        payload, files = await self._read_body(request)
        if interaction.responded:
            raise SimHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - interaction.created_at > self.response_deadline:
            interaction.late_response = True
            interaction.record("late", payload.get("type"))
            raise SimHTTPError(404, 10062, "Unknown interaction")
        response_type = int(payload["type"])
        data = payload.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                MODAL,
                LAUNCH_ACTIVITY,
            },
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MESSAGE_COMPONENT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
                MODAL,
                LAUNCH_ACTIVITY,
            },
            MODAL_SUBMIT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
            },
        }[interaction.type]
        if response_type not in allowed or (
            response_type == UPDATE_MESSAGE and interaction.source_message is None
        ):
            raise SimHTTPError(
                400, 50035, f"Interaction response type {response_type} is not valid here"
            )
        if response_type == LAUNCH_ACTIVITY and not self.state.activities.enabled:
            raise form_error(
                "type",
                "This application has no Activity.",
                "INTERACTION_CALLBACK_TYPE_INVALID",
                "LAUNCH_ACTIVITY needs Activities turned on for the application",
            )
        message: SimMessage | None = None
        created = False
        if response_type == LAUNCH_ACTIVITY:
            guild = interaction.channel.guild
            interaction.activity = self.state.activities.launch(
                interaction.user.id, interaction.channel.id, guild.id if guild else None
            )
        elif response_type == CHANNEL_MESSAGE:
            self._validate(data, creating=True, has_files=bool(files), files=files)
            message = self._response_message(
                interaction, data, self._attachments(data.get("attachments"), files)
            )
            created = True
        elif response_type == DEFERRED_CHANNEL_MESSAGE:
            message = self._response_message(
                interaction, {"flags": int(data.get("flags") or 0) | LOADING_FLAG}, []
            )
            created = True
        elif response_type == DEFERRED_UPDATE_MESSAGE:
            message = interaction.source_message
        elif response_type == UPDATE_MESSAGE:
            assert interaction.source_message is not None
            self._validate(
                data,
                creating=False,
                has_files=bool(files),
                kept_flags=interaction.source_message.flags,
                files=files,
                editing=interaction.source_message,
            )
            message = interaction.source_message
            self.state.edit_message(
                message, data, self._attachments(data.get("attachments"), files)
            )
        elif response_type == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            if len(choices) > 25:
                raise too_long(("data", "choices"), 25, "autocomplete choices")
            interaction.choices = choices
        elif response_type == MODAL:
            if not data.get("custom_id") or not data.get("components"):
                raise form_error(
                    "data", "A modal needs a custom_id and components", "BASE_TYPE_REQUIRED"
                )
            interaction.modal = SimModal(
                custom_id=data["custom_id"],
                title=data.get("title", ""),
                components=list(data["components"]),
                opened_by=interaction,
            )
        if message is not None:
            interaction.message = message
        if created and message is not None:
            self.state.store_message(message)
        interaction.response_type = response_type
        interaction.record("callback", response_type)
        body: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": response_type == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message is not None and message.ephemeral),
            },
        }
        if message is not None:
            body["interaction"]["response_message_id"] = str(message.id)
        if interaction.activity is not None:
            body["resource"] = {
                "type": LAUNCH_ACTIVITY,
                "activity_instance": {"id": interaction.activity.instance_id},
            }
        if message is not None and response_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            # The spec's resource is the message a 4 or 7 made (or an activity); a deferral,
            # a modal or autocomplete choices make none.
            body["resource"] = {
                "type": response_type,
                "message": message.to_payload(self.state.base_url, copy_parts=False),
            }
        return json_response(body)

    def _response_message(
        self, interaction: SimInteraction, data: dict[str, Any], attachments: list[SimAttachment]
    ) -> SimMessage:
        message = self._new_message(
            interaction.channel,
            data,
            attachments,
            interaction_id=interaction.id,
            webhook_id=self.state.application_id,
            type=CHAT_INPUT_COMMAND_TYPE if interaction.type == APPLICATION_COMMAND else REPLY_TYPE,
        )
        message.flags &= EPHEMERAL_FLAG | LOADING_FLAG | 4 | 4096 | COMPONENTS_V2_FLAG
        if message.ephemeral:
            message.visible_to = interaction.user
        if interaction.source_message is not None and message.type == REPLY_TYPE:
            message.message_reference = {
                "message_id": str(interaction.source_message.id),
                "channel_id": str(interaction.channel.id),
                "type": 0,
            }
        return message

    def _webhook_message(self, interaction: SimInteraction, message_id: str) -> SimMessage:
        if message_id == "@original":
            message = interaction.message
        else:
            wanted = int(message_id)
            candidates = [
                *interaction.followups,
                *([interaction.message] if interaction.message else []),
            ]
            message = next((m for m in candidates if m.id == wanted), None)
        if message is None or message.deleted:
            raise SimHTTPError(404, 10008, "Unknown Message")
        return message

    async def create_followup(self, request: web.Request) -> web.Response:
        interaction = self._interaction_for_token(request)
        payload, files = await self._read_body(request)
        self._validate(payload, creating=True, has_files=bool(files), files=files)
        attachments = self._attachments(payload.get("attachments"), files)
        original = interaction.message
        if (
            interaction.response_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.flags & LOADING_FLAG
        ):
            # Discord turns the first followup after a "thinking" deferral into the response.
            changes = dict(payload)
            # (Components v2's flag stays: the deferred message becomes a v2 one)
            changes["flags"] = int(payload.get("flags") or 0) & COMPONENTS_V2_FLAG
            changes.setdefault("attachments", [])
            self.state.edit_message(original, changes, attachments)
            original.flags &= ~LOADING_FLAG
            original.history.clear()
            message = original
        else:
            message = self._response_message(interaction, payload, attachments)
            self.state.store_message(message)
        interaction.followups.append(message)
        interaction.record("followup", message.id)
        return self._message_json(message)

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction_for_token(request)
        return self._message_json(
            self._webhook_message(interaction, request.match_info["message_id"])
        )

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction_for_token(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        if not message.ephemeral:
            self.state.check_thread_open(message.channel)
        payload, files = await self._read_body(request)
        self._validate(
            payload,
            creating=False,
            has_files=bool(files),
            kept_flags=message.flags,
            files=files,
            editing=message,
        )
        attachments = self._attachments(payload.get("attachments"), files)
        was_loading = bool(message.flags & LOADING_FLAG)
        self.state.edit_message(message, payload, attachments)
        if was_loading:
            # Filling in a "thinking" message is its first real content, not an edit.
            message.flags &= ~LOADING_FLAG
            message.history.clear()
        interaction.record("edit", message.id)
        return self._message_json(message)

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction_for_token(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        self.state.delete_message(message)
        interaction.record("delete", message.id)
        return web.Response(status=204)


def _guess_type(filename: str) -> str | None:
    import mimetypes

    return mimetypes.guess_type(filename)[0]
