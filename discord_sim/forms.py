"""Request bodies as discord.py sends them: JSON, or ``multipart/form-data`` with a
``payload_json`` part and file parts ``files[n]``.

Read from the raw bytes here rather than with aiohttp's ``request.post()``: its general
reader re-parses every header with the standard library's e-mail parser and rebuilds a
128-character pattern for every Content-Disposition, which made reading a move's PNG upload
the largest part of the simulator's CPU under load. What it accepted is accepted here
(parts named in a ``form-data`` Content-Disposition, quoted or plain values, backslash
escapes); a body that is not well-formed multipart is refused with 400 instead of being
guessed at.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .state import SimHTTPError

#: An uploaded file: (filename, data, content type).
UploadedFile = tuple[str, bytes, str | None]

_PARAM = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')
_ESCAPE = re.compile(r"\\(.)")


def media_type(content_type: str) -> str:
    """``multipart/form-data`` of ``multipart/form-data; boundary=…``, lower-cased."""
    return content_type.partition(";")[0].strip().lower()


def header_params(value: str) -> dict[str, str]:
    """The ``key=value`` parameters after a header's first ``;`` (quotes and escapes undone;
    keys lower-cased)."""
    params: dict[str, str] = {}
    for key, raw in _PARAM.findall(value):
        raw = raw.strip()
        if len(raw) >= 2 and raw[0] == raw[-1] == '"':
            raw = _ESCAPE.sub(r"\1", raw[1:-1])
        params[key.lower()] = raw
    return params


def _malformed(why: str) -> SimHTTPError:
    return SimHTTPError(400, 50035, f"Invalid Form Body: {why}")


def parse_any_json(body: bytes) -> Any:
    """A JSON body of any kind (a bulk command sync is a list)."""
    try:
        return json.loads(body)
    except ValueError:
        raise SimHTTPError(400, 50109, "The request body contains invalid JSON.") from None


def parse_json(body: bytes) -> dict[str, Any]:
    payload = parse_any_json(body)
    if not isinstance(payload, dict):
        raise SimHTTPError(400, 50109, "The request body contains invalid JSON.")
    return payload


def parse_form(content_type: str, body: bytes) -> tuple[dict[str, Any], dict[int, UploadedFile]]:
    """The JSON of the ``payload_json`` part ({} without one) and the uploaded files by
    index (``files[n]``) of a ``multipart/form-data`` body."""
    boundary = header_params(content_type).get("boundary")
    if not boundary:
        raise _malformed("multipart body without a boundary")
    delimiter = b"--" + boundary.encode("latin-1")
    chunks = body.split(delimiter)
    # chunks[0]: the preamble (empty); the last: "--" and the epilogue, after the closing
    # delimiter; every part in between is "\r\n" headers "\r\n\r\n" data "\r\n".
    if len(chunks) < 2 or not chunks[-1].startswith(b"--"):
        raise _malformed("multipart body without its closing boundary")
    payload: dict[str, Any] | None = None
    files: dict[int, UploadedFile] = {}
    for chunk in chunks[1:-1]:
        if not chunk.startswith(b"\r\n") or not chunk.endswith(b"\r\n"):
            raise _malformed("multipart part not delimited by CRLF")
        head, separator, data = chunk[2:-2].partition(b"\r\n\r\n")
        if not separator:
            raise _malformed("multipart part without a blank line after its headers")
        headers: dict[str, str] = {}
        for line in head.decode("utf-8", "surrogateescape").split("\r\n"):
            name, colon, value = line.partition(":")
            if not colon:
                raise _malformed(f"multipart header line {line!r}")
            headers[name.strip().lower()] = value.strip()
        if "content-transfer-encoding" in headers:
            raise _malformed("multipart parts are sent as they are, without a transfer encoding")
        disposition = headers.get("content-disposition", "")
        if media_type(disposition) != "form-data":
            raise _malformed("multipart part without a form-data Content-Disposition")
        params = header_params(disposition)
        if "name" not in params:
            raise _malformed("multipart part without a name")
        name = params["name"]
        filename = params.get("filename")
        if filename is not None:
            if name.startswith("files[") and name.endswith("]") and name[6:-1].isdigit():
                files[int(name[6:-1])] = (filename, data, headers.get("content-type"))
        elif name == "payload_json" and payload is None:
            payload = parse_json(data)
    return payload or {}, files
