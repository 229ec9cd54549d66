"""A three-player Leiff game at a Discord table: lobby, DMs, the closed-DMs fallback, every
kind of move the issue names, and an audit that nobody saw a card they should not."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.features.settings.values import setting_name
from engine.leiff.cards import display_name
from i18n import translate
from i18n.typed import write_switch
from render.leiff import special_subtitle
from tests.bot.helpers import answered_in_channel, pinged
from tests.bot.language_check import service_lines, untranslated
from tests.bot.leiff_driver import LeiffTable, play_to_the_gossip

__all__ = ["service_lines"]  # a fixture

EFFECT_CARDS = {"7", "8", "9", "slot", "philosopher", "waiter", "gossip", "belle", "magician"}


def table_id(message) -> int:
    return int(re.search(r"#(\d+)", message.text).group(1))


async def open_table(sim, world, players, language: str = "en") -> tuple[int, object]:
    """The first player opens a table, the others join, the host starts (the lobby is read
    in the channel's ``language``)."""
    host, *guests = players
    opened = await sim.slash(host, "play", game="leiff")
    join, leave, start, add_bot = (
        translate(language, f"bot.leiff.button.{b}") for b in ("join", "leave", "start", "add_bot")
    )
    lobby = answered_in_channel(
        opened, opened.channel, lambda m: any(b.label == join for b in m.buttons)
    )
    assert {b.label for b in lobby.buttons} == {join, leave, start, add_bot}
    for guest in guests:
        joined = await sim.click(guest, lobby, join)
        assert joined.message.id == lobby.id  # the lobby message is kept up to date in place
    started = await sim.click(host, lobby, start)
    assert all(b.disabled for b in sim.state.messages[lobby.id].buttons)
    # the table's first post is queued by the handler after the click is answered
    await asyncio.gather(*started.handler_tasks, return_exceptions=True)
    return table_id(lobby), started


async def enable_expansions(sim, world, language: str = "en") -> None:
    for key in ("leiff_specials", "leiff_drinking"):
        changed = await sim.slash(world.admin, "settings", key=key, value="on")
        on = write_switch(language, True)
        assert changed.ephemeral and f"{setting_name(language, key)}: **{on}**" in changed.text


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_three_player_game_with_dms_fallback_and_no_leaks(
    sim, world, language, bot, service_lines
):
    """The hidden-information game, in English and in German; the German run also finds
    no English in anything the Discord layer showed."""
    await enable_expansions(sim, world, language)
    sim.close_dms(world.carol)
    players = [world.alice, world.bob, world.carol]
    match_id, _ = await open_table(sim, world, players, language)
    languages = {user.id: language for user in players}
    table = LeiffTable(
        sim,
        bot,
        match_id,
        players,
        world.channel,
        closed_dms={world.carol.id},
        channel_language=language,
        languages=languages,
    )
    await table.audit()

    # Alice and Bob got their hands by DM; Carol is told in the channel, with no card named.
    for user in (world.alice, world.bob):
        hand = sim.dms(user)[-1]
        assert [a.filename for a in hand.attachments] == ["hand.png"]
    assert sim.dms(world.carol) == []
    closed = translate(language, "bot.leiff.dms_closed", name="carol")
    notice = next(m for m in world.channel.messages if m.text == closed)
    assert "[" not in notice.text and pinged(notice) == set()
    shown = await sim.click(world.carol, notice, translate(language, "bot.leiff.button.show_hand"))
    assert shown.ephemeral and shown.last_message.attachments[0].filename == "hand.png"
    # What the deal showed her, as the DM players were told it.
    told = shown.last_message.text.split("\n")[1].split(":")[0]  # without the cards
    assert f"\n{told}: " in sim.dms(world.alice)[-1].text
    if language == "en":
        assert told == "You look at your slots 1 and 2"
    await table.audit()

    done: set[str] = set()
    seen_specials: set[str] = set()
    for _ in range(120):
        state = await table.state()
        public = state.view(None)
        if public["round_over"]:
            break
        top = public["discard_top"]
        waiting = state.waiting_for()
        if waiting["step"] in ("turn", "hold", "effect") and "match" not in done:
            found = _card_equal_to(state, top, lambda seat, other: seat == other)
            if found:
                seat, _, slot = found
                await table.act(players[seat], f"match {slot}")
                done.add("match")
                continue
        if "failed catch" not in done and waiting["step"] == "turn":
            victim = (2 + 1) % 3  # Carol (closed DMs) catches Alice's card
            slot = next(n for n, card in enumerate(state.hands[0], 1) if card != top)
            assert victim == 0
            await table.act(world.carol, f"catch 0.{slot}")
            done.add("failed catch")
            continue
        if "correct catch" not in done and waiting["step"] == "turn":
            found = _card_equal_to(state, top, lambda seat, other: seat != other)
            if found:
                catcher, victim, slot = found
                await table.act(players[catcher], f"catch {victim}.{slot}")
                done.add("correct catch")
                continue
        turn_player = players[waiting["turn"]] if waiting["turn"] is not None else None
        if waiting["step"] == "turn":
            if {"match", "failed catch", "correct catch", "effect"} <= done:
                await table.act(turn_player, "leiff")
                done.add("leiff")
            else:
                await table.act(turn_player, "draw")
        elif waiting["step"] == "hold":
            holding = state.view(waiting["turn"])["holding"]
            if (
                holding["source"] == "draw"
                and holding["card"] in EFFECT_CARDS
                and "effect" not in done
            ):
                await table.act(turn_player, "discard")
            else:
                await table.act(turn_player, "swap 4")
        elif waiting["step"] == "effect":
            owner = waiting["owners"][0]
            subtitle = special_subtitle(waiting["card"], language)
            if subtitle is not None:
                # the card's German name, what it does in the reader's language
                hand = await table.hand_message(players[owner])
                line = translate(
                    language,
                    "bot.leiff.hand_effect",
                    card=display_name(waiting["card"]),
                    subtitle=subtitle,
                )
                assert line in hand.text
                seen_specials.add(waiting["card"])
            actions = [
                a
                for a in state.legal_actions(owner)
                if a != "decline" and not a.startswith(("match", "catch"))
            ]
            if waiting["card"] == "gossip":
                rule = {"en": "Whoever laughs draws a card", "de": "Wer lacht, zieht eine Karte"}
                await table.write_rule(players[owner], rule[language])
            else:
                await table.act(players[owner], actions[0])
            done.add("effect")
        else:
            owner = waiting["owners"][0]
            await table.act(players[owner], state.default_action(owner))
    assert seen_specials, "no special card (or slot machine) effect came up"
    assert {"match", "failed catch", "correct catch", "effect", "leiff"} <= done, done

    # The round was scored and the drinking ledger announced in the channel.
    state = await table.state()
    assert state.view(None)["round_over"] and state.view(None)["round_scores"] is not None
    channel_text = "\n".join(m.text for m in world.channel.messages)
    drinks = r"sip|shot|schluck"
    assert re.search(drinks, channel_text, re.IGNORECASE), "no drinking announcement"
    assert "(s)" not in channel_text, "plurals written as (s)"
    # The end of the round pings nobody: anyone may deal the next round.
    over = translate(language, "bot.leiff.round_over")
    round_end = next(m for m in world.channel.messages if over in m.text)
    assert pinged(round_end) == set()
    # Every picture and text of the game passed the audit.
    assert table.checked_pictures >= 20 and table.checked_texts >= 3
    sim.assert_no_bot_errors()
    if language == "de":
        names = ("alice", "bob", "carol", "admin")
        problems = untranslated(sim, names=names, ignore=service_lines)
        assert not problems, "\n".join(problems)
        service_english, engine_english = service_lines.english(names)
        assert not service_english, service_english
        # the Leiff engine's own event lines too (its codes, worded from the catalogue)
        assert service_lines.engine, "no Leiff engine line was shown"
        assert not engine_english, engine_english


def _card_equal_to(state, top, relation):
    """(actor seat, owner seat, slot) of a card equal to the discard top, by the truth."""
    for owner, hand in enumerate(state.hands):
        for slot, card in enumerate(hand, 1):
            if card != top:
                continue
            for actor in range(state.players):
                if relation(actor, owner):
                    wanted = f"match {slot}" if actor == owner else f"catch {owner}.{slot}"
                    if wanted in state.legal_actions(actor):
                        return actor, owner, slot
    return None


def seed_with_an_early_gossip(players: int) -> int:
    """A deal seed where, drawing every turn, someone draws the Klatschtante soon."""
    from engine import get_game

    game = get_game("leiff")
    for seed in range(500):
        state = game.new(players=players, seed=seed, options={"specials": True})
        for _ in range(40):
            waiting = state.waiting_for()
            if waiting["step"] == "turn":
                state = state.play(waiting["turn"], "draw")
            elif waiting["step"] == "hold":
                if state.view(waiting["turn"])["holding"]["card"] == "gossip":
                    return seed
                state = state.play(waiting["turn"], "swap 4")
            else:
                owner = waiting["owners"][0]
                state = state.play(owner, state.default_action(owner))
    raise AssertionError("no seed draws the Klatschtante early")


# A whole game in one channel: its point is the flow, not the limits (see conftest).
@pytest.mark.compressed_rate_limits
async def test_klatschtante_rule_by_form_never_pings_and_no_drinking_when_disabled(
    sim, world, language, make_bot
):
    seed = seed_with_an_early_gossip(2)
    handle = await sim.start_bot(lambda: make_bot(seed_source=lambda: seed))
    changed = await sim.slash(world.admin, "settings", key="leiff_specials", value="on")
    on = write_switch(language, True)
    assert f"{setting_name(language, 'leiff_specials')}: **{on}**" in changed.text
    players = [world.alice, world.bob]
    match_id, _ = await open_table(sim, world, players, language)
    table = LeiffTable(
        sim,
        handle,
        match_id,
        players,
        world.channel,
        channel_language=language,
        languages={user.id: language for user in players},
    )
    await table.audit()
    rule = f"<@{world.carol.id}> and @everyone sing"
    writer = await play_to_the_gossip(table, players)
    await table.write_rule(writer, rule)
    state = await table.state()
    assert state.view(None)["rule"] == rule
    # the form spoke the writer's language
    (form,) = [i.modal for i in sim.interactions if getattr(i, "modal", None) is not None]
    assert form.title == translate(language, "bot.leiff.rule_form.title")
    assert [f["label"] for f in form.fields] == [translate(language, "bot.leiff.rule_form.label")]
    announced = [m for m in world.channel.messages if rule in m.text]
    assert announced, "the new rule was not shown in the channel"
    for message in announced:
        assert world.carol.id not in pinged(message)
        assert not (message.allowed_mentions or {}).get("parse")
    channel_text = "\n".join(m.text for m in world.channel.messages)
    assert "sip" not in channel_text and "shot" not in channel_text
    sim.assert_no_bot_errors()


async def test_clock_tick_plays_the_default_for_a_slow_player(sim, world, bot, clock):
    players = [world.alice, world.bob]
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, bot, match_id, players, world.channel)
    await table.audit()
    before = await table.state()
    turn = before.waiting_for()["turn"]
    clock.advance(301)  # past the default 300 s per turn
    assert await bot.client.tick_once() == 1
    await table.audit()
    after = await table.state()
    assert after.log[-1] == (turn, "draw")
    assert "draw" in world.channel.messages[-1].text
    sim.assert_no_bot_errors()
