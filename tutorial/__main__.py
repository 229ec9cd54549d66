"""``python -m tutorial check`` checks every page against the engine; ``python -m tutorial
docs`` writes the rules pages and README pictures (``docs/``) from the tutorials."""

from __future__ import annotations

import sys

from tutorial import check_tutorial, tutorial_games
from tutorial.docs import ROOT, write


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "check":
        problems = [problem for game in tutorial_games() for problem in check_tutorial(game)]
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    if command == "docs":
        for path in write():
            print(f"{'wrote' if (ROOT / path).exists() else 'removed'} {path}")
        return 0
    print("usage: python -m tutorial check | docs", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
