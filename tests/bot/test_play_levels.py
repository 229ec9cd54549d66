"""``/play``'s and ``/import``'s level option through the real client, in English and in
German: the levels are autocompleted with their measured strength in the game chosen (for
``/import``: the pasted record's game; data/ai-strength.json), a level's word may be typed
in either language, and anything else is refused with the list.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.common import levels
from bot.common.levels import LEVEL_TEXT_IDS, LEVEL_WORD_IDS, level_choices, level_typed
from engine.ai.levels import LEVEL_NAMES
from i18n import translate
from matchcore import strength
from matchcore.strength import measured_strength
from tests.bot.helpers import stored_match
from tests.bot.test_vs_bot import ai_in_thread

ELO_WORDS = {"en": "about {elo} Elo", "de": "etwa {elo} Elo"}


async def test_play_offers_each_level_with_its_measured_strength_in_the_game_chosen(
    sim: Any, world: Any, language: str, bot: Any
) -> None:
    for game in ("lublache", "lefe"):
        offered = await sim.autocomplete(world.alice, "play", option="level", value="", game=game)
        assert [choice["value"] for choice in offered] == list(LEVEL_NAMES)
        for choice in offered:
            level = choice["value"]
            described = translate(language, LEVEL_TEXT_IDS[level])
            measured = measured_strength(game, level)
            assert len(choice["name"]) <= 100
            if measured is None:
                # not measured yet: the description alone, as the list always read
                assert choice["name"] == described
            else:
                suffix = " · " + ELO_WORDS[language].format(elo=measured.elo)
                assert choice["name"].endswith(suffix), choice["name"]
                assert described.startswith(choice["name"][: -len(suffix)].rstrip("…"))
    # the committed ladder has measured Lublache's easy: the list says so
    lublache = await sim.autocomplete(
        world.alice, "play", option="level", value="", game="lublache"
    )
    easy = next(choice for choice in lublache if choice["value"] == "easy")
    assert " Elo" in easy["name"]
    # what the member types narrows the list, in the member's words
    master_word = {"en": "mast", "de": "Meist"}[language]
    typed = await sim.autocomplete(
        world.alice, "play", option="level", value=master_word, game="lefe"
    )
    assert [choice["value"] for choice in typed] == ["master"]
    sim.assert_no_bot_errors()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_long_description_is_cut_to_make_room_for_the_strength(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    measured = {
        level: {"elo": 1234 + i, "low": 1100, "high": 1400, "games": 200}
        for i, level in enumerate(LEVEL_NAMES)
    }
    path = tmp_path / "ai-strength.json"
    path.write_text(json.dumps({"lefe": measured}), encoding="utf-8")
    monkeypatch.setattr(strength, "STRENGTH_PATH", path)
    offered = {level: name for name, level in level_choices(language, "lefe")}
    assert list(offered) == list(LEVEL_NAMES)
    for index, level in enumerate(LEVEL_NAMES):
        name = offered[level]
        suffix = " · " + ELO_WORDS[language].format(elo=1234 + index)
        assert name.endswith(suffix) and len(name) <= 100, name
        described = translate(language, LEVEL_TEXT_IDS[level])
        kept = name[: -len(suffix)]
        if len(described) + len(suffix) <= 100:
            assert kept == described
        else:
            # cut at a word's edge or not, it ends in an ellipsis and keeps the start
            assert kept.endswith("…") and described.startswith(kept[:-1])
    # another game has no strength in this file: no Elo there
    assert all("Elo" not in name for name, _ in level_choices(language, "dalen"))
    # a description too long to sit beside its strength is cut, its start kept
    long_text = "hard: " + "reads very deep " * 6

    def longer_hard(lang: str, message_id: str, **values: object) -> str:
        if message_id == LEVEL_TEXT_IDS["hard"]:
            return long_text
        return translate(lang, message_id, **values)

    monkeypatch.setattr("bot.common.levels.translate", longer_hard)
    hard = dict((level, name) for name, level in level_choices(language, "lefe"))["hard"]
    suffix = " · " + ELO_WORDS[language].format(elo=1237)
    assert len(hard) <= 100 and hard.endswith("… · " + suffix[3:]), hard
    assert long_text.startswith(hard[: -len(suffix) - 1])


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_description_fits_beside_a_four_digit_strength_uncut(language: str) -> None:
    # the catalogues' descriptions are short enough that Discord's 100 characters hold each
    # with its strength whole: no member reads "(up to ~5 s a…" (the cut is a safety net)
    suffix = " · " + ELO_WORDS[language].format(elo=2999)
    for level in LEVEL_NAMES:
        described = translate(language, LEVEL_TEXT_IDS[level])
        assert len(described) + len(suffix) <= levels.CHOICE_NAME_LIMIT, described


def test_a_level_s_word_in_either_language_names_the_level() -> None:
    # every engine level has its description and its word
    assert list(LEVEL_TEXT_IDS) == list(LEVEL_WORD_IDS) == list(LEVEL_NAMES)
    assert level_typed("easy") == "easy"
    assert level_typed(" Leicht ") == "easy"
    assert level_typed("MEISTER") == "master"
    assert level_typed("Anfänger") == "beginner"
    assert level_typed("mittel") == "normal"
    assert level_typed("schwer") == "hard"
    assert level_typed("hardest") is None
    assert level_typed("") is None


async def test_a_typed_level_starts_the_game_and_a_wrong_one_is_refused_with_the_list(
    sim: Any, world: Any, language: str, make_bot: Any
) -> None:
    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    word = {"en": "Master", "de": "Meister"}[language]
    started = await sim.slash(
        world.alice, "play", game="lefe", opponent=sim.bot_user, size=5, level=word
    )
    number = re.search(r"#(\d+)", started.last_message.text)
    assert number is not None, started.last_message.text
    match = await stored_match(handle, int(number.group(1)))
    assert match.vs_bot and match.bot_level == "master"
    posted = [m.id for m in world.channel.messages if not m.ephemeral]
    hostile = f"**<@{world.alice.id}>** @everyone " + "x" * 3000
    wrong = await sim.slash(
        world.bob, "play", game="lefe", opponent=sim.bot_user, size=5, level=hostile
    )
    assert wrong.ephemeral
    levels = {
        "en": "The levels are: beginner, easy, normal, hard, master.",
        "de": "Die Stufen sind: Anfänger, leicht, mittel, schwer, Meister.",
    }[language]
    assert levels in wrong.text
    # what was typed is quoted short, with no mention syntax or markdown left in it
    assert len(wrong.text) < 200 and "…" in wrong.text, wrong.text
    assert f"<@{world.alice.id}>" not in wrong.text and "@everyone" not in wrong.text
    assert "**" not in wrong.text.replace("\\*", "")
    assert [m.id for m in world.channel.messages if not m.ephemeral] == posted, "refusal posted"
    sim.assert_no_bot_errors()


async def test_import_offers_the_levels_of_the_pasted_record_s_game_and_reads_typed_ones(
    sim: Any, world: Any, language: str, make_bot: Any
) -> None:
    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    record = '[Game "Lublache"] [Size "7"]'
    offered = await sim.autocomplete(world.alice, "import", option="level", value="", record=record)
    assert [choice["value"] for choice in offered] == list(LEVEL_NAMES)
    assert [choice["name"] for choice in offered] == [
        name for name, _ in level_choices(language, "lublache")
    ]
    easy = next(choice for choice in offered if choice["value"] == "easy")
    assert " Elo" in easy["name"]  # the committed ladder has measured Lublache's easy
    # a record not yet readable (still being typed): the levels, with no strength
    unread = await sim.autocomplete(
        world.alice, "import", option="level", value="", record='[Game "Lubl'
    )
    assert [choice["name"] for choice in unread] == [
        translate(language, LEVEL_TEXT_IDS[level]) for level in LEVEL_NAMES
    ]
    # a level's word typed in the member's language starts the practice game at it
    word = {"en": "easy", "de": "leicht"}[language]
    imported = await sim.slash(world.alice, "import", record=record, level=word)
    number = re.search(r"#(\d+)", imported.last_message.text)
    assert number is not None, imported.last_message.text
    match = await stored_match(handle, int(number.group(1)))
    assert match.vs_bot and match.game == "lublache" and match.bot_level == "easy"
    # anything else is refused privately before the record is read, with the list
    wrong = await sim.slash(world.bob, "import", record=record, level="<@everyone> hardest")
    assert wrong.ephemeral and "@everyone" not in wrong.text
    assert translate(language, LEVEL_WORD_IDS["master"]) in wrong.text
    assert not await handle.client.service.user_matches(world.bob.id)
    sim.assert_no_bot_errors()
