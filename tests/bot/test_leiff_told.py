"""What a Leiff player is told in their own DM, and how the table's lines read.

- The Kneipenphilosoph's victim reads in their DM that their cards were rearranged (their
  known cards turn face down in the picture; "Your move." alone said nothing of why).
- At the Hinterhältiger Magier's exchange each of the two players reads in their own DM
  whom they exchange with and which card to give; the third player reads neither.
- Nobody reads a card they may not know, in any message (the driver's audit).
- A lobby whose Start was clicked says that the game has started, not who joined last.

Every line is compared with the catalogue's message in the reader's language.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import get_game
from engine.leiff.events import said
from i18n import translate
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import enable_expansions, open_table, table_id
from wording.service_words import leiff_event

# the options a server with the special cards and drinking rules on gives a table
OPTIONS = {"target": 50, "specials": True, "drinking": True, "water": False, "teams": False}


def _next_action(state: Any, card: str) -> tuple[int, str] | None:
    """The plain way on to ``card``'s effect: draw, keep what is drawn in slot 4 unless it
    is ``card`` (discarded, so its effect comes), the engine's default for anything else;
    None once ``card``'s effect is waited for."""
    waiting = state.waiting_for()
    if waiting["step"] == "effect" and waiting.get("card") == card:
        return None
    if waiting["step"] == "turn":
        return waiting["turn"], "draw"
    if waiting["step"] == "hold":
        held = state.view(waiting["turn"])["holding"]["card"]
        return waiting["turn"], "discard" if held == card else "swap 4"
    owner = waiting["owners"][0]
    return owner, state.default_action(owner)


def seed_for(card: str, players: int = 3) -> int:
    """A deal where :func:`_next_action` soon brings ``card``'s effect to a seat whose
    left neighbour may be its target."""
    game = get_game("leiff")
    for seed in range(2000):
        state = game.new(players=players, seed=seed, options=OPTIONS)
        for _ in range(60):
            step = _next_action(state, card)
            if step is None:
                return seed
            state = state.play(*step)
    raise AssertionError(f"no seed brings the {card} early")


async def play_to(table: LeiffTable, players: list[Any], card: str) -> tuple[Any, int]:
    """Click on through the players' DMs until ``card``'s effect is waited for; the state
    and the seat to use it."""
    for _ in range(60):
        state = await table.state()
        step = _next_action(state, card)
        if step is None:
            return state, state.waiting_for()["owners"][0]
        seat, action = step
        await table.act(players[seat], action)
    raise AssertionError(f"the {card} did not come")


async def start_table(sim: Any, world: Any, make_bot: Any, language: str, card: str) -> Any:
    players = [world.alice, world.bob, world.carol]
    seed = seed_for(card)
    handle = await sim.start_bot(lambda: make_bot(seed_source=lambda: seed))
    await enable_expansions(sim, world, language)
    match_id, _ = await open_table(sim, world, players, language)
    table = LeiffTable(
        sim,
        handle,
        match_id,
        players,
        world.channel,
        channel_language=language,
        languages={p.id: language for p in players},
    )
    await table.audit()
    return table, players


def line(language: str, says: dict[str, Any], names: list[str]) -> str:
    """A Leiff event's line as the reader reads it, from the catalogue."""
    return leiff_event(language, {"said": says, "names": names, "text": ""})


def dm_texts(sim: Any, players: list[Any]) -> dict[int, dict[int, str]]:
    """Each player's DMs as they read now: message id -> text."""
    return {p.id: {m.id: m.text for m in sim.dms(p)} for p in players}


def news(sim: Any, user: Any, before: dict[int, dict[int, str]]) -> str:
    """What the bot wrote to ``user`` in DMs since ``before``: new messages, and messages
    edited to say something else."""
    earlier = before[user.id]
    return "\n".join(m.text for m in sim.dms(user) if earlier.get(m.id) != m.text)


@pytest.mark.compressed_rate_limits
async def test_the_philosophers_victim_is_told_in_their_dm(sim, world, make_bot, language):
    table, players = await start_table(sim, world, make_bot, language, "philosopher")
    state, seat = await play_to(table, players, "philosopher")
    victim = next(int(a.split()[1]) for a in state.legal_actions(seat) if a.startswith("rotate "))
    onlooker = next(s for s in range(3) if s not in (seat, victim))
    before = dm_texts(sim, players)
    await table.act(players[seat], f"rotate {victim} 1")

    names = [f"<@{p.id}>" for p in players]
    told = line(language, said("rotate_victim", player=seat), names)
    assert told in news(sim, players[victim], before)
    assert told not in news(sim, players[onlooker], before)
    assert told not in news(sim, players[seat], before)
    # the victim's picture shows none of their cards now (the audit checked it is their
    # view), and the channel says who rearranged whose cards, and nothing more
    after = await table.state()
    assert after.view(victim)["hands"][victim] == [None] * len(after.hands[victim])
    public = line(language, said("rotate", player=seat, target_player=victim), names)
    assert any(public in m.text for m in world.channel.messages)
    assert table.checked_pictures > 0
    sim.assert_no_bot_errors()


@pytest.mark.compressed_rate_limits
async def test_the_magiers_two_players_each_read_whom_they_exchange_with(
    sim, world, make_bot, language
):
    table, players = await start_table(sim, world, make_bot, language, "magician")
    state, seat = await play_to(table, players, "magician")
    target = next(int(a.split()[1]) for a in state.legal_actions(seat) if a.startswith("enchant "))
    await table.act(players[seat], f"enchant {target}")
    # on to the round's end: the next player calls Leiff as soon as they may
    before = dm_texts(sim, players)
    for _ in range(20):
        state = await table.state()
        waiting = state.waiting_for()
        if waiting["step"] == "exchange":
            break
        if waiting["step"] == "turn" and "leiff" in state.legal_actions(waiting["turn"]):
            before = dm_texts(sim, players)
            await table.act(players[waiting["turn"]], "leiff")
            continue
        step = _next_action(state, "none")
        assert step is not None
        await table.act(players[step[0]], step[1])
    else:
        raise AssertionError("the round did not end")
    assert sorted(waiting["owners"]) == sorted([seat, target])

    names = [f"<@{p.id}>" for p in players]
    to_target = line(language, said("exchange_give_best", player=seat), names)
    to_magier = line(language, said("exchange_give_worst", target_player=target), names)
    third = next(s for s in range(3) if s not in (seat, target))
    target_news = news(sim, players[target], before)
    magier_news = news(sim, players[seat], before)
    third_news = news(sim, players[third], before)
    assert to_target in target_news and to_magier not in target_news
    assert to_magier in magier_news and to_target not in magier_news
    assert to_target not in third_news and to_magier not in third_news
    # each line names the other player, once
    assert names[seat] in to_target and names[target] not in to_target
    assert names[target] in to_magier and names[seat] not in to_magier
    # the exchange goes on from their DMs, and nobody read a card they may not know
    for owner in waiting["owners"]:
        now = await table.state()
        if owner in now.waiting_for()["owners"]:
            await table.act(players[owner], now.default_action(owner))
    assert (await table.state()).round_over
    sim.assert_no_bot_errors()


@pytest.mark.compressed_rate_limits
async def test_a_started_lobby_says_the_game_started(sim, world, language, bot):
    lobby = (await sim.slash(world.admin, "play", game="leiff")).last_message
    for guest in (world.alice, world.bob):
        await sim.click(guest, lobby, translate(language, "bot.leiff.button.join"))
    joined = translate(language, "service.say.lobby_joined", user=f"<@{world.bob.id}>")
    assert joined in sim.state.messages[lobby.id].text
    await sim.click(world.admin, lobby, translate(language, "bot.leiff.button.start"))
    shown = sim.state.messages[lobby.id]
    lines = shown.text.split("\n")
    assert lines[0] == translate(language, "bot.leiff.header", table=table_id(lobby))
    assert lines[-1] == translate(language, "bot.leiff.lobby.started")
    assert joined not in shown.text
    assert all(f"**{name}**" in lines[1] for name in ("admin", "alice", "bob"))
    assert all(b.disabled for b in shown.buttons)
    # the table itself follows in a message of its own
    assert any(a.filename == "table.png" for m in world.channel.messages for a in m.attachments)
    sim.assert_no_bot_errors()


def labels(message: Any) -> dict[str, str]:
    """Every button and menu option a hand message offers: action -> label."""
    offered = {b.custom_id.rsplit("|", 1)[-1]: b.label for b in message.buttons if b.label}
    return offered | {o.value: o.label for s in message.selects for o in s.options}


def own_card_label(language: str, action: str, seat: int, names: list[str]) -> str | None:
    """How an 8's look or a 9's swap touching ``seat``'s own card must read to them."""
    if action.startswith("~trade:"):  # the first card of a swap
        owner, slot = action.removeprefix("~trade:").split(".")
        if int(owner) == seat:
            return translate(language, "bot.leiff.action.trade_first_yours", slot=slot)
        return None
    kind, *cards = action.split()
    spots = [tuple(int(n) for n in c.split(".")) for c in cards if "." in c]
    if kind == "peek" and spots and spots[0][0] == seat:
        return translate(language, "bot.leiff.action.look", slot=spots[0][1])
    if kind == "trade" and spots[0][0] == seat:
        return translate(
            language,
            "bot.leiff.action.trade_yours",
            slot=spots[0][1],
            other=names[spots[1][0]],
            other_slot=spots[1][1],
        )
    if kind == "trade" and spots[1][0] == seat:
        return translate(
            language,
            "bot.leiff.action.trade_with_yours",
            owner=names[spots[0][0]],
            slot=spots[0][1],
            other_slot=spots[1][1],
        )
    return None


@pytest.mark.compressed_rate_limits
@pytest.mark.parametrize("card", ["8", "9"])
async def test_a_player_s_own_cards_are_your_slots_in_their_menus(
    sim, world, make_bot, language, card
):
    """An 8 looks at any card and a 9 swaps any two: in the player's own menus their own
    cards read "your slot 2" ("deine Karte 2"), as the match buttons do, never their own
    name ("Look at alice's slot 2" in Alice's DM)."""
    table, players = await start_table(sim, world, make_bot, language, card)
    state, seat = await play_to(table, players, card)
    player, names = players[seat], [p.name for p in players]
    hand = await table.hand_message(player)
    offered = labels(hand)
    if card == "9":
        # a card of another player's whose swaps include the player's own
        pick = next(
            a.split()[1]
            for a in state.legal_actions(seat)
            if a.startswith("trade ") and a.split()[2].startswith(f"{seat}.")
        )
        first = next(s for s in hand.selects if f"~trade:{pick}" in s.values)
        await sim.select(player, hand, first.custom_id, f"~trade:{pick}")
        offered |= labels(sim.state.messages[hand.id])
    own = {a: own_card_label(language, a, seat, names) for a in offered}
    own = {a: text for a, text in own.items() if text is not None}
    assert len(own) >= 3, offered  # the player's own cards are offered
    assert all(offered[a] == text for a, text in own.items()), offered
    assert not any(player.name in label for label in offered.values()), offered
    sim.assert_no_bot_errors()
