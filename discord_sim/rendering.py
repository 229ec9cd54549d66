"""A simulated message as an HTML page that looks roughly as Discord shows it.

For people, not for assertions: ``render_html(message)`` gives one self-contained page
(pictures inlined as data URLs) of the message as it is now, in Discord's dark theme at a
given width (a phone: 360 px), so that a changed message can be looked at the way a player
sees it (``python -m discord_sim.look`` renders the messages of chosen tests and
screenshots them with a headless Chromium). It understands both kinds of message:

- without the Components v2 flag: the content, embeds, the attached pictures, then up to
  five action rows of buttons and menus;
- with it: text displays, containers with their accent colour down the side, sections with
  a button or thumbnail beside their text, media galleries showing the uploaded files they
  name, separators, and action rows, at any depth Discord allows.

Markdown is the part players meet: bold, italics, code, headings, ``-#`` small text,
quotes, lists, user mentions (``@name``) and timestamps (``<t:…:R>`` as "in 5 minutes").
"""

from __future__ import annotations

import base64
import html
import re
import time
from typing import Any

from .models import SimAttachment, SimMessage

BUTTON_COLOURS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}

STYLE = """
body { margin: 0; background: #313338; color: #dbdee1; width: %(width)dpx;
  font: 15px/1.375 "gg sans", "Noto Sans", "Helvetica Neue", Helvetica, Arial, sans-serif; }
.msg { display: flex; padding: 8px 10px 8px 8px; }
.avatar { flex: none; width: 34px; height: 34px; border-radius: 50%%; background: #5865f2;
  margin-right: 10px; color: white; font-weight: 700; text-align: center; line-height: 34px; }
.body { min-width: 0; flex: 1; }
.head { margin-bottom: 2px; } .name { color: #f2f3f5; font-weight: 600; }
.app { background: #5865f2; color: white; font-size: 10px; border-radius: 3px;
  padding: 1px 4px; margin-left: 4px; vertical-align: 2px; }
.time { color: #949ba4; font-size: 12px; margin-left: 4px; }
.only { color: #949ba4; font-size: 12px; margin-top: 4px; }
.text { white-space: normal; overflow-wrap: anywhere; }
.text p { margin: 0; min-height: 1em; }
.text h1 { font-size: 22px; margin: 4px 0; } .text h2 { font-size: 19px; margin: 4px 0; }
.text h3 { font-size: 16px; margin: 4px 0; }
.sub { color: #949ba4; font-size: 12px; }
.text code { background: #2b2d31; border-radius: 3px; padding: 0 3px; font-size: 13px; }
.quote { border-left: 4px solid #4e5058; padding-left: 8px; }
.mention { background: rgba(88,101,242,.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
.stamp { background: #2b2d31; border-radius: 3px; padding: 0 2px; }
.box { background: #2b2d31; border: 1px solid #3f4147; border-radius: 8px; padding: 12px;
  margin: 4px 0; display: flex; flex-direction: column; gap: 8px; position: relative;
  overflow: hidden; }
.box.accent { border-left: 4px solid var(--accent); }
.v2 { display: flex; flex-direction: column; gap: 8px; }
.section { display: flex; gap: 10px; align-items: flex-start; }
.section > .texts { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 4px; }
.section > .side { flex: none; }
.thumb { width: 64px; height: 64px; object-fit: cover; border-radius: 6px; }
.gallery { display: grid; gap: 4px; grid-template-columns: 1fr; }
.gallery.many { grid-template-columns: 1fr 1fr; }
.gallery img, .picture { width: 100%%; border-radius: 6px; display: block; }
.missing { background: #1e1f22; color: #f23f43; padding: 12px; border-radius: 6px; }
.sep { border: 0; margin: 2px 0; } .sep.line { border-top: 1px solid #3f4147; }
.sep.large { margin: 8px 0; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 4px; }
.button { color: white; border-radius: 8px; padding: 2px 14px; min-height: 32px;
  box-sizing: border-box; font-size: 14px; font-weight: 500; display: inline-flex;
  align-items: center; max-width: 100%%; overflow: hidden; white-space: nowrap;
  text-overflow: ellipsis; }
.button.off { opacity: .5; }
.select { background: #1e1f22; border: 1px solid #1e1f22; border-radius: 8px; padding: 8px 10px;
  color: #949ba4; width: 100%%; box-sizing: border-box; display: flex;
  justify-content: space-between; font-size: 14px; }
.select.off { opacity: .5; }
.embed { background: #2b2d31; border-left: 4px solid var(--accent, #1e1f22); border-radius: 4px;
  padding: 8px 12px 12px; margin-top: 4px; }
.embed .title { color: #f2f3f5; font-weight: 600; margin: 4px 0; }
.embed .field-name { color: #f2f3f5; font-weight: 600; margin-top: 6px; }
.embed .footer { color: #949ba4; font-size: 12px; margin-top: 8px; }
.embed img { max-width: 100%%; border-radius: 4px; margin-top: 8px; }
"""


def render_html(
    message: SimMessage,
    *,
    width: int = 360,
    names: dict[int, str] | None = None,
    now: float | None = None,
) -> str:
    """The message as a self-contained HTML page ``width`` pixels wide; ``names`` turns
    ``<@id>`` into ``@name``, ``now`` is the time relative timestamps are told from."""
    page = _Page(message, names or {}, time.time() if now is None else now)
    author = html.escape(message.author.display_name)
    head = (
        f'<div class="head"><span class="name">{author}</span>'
        f"{'<span class=app>APP</span>' if message.author.bot else ''}"
        f'<span class="time">{"(edited)" if message.edited else ""}</span></div>'
    )
    body = page.v2() if message.is_v2 else page.v1()
    only = '<div class="only">Only you can see this</div>' if message.ephemeral else ""
    return (
        "<!doctype html><html><head><meta charset='utf-8'><style>"
        + STYLE % {"width": width}
        + f"</style></head><body><div class='msg'><div class='avatar'>{author[:1]}</div>"
        + f"<div class='body'>{head}{body}{only}</div></div></body></html>"
    )


class _Page:
    def __init__(self, message: SimMessage, names: dict[int, str], now: float) -> None:
        self.message = message
        self.names = names
        self.now = now

    # ---- messages without the flag ----------------------------------------------------
    def v1(self) -> str:
        parts = []
        if self.message.content:
            parts.append(self.markdown(self.message.content))
        parts.extend(self.embed(embed) for embed in self.message.embeds)
        for attachment in self.message.attachments:
            if _is_picture(attachment) and not _used_by_embed(self.message, attachment):
                parts.append(f'<img class="picture" src="{_data_url(attachment)}">')
        parts.extend(self.component(c) for c in self.message.components)
        return "".join(parts)

    def embed(self, embed: dict[str, Any]) -> str:
        colour = embed.get("color")
        style = f' style="--accent: #{colour:06x}"' if isinstance(colour, int) else ""
        parts = []
        if embed.get("title"):
            parts.append(f'<div class="title">{self.inline(str(embed["title"]))}</div>')
        if embed.get("description"):
            parts.append(self.markdown(str(embed["description"])))
        for field in embed.get("fields") or []:
            parts.append(f'<div class="field-name">{self.inline(str(field.get("name", "")))}</div>')
            parts.append(self.markdown(str(field.get("value", ""))))
        image = (embed.get("image") or {}).get("url")
        if image:
            attachment = self.message.attachment_of(str(image))
            parts.append(self.picture(attachment, str(image)))
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            parts.append(f'<div class="footer">{html.escape(str(footer))}</div>')
        return f'<div class="embed"{style}>{"".join(parts)}</div>'

    # ---- Components v2 ------------------------------------------------------------------
    def v2(self) -> str:
        return (
            '<div class="v2">'
            + "".join(self.component(c) for c in self.message.components)
            + "</div>"
        )

    def component(self, component: dict[str, Any]) -> str:
        kind = component.get("type")
        if kind == 1:
            return (
                '<div class="row">'
                + "".join(self.component(c) for c in component.get("components") or [])
                + "</div>"
            )
        if kind == 2:
            return self.button(component)
        if kind in (3, 5, 6, 7, 8):
            off = " off" if component.get("disabled") else ""
            placeholder = html.escape(str(component.get("placeholder") or "Make a selection"))
            return f'<div class="select{off}"><span>{placeholder}</span><span>⌄</span></div>'
        if kind == 9:
            texts = "".join(self.component(c) for c in component.get("components") or [])
            accessory = component.get("accessory") or {}
            side = self.component(accessory) if accessory else ""
            return (
                f'<div class="section"><div class="texts">{texts}</div>'
                f'<div class="side">{side}</div></div>'
            )
        if kind == 10:
            return self.markdown(str(component.get("content") or ""))
        if kind == 11:
            url = str((component.get("media") or {}).get("url", ""))
            attachment = self.message.attachment_of(url)
            if attachment is None:
                return '<div class="missing">thumbnail?</div>'
            return f'<img class="thumb" src="{_data_url(attachment)}">'
        if kind == 12:
            items = component.get("items") or []
            many = " many" if len(items) > 1 else ""
            pictures = "".join(
                self.picture(
                    self.message.attachment_of(str((item.get("media") or {}).get("url", ""))),
                    str((item.get("media") or {}).get("url", "")),
                    item.get("description"),
                )
                for item in items
            )
            return f'<div class="gallery{many}">{pictures}</div>'
        if kind == 13:
            url = str((component.get("file") or {}).get("url", ""))
            return f'<div class="embed">📎 {html.escape(url.removeprefix("attachment://"))}</div>'
        if kind == 14:
            line = " line" if component.get("divider", True) else ""
            large = " large" if component.get("spacing", 1) == 2 else ""
            return f'<hr class="sep{line}{large}">'
        if kind == 17:
            accent = component.get("accent_color")
            style = ""
            classes = "box"
            if isinstance(accent, int):
                classes += " accent"
                style = f' style="--accent: #{accent:06x}"'
            inner = "".join(self.component(c) for c in component.get("components") or [])
            return f'<div class="{classes}"{style}>{inner}</div>'
        return f'<div class="missing">component type {html.escape(str(kind))}</div>'

    def button(self, button: dict[str, Any]) -> str:
        colour = BUTTON_COLOURS.get(int(button.get("style", 2)), "#4e5058")
        off = " off" if button.get("disabled") else ""
        label = html.escape(str(button.get("label") or ""))
        emoji = (button.get("emoji") or {}).get("name") or ""
        link = " ↗" if button.get("style") == 5 else ""
        return (
            f'<span class="button{off}" style="background:{colour}">'
            f"{html.escape(emoji)}{' ' if emoji and label else ''}{label}{link}</span>"
        )

    def picture(self, attachment: SimAttachment | None, url: str, description: Any = None) -> str:
        if attachment is None:
            return f'<div class="missing">no file for {html.escape(url)}</div>'
        alt = html.escape(str(description or ""))
        return f'<img src="{_data_url(attachment)}" alt="{alt}" title="{alt}">'

    # ---- markdown ------------------------------------------------------------------------
    def markdown(self, text: str) -> str:
        lines = []
        for line in text.split("\n"):
            heading = re.match(r"^(#{1,3}) (.*)$", line)
            if heading:
                level = len(heading[1])
                lines.append(f"<h{level}>{self.inline(heading[2])}</h{level}>")
            elif line.startswith("-# "):
                lines.append(f'<p class="sub">{self.inline(line[3:])}</p>')
            elif line.startswith("> "):
                lines.append(f'<p class="quote">{self.inline(line[2:])}</p>')
            elif re.match(r"^[-*] ", line):
                lines.append(f"<p>• {self.inline(line[2:])}</p>")
            else:
                lines.append(f"<p>{self.inline(line)}</p>")
        return f'<div class="text">{"".join(lines)}</div>'

    def inline(self, text: str) -> str:
        out = html.escape(text, quote=False)
        out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
        out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
        out = re.sub(r"__(.+?)__", r"<u>\1</u>", out)
        out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)", r"<i>\1</i>", out)
        out = re.sub(r"(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)", r"<i>\1</i>", out)
        out = re.sub(r"~~(.+?)~~", r"<s>\1</s>", out)
        out = re.sub(r"&lt;@!?(\d+)&gt;", lambda m: self.mention(int(m[1])), out)
        out = re.sub(r"&lt;#(\d+)&gt;", r'<span class="mention">#channel</span>', out)
        out = re.sub(r"&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;", lambda m: self.stamp(m), out)
        return out

    def mention(self, user_id: int) -> str:
        name = self.names.get(user_id, str(user_id))
        return f'<span class="mention">@{html.escape(name)}</span>'

    def stamp(self, match: re.Match[str]) -> str:
        moment = int(match[1])
        if match[2] == "R":
            words = _relative(moment - self.now)
        else:
            words = time.strftime("%d %b %Y %H:%M", time.gmtime(moment))
        return f'<span class="stamp">{words}</span>'


def _relative(seconds: float) -> str:
    ahead = seconds >= 0
    size = abs(seconds)
    for unit, length in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if size >= length:
            count = round(size / length)
            words = f"{count} {unit}{'s' if count != 1 else ''}"
            break
    else:
        words = f"{round(size)} seconds"
    return f"in {words}" if ahead else f"{words} ago"


def _is_picture(attachment: SimAttachment) -> bool:
    return (attachment.content_type or "").startswith(
        "image/"
    ) or attachment.filename.lower().endswith((".png", ".gif", ".jpg", ".jpeg", ".webp"))


def _used_by_embed(message: SimMessage, attachment: SimAttachment) -> bool:
    for embed in message.embeds:
        for key in ("image", "thumbnail"):
            url = str((embed.get(key) or {}).get("url", ""))
            if message.attachment_of(url) is attachment:
                return True
    return False


def _data_url(attachment: SimAttachment) -> str:
    kind = attachment.content_type or "image/png"
    return f"data:{kind};base64,{base64.b64encode(attachment.data).decode()}"
