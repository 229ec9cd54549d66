"""The answers the simulated REST API sends: JSON bodies and Discord's error shapes.

Shared by the server and its route groups (threads), so that neither imports the other
for them. ``json_response`` keeps the data it sent on the response, where the server's
contract check reads it back.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .spec import JsonPath
from .state import SimHTTPError

#: Where ``json_response`` keeps the data it sent (the answer is checked against the spec).
JSON_KEY = web.ResponseKey("sim_json", object)


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only parses bodies whose content type is exactly "application/json".
    response = web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )
    response[JSON_KEY] = data
    return response


def error_response(
    status: int, code: int, message: str, errors: dict[str, Any] | None = None
) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return json_response(body, status)


def json_path(field: str | JsonPath) -> JsonPath:
    if not isinstance(field, str):
        return field
    return tuple(int(part) if part.isdigit() else part for part in field.split("."))


def form_error(
    field: str | JsonPath, message: str, code: str = "BASE_TYPE_INVALID", rule: str = ""
) -> SimHTTPError:
    """Discord's 400 Invalid Form Body (50035) for one field (``"embeds.0.title"`` or a
    path), with its error code and message; ``rule`` says which of Discord's documented
    limits it is, for the test's failure."""
    return SimHTTPError(
        400,
        50035,
        "Invalid Form Body",
        problems=[(json_path(field), code, message, rule or message)],
    )


def too_long(field: str | JsonPath, limit: int, what: str) -> SimHTTPError:
    return form_error(
        field,
        f"Must be {limit} or fewer in length.",
        "BASE_TYPE_MAX_LENGTH",
        f"at most {limit} {what} (Discord's documented limit)",
    )
