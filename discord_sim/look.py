"""Look at the bot's messages as a phone shows them: ``python -m discord_sim.look``.

    python -m discord_sim.look --out /tmp/look --width 360 -- tests/bot/test_x.py -k y

runs the chosen tests with ``SIM_LOOK_DIR`` set, so each simulator writes every message the
bot left (as it is at the end of the test) as an HTML page (:mod:`.rendering`) into that
directory, then screenshots each page with a headless Chromium (``chromium``, Debian's
package) into a PNG beside it, to be opened with an image viewer. The tests themselves never
need Chromium: only this script calls it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .rendering import render_html

ENV = "SIM_LOOK_DIR"


def dump_messages(
    sim: Any, directory: str | Path, test_name: str, *, width: int = 360, now: float | None = None
) -> list[Path]:
    """Every message the bot sent in ``sim`` (not deleted) as an HTML page in
    ``directory``, named after the test, the message's place and channel."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    names = {user.id: user.display_name for user in sim.state.users.values()}
    stem = re.sub(r"[^\w.-]+", "_", test_name)[:80]
    written = []
    number = 0
    for message in sim.all_messages:
        if message.author.id != sim.bot_user.id or message.deleted:
            continue
        number += 1
        where = "dm" if message.channel.is_dm else message.channel.name
        if message.ephemeral:
            where += "-private"
        place = re.sub(r"[^\w-]+", "_", where)
        path = folder / f"{stem}-{number:03d}-{place}.html"
        path.write_text(render_html(message, width=width, names=names, now=now), encoding="utf-8")
        written.append(path)
    return written


def screenshot(page: Path, width: int, height: int = 1600) -> Path:
    """``page`` as a PNG beside it, ``width`` pixels wide (the page's own height is cut
    from ``height`` by trimming the empty bottom)."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        raise SystemExit("chromium is not installed (apt-get install -y chromium)")
    out = page.with_suffix(".png")
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--screenshot={out}",
            f"--window-size={width},{height}",
            page.resolve().as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    _trim(out)
    return out


def _trim(png: Path) -> None:
    """Cut the page's empty bottom (Discord's background colour) off the screenshot."""
    from PIL import Image

    with Image.open(png) as image:
        picture = image.convert("RGB")
    background = picture.getpixel((picture.width - 1, picture.height - 1))
    bottom = picture.height
    while bottom > 1:
        row = picture.crop((0, bottom - 1, picture.width, bottom))
        if any(pixel != background for pixel in row.get_flattened_data()):
            break
        bottom -= 1
    picture.crop((0, 0, picture.width, min(bottom + 8, picture.height))).save(png)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="look", help="directory for the pages and PNGs")
    parser.add_argument("--width", type=int, default=360)
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, **{ENV: str(out.resolve()), "SIM_LOOK_WIDTH": str(args.width)})
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "0",
            "-q",
            "-p",
            "no:cacheprovider",
            *args.pytest_args,
        ],
        env=env,
        check=False,
    )
    for page in sorted(out.glob("*.html")):
        print(screenshot(page, args.width))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
