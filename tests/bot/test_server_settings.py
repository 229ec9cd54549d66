"""``/settings`` (``/einstellungen``) through the real client, as an admin uses it in
either language: each setting by its own name, values typed in the words of either
language ("an", "Nacht", "2 Tage", "90 Min."), the value autocompleted for the setting
chosen, times written as "1 Tag" / "1 day", and refusals that name only values the admin
can type — typed back, each of them is taken."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.features.settings.values import SETTING_TEXT_IDS, THEME_TEXT_IDS, setting_name
from i18n import translate
from matchcore.service import GuildSettings
from matchcore.service.guild_settings import CHOICES, COUNTS, DURATIONS, SWITCHES
from render.themes import list_themes
from tests.bot.language_check import untranslated

ADMIN_NAMES = ("admin", "alice", "bob", "carol")


@pytest.fixture
def german(world):
    """A German server whose admin's Discord client is German (before the bot starts)."""
    world.guild.preferred_locale = "de"
    world.admin.locale = "de"
    return world


def de(msgid: str, **params: Any) -> str:
    return translate("de", msgid, **params)


async def change(sim, world, key: str, value: str):
    """The admin sets ``key`` to ``value``; the reply must be a confirmation."""
    reply = await sim.slash(world.admin, "settings", key=key, value=value)
    assert reply.ephemeral
    assert reply.text.startswith(translate(world.admin.locale or "en", "bot.settings.title")), (
        reply.text
    )
    return reply


async def stored(bot, world) -> GuildSettings:
    return await bot.client.service.get_settings(world.guild.id)


def line(language: str, key: str, value: str) -> str:
    return f"{setting_name(language, key)}: **{value}**"


def test_every_setting_and_theme_has_a_name_and_a_kind() -> None:
    """A setting added later is offered by /settings only with a name in the catalogues,
    and read only as one of the kinds of values (language has an option of its own)."""
    keys = set(GuildSettings.all_keys()) - {"language"}
    assert set(SETTING_TEXT_IDS) == keys
    kinds = [
        set(SWITCHES),
        set(DURATIONS),
        set(COUNTS),
        set(CHOICES),
        {"allowed_channels", "puzzle_channel", "season_channel", "tournament_role"},
    ]
    assert sum(len(kind) for kind in kinds) == len(keys) and set().union(*kinds) == keys
    assert set(THEME_TEXT_IDS) == set(list_themes())


async def test_a_german_admin_changes_every_setting_in_german(sim, german, bot):
    world = german
    shown = await sim.slash(world.admin, "settings")
    assert line("de", "leiff_specials", "aus") in shown.text
    assert f"{line('de', 'board_move_seconds', '1 Tag')} (erlaubt: 1 Min. bis 14 Tage)" in (
        shown.text
    )

    # on/off: the words the list shows
    reply = await change(sim, world, "leiff_specials", "an")
    assert de("bot.settings.changed", setting=line("de", "leiff_specials", "an")) in reply.text
    await change(sim, world, "leiff_drinking", "Ja")
    await change(sim, world, "leiff_teams_allowed", "AUS")
    # a theme by the name /vorlieben offers
    reply = await change(sim, world, "theme", "Nacht")
    assert line("de", "theme", "Nacht") in reply.text
    # times as "1 Tag", "2 Std.", "90 Min."
    reply = await change(sim, world, "board_move_seconds", "2 Tage")
    assert f"{line('de', 'board_move_seconds', '2 Tage')} (erlaubt: 1 Min. bis 14 Tage)" in (
        reply.text
    )
    await change(sim, world, "leiff_turn_seconds", "90 Min.")
    await change(sim, world, "leiff_choice_seconds", "2 Std.")
    await change(sim, world, "challenge_expiry_seconds", "1 Tag und 12 Stunden")
    reply = await change(sim, world, "challenge_cooldown_seconds", "1h")
    assert line("de", "challenge_cooldown_seconds", "1 Std.") in reply.text
    # numbers
    await change(sim, world, "leiff_max_timeouts", "5")
    await change(sim, world, "leiff_target", "100")
    await change(sim, world, "max_matches_per_user", "12")
    # channels, by name or by mention; "alle" allows every channel again
    reply = await change(sim, world, "allowed_channels", f"#{world.other_channel.name}")
    assert line("de", "allowed_channels", f"<#{world.other_channel.id}>") in reply.text
    assert (await stored(bot, world)).allowed_channels == (world.other_channel.id,)
    await change(sim, world, "allowed_channels", "alle")
    # the language of the channel messages
    reply = await sim.slash(world.admin, "settings", language="en")
    # said to be changed, as every other setting is
    changed = de("bot.settings.changed", setting=de("bot.settings.language", value="English"))
    assert reply.text.splitlines()[1] == changed, reply.text

    settings = await stored(bot, world)
    assert settings.leiff_specials and settings.leiff_drinking and not settings.leiff_teams_allowed
    assert settings.theme == "night"
    assert settings.board_move_seconds == 2 * 86400
    assert settings.leiff_turn_seconds == 90 * 60
    assert settings.leiff_choice_seconds == 2 * 3600
    assert settings.challenge_expiry_seconds == 36 * 3600
    assert settings.challenge_cooldown_seconds == 3600
    assert (settings.leiff_max_timeouts, settings.leiff_target) == (5, 100)
    assert settings.max_matches_per_user == 12
    assert settings.allowed_channels == () and settings.language == "en"

    # Nothing the admin read was English (nor a setting's stored key).
    assert untranslated(sim, names=ADMIN_NAMES) == []
    everything = "\n".join(i.text for i in sim.state.interactions.values() if i.text)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", everything), "a stored key was shown"
    sim.assert_no_bot_errors()


async def test_words_of_either_language_work_whatever_the_client(sim, world, bot):
    # The admin's Discord is English; German words are read all the same.
    await change(sim, world, "leiff_specials", "an")
    await change(sim, world, "theme", "papier")
    await change(sim, world, "board_move_seconds", "3 Tage")
    settings = await stored(bot, world)
    assert settings.leiff_specials and settings.theme == "paper"
    assert settings.board_move_seconds == 3 * 86400
    reply = await change(sim, world, "leiff_specials", "off")
    assert line("en", "leiff_specials", "off") in reply.text
    reply = await change(sim, world, "board_move_seconds", "90 min")
    assert f"{line('en', 'board_move_seconds', '1 h 30 min')} (allowed: 1 min to 14 days)" in (
        reply.text
    )
    sim.assert_no_bot_errors()


def typeable(text: str, typed: str) -> list[str]:
    """The values a refusal names: each in „…“ (German) or “…” (English) quotes but the
    text typed, and the bounds of "erlaubt: … bis …"."""
    quoted = [q for q in re.findall(r"[„“]([^“”]+)[“”]", text) if q != typed]
    bounds = re.search(r"(?:erlaubt|allowed): (.+?) (?:bis|to) (.+?)\)", text)
    return quoted + (list(bounds.groups()) if bounds else [])


async def test_german_refusals_name_only_values_that_are_then_taken(sim, german, bot):
    world = german
    cases = {
        "leiff_specials": ("jein", ["an", "aus"]),
        "theme": ("Neon", ["klassisch", "Nacht", "Papier"]),
        "leiff_target": ("75", ["50", "100"]),
        "board_move_seconds": ("bald", None),
        "leiff_max_timeouts": ("viele", None),
        "allowed_channels": ("nirgendwo", None),
    }
    for key, (typed, words) in cases.items():
        before = await stored(bot, world)
        refused = await sim.slash(world.admin, "settings", key=key, value=typed)
        assert refused.ephemeral and setting_name("de", key) in refused.text, refused.text
        assert f"„{typed}“" in refused.text and (await stored(bot, world)) == before
        named = words or typeable(refused.text, typed)
        if words:
            listed = ", ".join(words[:-1]) + " oder " + words[-1]
            assert listed in refused.text, refused.text
        assert named, refused.text
        for value in named:
            if key == "allowed_channels":
                continue  # names "alle Kanäle" (below), and channels as #name
            await change(sim, world, key, value)
        if key == "allowed_channels":
            assert de("bot.settings.all_channels") in refused.text
            await change(sim, world, key, de("bot.settings.all_channels"))

    # A time out of range: the refusal writes it, and names the bounds, in German.
    refused = await sim.slash(world.admin, "settings", key="leiff_turn_seconds", value="3")
    assert refused.text == de(
        "bot.settings.error.range",
        name=setting_name("de", "leiff_turn_seconds"),
        value="3 Sek.",
        range="15 Sek. bis 1 Tag",
    )
    assert "Theme" not in refused.text
    for value in typeable(refused.text, "3"):
        await change(sim, world, "leiff_turn_seconds", value)
    assert (await stored(bot, world)).leiff_turn_seconds == 86400
    # a count out of range
    refused = await sim.slash(world.admin, "settings", key="leiff_max_timeouts", value="11")
    assert refused.text.endswith("(erlaubt: 1 bis 10).")
    assert untranslated(sim, names=ADMIN_NAMES) == []
    sim.assert_no_bot_errors()


async def test_a_value_without_its_setting_or_a_setting_without_its_value_is_refused(
    sim, german, bot
):
    world = german
    refused = await sim.slash(world.admin, "settings", value="an")
    assert refused.text == de("bot.settings.error.no_key")
    refused = await sim.slash(world.admin, "settings", key="leiff_water")
    assert refused.text == de("bot.settings.error.no_value", name=setting_name("de", "leiff_water"))
    assert (await stored(bot, world)) == GuildSettings()


async def test_the_value_is_autocompleted_for_the_setting_chosen(sim, german, bot):
    world = german

    async def offered(key: str, typed: str = "") -> list[dict[str, Any]]:
        found = await sim.autocomplete(
            world.admin, "settings", option="value", value=typed, key=key
        )
        assert len(found) <= 25
        assert all(len(c["name"]) <= 100 and len(str(c["value"])) <= 100 for c in found)
        return found

    def names(found: list[dict[str, Any]]) -> list[str]:
        return [c["name"] for c in found]

    assert names(await offered("leiff_specials")) == ["an", "aus (jetzt)"]
    assert names(await offered("leiff_specials", "a")) == ["an", "aus (jetzt)"]
    assert names(await offered("leiff_specials", "an")) == ["an"]
    assert names(await offered("theme")) == ["klassisch (jetzt)", "Nacht", "Papier"]
    assert names(await offered("theme", "n")) == ["Nacht"]
    assert names(await offered("leiff_target")) == ["50 (jetzt)", "100"]
    counts = ["1", "2", "3 (jetzt)", *(str(n) for n in range(4, 11))]
    assert names(await offered("leiff_max_timeouts")) == counts
    assert names(await offered("leiff_max_timeouts", "3")) == ["3 (jetzt)"]
    # a bare number offered in each unit the setting allows
    assert names(await offered("board_move_seconds", "2")) == ["2 Min.", "2 Std.", "2 Tage"]
    assert names(await offered("board_move_seconds", "1h30")) == ["1 Std. 30 Min."]
    # zero is zero in every unit: offered once
    assert names(await offered("challenge_cooldown_seconds", "0")) == ["0 Sek."]
    presets = names(await offered("board_move_seconds"))
    assert presets[0] == "1 Min." and presets[-1] == "14 Tage" and "1 Tag (jetzt)" in presets
    assert names(await offered("board_move_seconds", "3 T")) == ["3 Tage"]
    channels = names(await offered("allowed_channels"))
    assert channels[0] == de("bot.settings.current", value=de("bot.settings.all_channels"))
    assert f"#{world.channel.name}" == channels[1]  # the channel the admin types in first
    assert f"#{world.other_channel.name}" in channels

    # Every value offered is taken as the value it names.
    for key in (*SWITCHES, *DURATIONS, *COUNTS, "theme", "leiff_target", "allowed_channels"):
        for choice in (await offered(key))[:3]:
            reply = await change(sim, world, key, choice["value"])
            written = choice["name"].removesuffix(" (jetzt)")
            if key != "allowed_channels":
                assert line("de", key, written) in reply.text, (key, choice, reply.text)
    # An English admin reads the same values in English.
    world.admin.locale = "en-US"  # Discord sends a region with English
    english = await sim.autocomplete(world.admin, "settings", option="value", key="theme")
    assert [c["name"] for c in english] == ["classic", "night", "paper (now)"]
    english = await sim.autocomplete(world.admin, "settings", option="value", key="leiff_water")
    assert [c["name"] for c in english] == ["on", "off (now)"]
    sim.assert_no_bot_errors()


async def test_settings_are_offered_by_their_names_in_each_language(sim, world, bot):
    (command,) = [c for c in sim.commands(world.guild) if c["name"] == "settings"]
    (key,) = [o for o in command["options"] if o["name"] == "key"]
    (value,) = [o for o in command["options"] if o["name"] == "value"]
    assert value.get("autocomplete") is True
    for choice in key["choices"]:
        english, german = choice["name"], choice["name_localizations"]["de"]
        assert english == setting_name("en", choice["value"])
        assert german == setting_name("de", choice["value"])
        assert "_" not in english and "_" not in german and english != german


async def test_prefs_reads_the_same_words_in_either_language(sim, german, bot):
    """``/vorlieben`` offers and reads on/off and the themes as ``/einstellungen`` does:
    "Nacht" and "night", "an" and "off", whatever the member's language."""
    world = german
    world.alice.locale = "de"
    service = bot.client.service

    async def offered(option: str, typed: str = "") -> list[str]:
        found = await sim.autocomplete(world.alice, "prefs", option=option, value=typed)
        return [c["name"] for c in found]

    assert await offered("theme") == ["klassisch", "Nacht", "Papier"]
    assert await offered("hints", "a") == ["an", "aus"]
    reply = await sim.slash(world.alice, "prefs", theme="Nacht", hints="aus")
    assert reply.ephemeral and de("bot.prefs.theme.chosen", theme="Nacht") in reply.text
    assert de("bot.prefs.hints.off") in reply.text
    chosen = await service.preferences(world.alice.id)
    assert (chosen.theme, chosen.hints) == ("night", False)
    assert await offered("theme") == ["klassisch", "Nacht (jetzt)", "Papier"]
    assert await offered("hints") == ["an", "aus (jetzt)"]
    await sim.slash(world.alice, "prefs", theme="paper", hints="on")  # English words too
    chosen = await service.preferences(world.alice.id)
    assert (chosen.theme, chosen.hints) == ("paper", True)
    # a refusal names the words, in German
    refused = await sim.slash(world.alice, "prefs", theme="Neon")
    assert refused.text == de(
        "bot.settings.error.choice",
        name=de("bot.prefs.theme.name"),
        choices="klassisch, Nacht oder Papier",
        typed="Neon",
    )
    refused = await sim.slash(world.alice, "prefs", hints="vielleicht")
    assert refused.text == de(
        "bot.settings.error.switch",
        name=de("bot.prefs.hints.name"),
        on="an",
        off="aus",
        typed="vielleicht",
    )
    assert (await service.preferences(world.alice.id)) == chosen
    # every theme /vorlieben offers is a value /einstellungen takes
    for name in await offered("theme"):
        await change(sim, world, "theme", name.removesuffix(" (jetzt)"))
    assert untranslated(sim, names=ADMIN_NAMES) == []
    sim.assert_no_bot_errors()


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_prefs_names_each_preference_as_its_refusals_do(sim, world, bot, locale):
    """What /prefs shows and what it refuses call a preference by one name ("Colours of
    your own pictures" in both, not "Theme of ..." in one of them)."""
    world.alice.locale = locale
    language = "de" if locale == "de" else "en"
    shown = (await sim.slash(world.alice, "prefs")).text
    chosen = (await sim.slash(world.alice, "prefs", theme="night", hints="off")).text
    refused = (await sim.slash(world.alice, "prefs", theme="neon")).text
    keys = ("hints", "theme", "turn_dms")
    names = [translate(language, f"bot.prefs.{key}.name") for key in keys]
    assert refused.startswith(f"{names[1]}:"), refused
    for text in (shown, chosen):
        lines = text.splitlines()[1:]
        assert len(lines) == 3 and all(
            line.startswith(name) for line, name in zip(lines, names, strict=True)
        ), text
    sim.assert_no_bot_errors()
