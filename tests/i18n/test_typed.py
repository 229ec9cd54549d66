"""What members type, read in either language; durations written for the reader and read
back (:mod:`i18n.typed`)."""

from __future__ import annotations

import itertools
import random

import pytest

from i18n import LANGUAGES
from i18n.tools import read_catalogue
from i18n.typed import (
    every_word,
    read_duration,
    read_switch,
    shown,
    write_duration,
    write_switch,
)

DAY, HOUR, MINUTE = 86400, 3600, 60


@pytest.mark.parametrize(
    ("typed", "seconds"),
    [
        ("1 day", DAY),
        ("2 days", 2 * DAY),
        ("2 h", 2 * HOUR),
        ("2 hours", 2 * HOUR),
        ("90 min", 90 * MINUTE),
        ("1h30", HOUR + 30 * MINUTE),
        ("1h 30m", HOUR + 30 * MINUTE),
        ("1 Tag", DAY),
        ("2 Tage", 2 * DAY),
        ("2 Std.", 2 * HOUR),
        ("2 Stunden", 2 * HOUR),
        ("90 Min.", 90 * MINUTE),
        ("30 Sek.", 30),
        ("1,5 Std.", 90 * MINUTE),
        ("1.5 h", 90 * MINUTE),
        ("1 Tag und 2 Stunden", DAY + 2 * HOUR),
        ("1 day, 2 hours and 5 minutes", DAY + 2 * HOUR + 5 * MINUTE),
        ("2 Tage 6", 2 * DAY + 6 * HOUR),  # a number after a unit counts the next smaller
        ("1 Woche", 7 * DAY),
        ("2w", 14 * DAY),
        ("  1   DAY ", DAY),
        ("1 TAG", DAY),
        ("86400", DAY),  # a bare number alone counts seconds
        ("0", 0),
    ],
)
def test_durations_are_read_in_either_language(typed: str, seconds: int) -> None:
    assert read_duration(typed) == seconds


@pytest.mark.parametrize(
    "typed",
    ["", "soon", "bald", "h", "2 2", "1 h 2 h", "1 s 2", "-5", "1.5 s", "5 parsecs", "1 day x"],
)
def test_what_is_no_duration_reads_as_none(typed: str) -> None:
    assert read_duration(typed) is None


@pytest.mark.parametrize(
    ("seconds", "english", "german"),
    [
        (0, "0 s", "0 Sek."),
        (30, "30 s", "30 Sek."),
        (60, "1 min", "1 Min."),
        (90, "1 min 30 s", "1 Min. 30 Sek."),
        (2 * HOUR, "2 h", "2 Std."),
        (90 * MINUTE, "1 h 30 min", "1 Std. 30 Min."),
        (DAY, "1 day", "1 Tag"),
        (2 * DAY, "2 days", "2 Tage"),
        (14 * DAY, "14 days", "14 Tage"),
        (DAY + HOUR + MINUTE + 1, "1 day 1 h 1 min 1 s", "1 Tag 1 Std. 1 Min. 1 Sek."),
    ],
)
def test_durations_are_written_for_each_reader(seconds: int, english: str, german: str) -> None:
    assert write_duration("en", seconds) == english
    assert write_duration("de", seconds) == german


def test_every_written_duration_reads_back_in_both_languages() -> None:
    rng = random.Random(31)
    samples = [0, 1, 59, 60, 3599, 3600, DAY - 1, DAY, 14 * DAY]
    samples += [rng.randrange(0, 30 * DAY) for _ in range(500)]
    for seconds, language in itertools.product(samples, LANGUAGES):
        assert read_duration(write_duration(language, seconds)) == seconds, (seconds, language)


def test_on_and_off_are_read_in_every_language_whatever_the_reader() -> None:
    for typed in ("an", "An", "ein", "ja", "on", "ON", "yes", "true", "1"):
        assert read_switch(typed) is True, typed
    for typed in ("aus", "AUS", "nein", "off", "no", "false", "0"):
        assert read_switch(typed) is False, typed
    for typed in ("jein", "", "a", "maybe"):
        assert read_switch(typed) is None, typed
    assert (write_switch("de", True), write_switch("de", False)) == ("an", "aus")
    assert (write_switch("en", True), write_switch("en", False)) == ("on", "off")


def test_no_word_means_two_things() -> None:
    """A word in two typed entries (in any languages) would be read as the first found;
    the catalogues must not allow it."""
    ids = sorted(
        m.id for m in read_catalogue("en") if isinstance(m.id, str) and m.id.startswith("typed.")
    )
    assert len(ids) >= 8
    for first, second in itertools.combinations(ids, 2):
        shared = every_word(first) & every_word(second)
        assert not shared, (first, second, shared)


def test_the_word_shown_is_one_that_is_read() -> None:
    ids = [m.id for m in read_catalogue("en") if str(m.id).startswith("typed.")]
    for msgid, language in itertools.product(ids, LANGUAGES):
        assert shown(language, msgid).casefold().removesuffix(".") in every_word(msgid)
