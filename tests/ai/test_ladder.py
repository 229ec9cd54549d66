"""The strength ladder's machinery at a tiny budget: a result, not a strength.

One round robin of Lefe on its smallest board at 1 % of the budgets, played in two shares
(as two processes would), then resumed, merged, fitted and written into a page. How
strong anyone is, is the benchmark's business (``make bench-ai``), never a test's.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bench import ladder
from bench.reference import REFERENCE
from engine.ai.levels import LEVEL_NAMES
from matchcore import strength

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "benchmarks"
SCALE = 0.01
GAMES = 2  # a pairing: one game with each player in seat A


@pytest.fixture(scope="module")
def shares(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("ladder")
    first, second = folder / "share0.jsonl", folder / "share1.jsonl"
    for shard, record in ((0, first), (1, second)):
        ladder.run_ladder(
            ["lefe"], games=GAMES, scale=SCALE, size="smallest", workers=0,
            record=record, shard=(shard, 2), quiet=True,
        )  # fmt: skip
    return first, second


def test_every_pairing_is_played_with_both_seats(shares: tuple[Path, Path]) -> None:
    games = ladder.load_records(shares)
    players = (*LEVEL_NAMES, REFERENCE, ladder.RANDOM)
    assert ladder.ladder_players("lefe") == players
    pairings = Counter((g.first, g.second) for g in games.values())
    assert set(pairings) == set(ladder.round_robin(players))
    assert len(pairings) == len(players) * (len(players) - 1) // 2
    assert set(pairings.values()) == {GAMES}
    for game in games.values():
        assert (game.game, game.size, game.scale) == ("lefe", 5, SCALE)
        assert game.outcome in {"win", "draw", "loss"} and game.plies > 0 and game.reason
        # every searching player's moves are timed; the random player's are not
        assert set(game.seconds) == {game.first, game.second} - {ladder.RANDOM}
        assert all(len(times) > 0 for times in game.seconds.values())
    assert {g.index for g in games.values()} == {0, 1}


def test_two_shares_are_disjoint_and_merge_into_the_whole_round_robin(
    shares: tuple[Path, Path],
) -> None:
    first, second = (set(ladder.load_records([path])) for path in shares)
    assert first and second and not first & second
    plan = {
        ladder.record_key("lefe", 5, a, b, i, SCALE)
        for a, b, i in ladder.planned_games("lefe", 5, ladder.ladder_players("lefe"), GAMES, SCALE)
    }
    assert first | second == plan
    # a record copied into another counts each game once
    assert ladder.load_records([*shares, shares[0]]).keys() == plan


def test_the_fit_converges_and_every_interval_holds_its_estimate(
    shares: tuple[Path, Path],
) -> None:
    (table,) = ladder.ladder_tables(ladder.load_records(shares).values())
    fit = table.fit
    assert fit.converged and fit.max_gradient < 1e-6
    assert fit.rating(REFERENCE).elo == ladder.ANCHOR_ELO
    for rating in fit.ratings:
        assert rating.low <= rating.elo <= rating.high
        if rating.player != REFERENCE:
            assert rating.low < rating.elo < rating.high
    # each side of a pairing sees the same games from its side
    for (a, b), score in table.scores.items():
        mirror = table.scores[(b, a)]
        assert (score.wins, score.draws, score.losses) == (
            mirror.losses, mirror.draws, mirror.wins,
        )  # fmt: skip
    assert all(table.seconds[p] for p in table.players if p != ladder.RANDOM)


def test_the_levels_strength_is_written_for_the_bot_from_the_fit(
    shares: tuple[Path, Path], tmp_path: Path
) -> None:
    records = ladder.load_records(shares).values()
    (table,) = ladder.ladder_tables(records)
    # only full-strength games at the default size count for the bot: none here
    assert ladder.strength_data(records) == {}
    # too few games to show to members: nothing
    assert ladder.strength_data(records, scale=SCALE, size="smallest") == {}
    # a handful of games a pairing: intervals far too wide to show members
    assert ladder.strength_data(records, scale=SCALE, size="smallest", min_games=0) == {}
    data = ladder.strength_data(
        records, scale=SCALE, size="smallest", min_games=0, max_spread=float("inf")
    )
    assert set(data) == {"lefe"} and set(data["lefe"]) == set(LEVEL_NAMES)
    for level, entry in data["lefe"].items():
        rating = table.fit.rating(level)
        assert entry == {
            "elo": round(rating.elo),
            "low": round(rating.low),
            "high": round(rating.high),
            "games": GAMES * (len(table.players) - 1),
        }
    path = tmp_path / "ai-strength.json"
    ladder.write_strength(path, data)
    read = strength.measured_strength("lefe", "hard", path)
    assert read is not None and read.elo == data["lefe"]["hard"]["elo"]
    assert strength.measured_strength("lefe", "grandmaster", path) is None


def test_the_committed_strength_file_is_the_fit_of_the_committed_records() -> None:
    records = ladder.load_records([DOCS / "ai-ladder.jsonl", DOCS / "ai-ladder-full.jsonl"])
    committed = json.loads((ROOT / "data" / "ai-strength.json").read_text(encoding="utf-8"))
    assert committed == ladder.strength_data(records.values())


def test_a_rerun_skips_the_games_in_its_record(shares: tuple[Path, Path], tmp_path: Path) -> None:
    record = tmp_path / "resumed.jsonl"
    shutil.copy(shares[0], record)
    before = record.read_text()
    # the same share again: nothing to play
    again = ladder.run_ladder(
        ["lefe"], games=GAMES, scale=SCALE, size="smallest", workers=0,
        record=record, shard=(0, 2), quiet=True,
    )  # fmt: skip
    assert again == [] and record.read_text() == before
    # the whole of one pairing: only its game of the other share is played and appended
    rest = ladder.run_ladder(
        ["lefe"], games=GAMES, scale=SCALE, size="smallest", players=["easy", "random"],
        workers=0, record=record, quiet=True,
    )  # fmt: skip
    assert [(g.first, g.second, g.index) for g in rest] == [("easy", "random", 1)]
    assert record.read_text().startswith(before)
    assert len(record.read_text().splitlines()) == len(before.splitlines()) + 1


def test_two_processes_share_one_record(tmp_path: Path) -> None:
    # two real processes append to one file at once; every line stays whole
    record = tmp_path / "shared.jsonl"
    command = [
        sys.executable, "-m", "bench.ladder", "lefe", "--games", "4", "--scale", str(SCALE),
        "--size", "smallest", "--players", "easy,random", "--workers", "0",
        "--record", str(record),
    ]  # fmt: skip
    runs = [
        subprocess.Popen([*command, "--shard", f"{k}/2"], cwd=ROOT, stdout=subprocess.PIPE)
        for k in (0, 1)
    ]
    for run in runs:
        out, _ = run.communicate(timeout=300)
        assert run.returncode == 0
        assert b"| easy |" in out
    games = ladder.load_records([record])
    assert sorted(g.index for g in games.values()) == [0, 1, 2, 3]
    assert len(record.read_text().splitlines()) == 4


def test_the_report_is_written_into_the_page_between_its_markers(
    shares: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.md"
    page.write_text(f"# Before\n\n{ladder.DOC_BEGIN}\nstale\n{ladder.DOC_END}\n\nAfter\n")
    ladder.main(["--report", *map(str, shares), "--write-doc", str(page)])
    printed = capsys.readouterr().out
    text = page.read_text()
    assert text.startswith("# Before\n") and text.endswith("\n\nAfter\n") and "stale" not in text
    assert ladder.doc_report(page) == printed
    assert "| reference | 1500 | anchor |" in printed
    assert printed.count("\n| ") == 1 + len(ladder.ladder_players("lefe"))


def test_the_recorded_ladder_is_the_fit_of_the_committed_record() -> None:
    # docs/benchmarks/ai.md quotes what the report makes of the committed record, exactly:
    # a new record without a new table, or an edited table, fails here
    games = ladder.load_records([DOCS / "ai-ladder.jsonl"])
    assert games
    assert ladder.doc_report(DOCS / "ai.md") == ladder.markdown_report(games.values())


def test_unknown_shards_and_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="K/N"):
        ladder.parse_shard("2/2")
    with pytest.raises(ValueError, match="sizes 5, 6, 7"):
        ladder.board_size("lefe", "11")
    assert ladder.board_size("les", "default") == 9


def test_chosen_pairings_are_played_in_turn_under_the_round_robins_names(tmp_path: Path) -> None:
    # named either way round, a pairing keeps the round robin's name (hence its seeds and
    # record keys); the games go game 0 of each pairing, then game 1 of each, ...
    pairings = ladder.parse_pairings("reference-master,hard-random")
    assert pairings == [("reference", "master"), ("hard", "random")]
    planned = ladder.planned_games("lefe", 5, [], 3, SCALE, pairings=pairings)
    assert planned == [
        ("master", "reference", 0), ("hard", "random", 0),
        ("master", "reference", 1), ("hard", "random", 1),
        ("master", "reference", 2), ("hard", "random", 2),
    ]  # fmt: skip
    assert ladder.planned_games("lefe", 5, [], 3, SCALE, (1, 2), pairings) == [
        ("master", "reference", 1), ("hard", "random", 1),
    ]  # fmt: skip
    # the same games as the round robin's: a record of either serves the other
    whole = ladder.planned_games("lefe", 5, ladder.ladder_players("lefe"), 3, SCALE)
    assert set(planned) <= set(whole)
    record = tmp_path / "pairings.jsonl"
    played = ladder.run_ladder(
        ["lefe"], games=2, scale=SCALE, size="smallest", workers=0, record=record,
        quiet=True, pairings=[("random", "easy"), ("normal", "beginner")],
    )  # fmt: skip
    assert [(g.first, g.second, g.index) for g in played] == [
        ("easy", "random", 0), ("beginner", "normal", 0),
        ("easy", "random", 1), ("beginner", "normal", 1),
    ]  # fmt: skip
    assert {g.key for g in played} == set(ladder.load_records([record]))


def test_wrong_pairings_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for text in ("master", "master-master", "a-b-c", "master-"):
        with pytest.raises(ValueError, match="A-B,C-D"):
            ladder.parse_pairings(text)
    for argv, said in (
        (["lefe", "--pairings", "master-grandmaster"], "unknown player"),
        (["lefe", "--pairings", "master-reference", "--players", "master"], "one or the other"),
        (["lefe", "--pairings", "master-master"], "A-B,C-D"),
    ):
        with pytest.raises(SystemExit):
            ladder.main(argv)
        assert said in capsys.readouterr().err


def test_the_cpu_clock_reaches_every_search_module_the_players_use() -> None:
    # every module of the levels' and the reference's searches that reads the clock has it
    # swapped by use_clock (one left out thinks by the wall clock: on a loaded machine, a
    # fraction of its budget, as Dalen's exact end reading did at first)
    probe = (
        "import sys, engine.ai.levels, bench.reference;"
        "print(' '.join(m for m in sys.modules if m.startswith(('engine.ai', 'bench.reference'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    timed = {
        name
        for name in loaded
        if (ROOT / (name.replace(".", "/") + ".py")).exists()
        and "perf_counter" in (ROOT / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8")
    }
    assert {"engine.ai.endsolver", "engine.ai.mcts", "bench.reference.mcts"} <= timed
    assert timed <= set(ladder._SEARCH_MODULES)
    try:
        ladder.use_clock("cpu")
        from engine.ai import endsolver

        assert endsolver.time.perf_counter is time.process_time  # type: ignore[attr-defined]
    finally:
        ladder.use_clock("wall")


def _game(first: str, second: str, index: int, outcome: str) -> ladder.LadderGame:
    return ladder.LadderGame(
        key=ladder.record_key("dalen", 7, first, second, index, 1.0),
        game="dalen", size=7, scale=1.0, first=first, second=second, index=index,
        outcome=outcome, plies=100, reason="a test's game",
        seconds={p: [0.5] for p in (first, second) if p != ladder.RANDOM}, clock="cpu",
    )  # fmt: skip


def test_players_never_tied_to_the_reference_are_shown_unrated() -> None:
    """A partial run (here: master against the reference, easy against random, as a
    session's first lines are) fits the reference's side and lists the rest unrated."""
    records = [_game("master", REFERENCE, i, "win" if i % 4 else "loss") for i in range(8)]
    records += [_game("easy", ladder.RANDOM, i, "win") for i in range(6)]
    (table,) = ladder.ladder_tables(records)
    assert table.unrated == ("easy", ladder.RANDOM)
    assert {r.player for r in table.fit.ratings} == {"master", REFERENCE}
    assert table.fit.converged and table.fit.rating("master").elo > ladder.ANCHOR_ELO
    lines = ladder.markdown_table(table)
    easy_row = next(line for line in lines if line.startswith("| easy |"))
    assert f"| – | not tied to {REFERENCE} |" in easy_row and "100% (6–0–0)" in easy_row
    # the strength file never shows an unrated level, however many games it played
    assert "easy" not in ladder.strength_data(records, min_games=1, max_spread=10_000)["dalen"]


def test_the_full_strength_tables_are_the_fit_of_the_full_record() -> None:
    # the page's second section quotes the real measurement (scale 1), exactly
    games = ladder.load_records([DOCS / "ai-ladder-full.jsonl"])
    assert games and all(g.scale == 1.0 for g in games.values())
    full = ladder.doc_report(DOCS / "ai.md", "full")
    assert full == ladder.markdown_report(games.values())
    assert full != ladder.doc_report(DOCS / "ai.md")


def test_a_named_section_is_written_between_its_own_markers(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    begin, end = ladder.doc_markers("full")
    page.write_text(f"{ladder.DOC_BEGIN}\nmain\n{ladder.DOC_END}\n{begin}\nold\n{end}\n")
    ladder.write_doc(page, "new\n", "full")
    assert ladder.doc_report(page, "full") == "new\n" and ladder.doc_report(page) == "main\n"
    with pytest.raises(ValueError, match="no ladder markers"):
        ladder.write_doc(page, "x\n", "other")
