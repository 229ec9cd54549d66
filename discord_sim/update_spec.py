"""Refresh the pinned copy of Discord's OpenAPI description (``make update-discord-spec``).

    python -m discord_sim.update_spec [--repository URL-OR-PATH] [--ref REF]

Clones the repository (Discord's public discord/discord-api-spec by default; a local clone
or mirror works too) at ``REF`` (its default branch if not given), and writes
``specs/openapi.json`` gzipped (byte-stable: no file name or time in the header) to
discord_sim/discord-openapi.json.gz, with the commit it came from in
discord-openapi.source.json. Run the suite afterwards: a newer spec may refuse what the bot
sends, or what the simulator answers.

The npm package ``discord-api-spec`` carries types and Zod schemas generated from the
same repository, not the OpenAPI file itself, so the file is taken from the repository.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from .spec import SOURCE_PATH, SPEC_PATH

REPOSITORY = "https://github.com/discord/discord-api-spec"
SPEC_FILE = "specs/openapi.json"


def git(*args: str, cwd: Path | None = None) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def update(repository: str, ref: str | None) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as folder:
        clone = Path(folder) / "discord-api-spec"
        branch = ["--branch", ref] if ref else []
        git("clone", "--quiet", "--depth", "1", *branch, repository, str(clone))
        commit = git("rev-parse", "HEAD", cwd=clone)
        committed = git("log", "-1", "--format=%cI", cwd=clone)
        blob = git("rev-parse", f"HEAD:{SPEC_FILE}", cwd=clone)
        data = (clone / SPEC_FILE).read_bytes()
    document = json.loads(data)
    SPEC_PATH.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    info = {
        "repository": repository if "://" in repository else REPOSITORY,
        "path": SPEC_FILE,
        "commit": commit,
        "committed": committed,
        "blob": blob,
        "sha256": hashlib.sha256(data).hexdigest(),
        "openapi": document["openapi"],
        "api_version": document["info"]["version"],
    }
    SOURCE_PATH.write_text(json.dumps(info, indent=2) + "\n")
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repository", default=REPOSITORY)
    parser.add_argument("--ref", default=None, help="branch or tag (default: the default branch)")
    args = parser.parse_args(argv)
    info = update(args.repository, args.ref)
    print(
        f"pinned {info['path']} of {info['repository']} at {info['commit']} ({info['committed']})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
