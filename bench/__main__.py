"""Run every ``bench/bench_*.py`` module's ``main()`` in turn and print its figures.

``python -m bench`` runs all of them; ``python -m bench render leiff`` only those whose
module name contains one of the given words.
"""

from __future__ import annotations

import importlib
import os
import platform
import sys
from pathlib import Path


def machine_line() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    modules = sorted(p.stem for p in here.glob("bench_*.py"))
    if argv:
        modules = [m for m in modules if any(word in m for word in argv)]
    print(f"machine: {machine_line()}")
    for name in modules:
        print(f"\n== {name} ==", flush=True)
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
