"""Leiff's rules: dealing, which actions are legal, and applying one action to a table.

Everything here works on a private copy of a :class:`Table` (see ``state.py``), so an action
that turns out illegal half-way may simply raise: the caller throws the copy away.
"""

from __future__ import annotations

from engine.errors import IllegalMove
from engine.leiff.actions import Action
from engine.leiff.cards import display_name
from engine.leiff.events import PUBLIC, Event, Param, Said, event, player, said
from engine.leiff.scoring import finish_round, record_drink
from engine.leiff.table import PLAY_STEPS, Table

HAND_SIZE = 4
MATCH_PENALTY = 2  # cards drawn for a wrong match, and by a player whose card is caught
CATCH_PENALTY = 1  # cards drawn by a catcher who was wrong
SAMPLE_RULE = "Whoever laughs at their own joke drinks a sip."

Events = list[Event]

# Which action kinds answer which effect.
EFFECT_ACTIONS: dict[str, frozenset[str]] = {
    "peek_own": frozenset({"peek"}),
    "peek_any": frozenset({"peek_at"}),
    "trade": frozenset({"trade"}),
    "slot": frozenset({"slot_discard", "slot_give"}),
    "philosopher": frozenset({"rotate"}),
    "waiter": frozenset({"immune"}),
    "gossip": frozenset({"rule"}),
    "belle": frozenset({"belle_link", "belle_show", "belle_swap"}),
    "magician": frozenset({"enchant"}),
}


# ---- dealing ------------------------------------------------------------------------------
def deal(t: Table, events: Events) -> None:
    """Start the next round: a freshly shuffled full deck, the set-up, the first look."""
    n = t.players
    t.round += 1
    t.first = 0 if t.round == 1 else (t.first + 1) % n
    labels = t.deck.cards(t.options.specials)
    if len(labels) < HAND_SIZE * n + 2:
        raise ValueError(f"this deck has too few cards for {n} players")
    order = list(range(len(labels)))
    t.rng("shuffle").shuffle(order)
    if t.round == 1 and t.deck_order:
        front = []
        for wanted in t.deck_order:
            pick = next((c for c in order if labels[c] == wanted), None)
            if pick is None:
                raise ValueError(f"deck_order asks for more {wanted!r} cards than the deck has")
            order.remove(pick)
            front.append(pick)
        order = front + order
    t.labels = labels
    t.hands = [order[HAND_SIZE * s : HAND_SIZE * (s + 1)] for s in range(n)]
    t.discard = [order[HAND_SIZE * n]]
    t.draw = list(reversed(order[HAND_SIZE * n + 1 :]))
    t.known = [set() for _ in range(n + 1)]
    t.holding = None
    t.hold_source = None
    t.effect = None
    t.spy = None
    t.exchange = None
    t.pending_exchanges = []
    t.immune = set()
    t.enchantments = []
    t.doubled = set()
    t.caller = None
    t.drinks = [[0, 0, 0] for _ in range(n)]
    t.refills = 0
    t.exhausted = False
    t.round_scores = None
    events.append(
        event(
            "deal",
            PUBLIC,
            said("deal", round=t.round, card=t.label(t.discard[-1]), player=t.first),
            round=t.round,
            first=t.first,
            card=t.label(t.discard[-1]),
        )
    )
    if t.options.teams:
        t.step = "look"
        t.turn = None
        t.looks_left = [2] * n
        events.append(event("look", PUBLIC, said("look_choose")))
        return
    t.step = "turn"
    t.turn = t.first
    t.looks_left = [0] * n
    for seat in range(n):
        first_two = t.hands[seat][:2]
        t.known[seat].update(first_two)
        first, second = (t.label(c) for c in first_two)  # four cards dealt: two to look at
        events.append(
            event(
                "look",
                [seat],
                said("look_first_two", card=first, second_card=second),
                reveal=[[seat, i + 1, t.label(c)] for i, c in enumerate(first_two)],
            )
        )


# ---- small shared steps ---------------------------------------------------------------------
def _refill(t: Table, events: Events) -> None:
    """Shuffle all but the top discard into a new draw pile, if there is anything to shuffle."""
    if len(t.discard) < 2:
        return
    cards = t.discard[:-1]
    t.discard = t.discard[-1:]
    t.rng(f"refill{t.refills}").shuffle(cards)
    t.refills += 1
    t.draw = cards
    events.append(
        event(
            "refill",
            PUBLIC,
            said("refill"),
        )
    )


def _take_from_draw(t: Table, events: Events) -> int | None:
    if not t.draw:
        _refill(t, events)
    if not t.draw:
        t.exhausted = True
        return None
    return t.draw.pop()


def _add_cards(t: Table, seat: int, count: int, why: str, events: Events) -> int:
    """Seat draws ``count`` cards face down to the end of its hand, unseen by anyone;
    ``why`` is the code of what is said (``add_penalty``, ``add_caught``, ...)."""
    drawn = 0
    for _ in range(count):
        card_id = _take_from_draw(t, events)
        if card_id is None:
            break
        t.hands[seat].append(card_id)
        drawn += 1
    if drawn:
        events.append(
            event(
                "penalty",
                PUBLIC,
                said(why, player=seat, count=drawn, total=len(t.hands[seat])),
                seat=seat,
                ops=[["add", seat]] * drawn,
            )
        )
    return drawn


def _remove_from_hand(t: Table, seat: int, slot: int) -> int:
    """Take a hand card out (later slots move up) and put it face up on the discard pile."""
    card_id = t.hands[seat].pop(slot - 1)
    t.forget(card_id)
    t.discard.append(card_id)
    return card_id


def _drink_event(t: Table, seat: int, events: Events, *, shots: int = 0, hand_out: int = 0) -> None:
    if not t.options.drinking:
        return
    if shots:
        drank = record_drink(t, seat, shots=shots)
        code = "drink_shot_doubled" if seat in t.doubled else "drink_shot"
        params: dict[str, Param] = {"player": seat}
        if not drank:
            code = "drink_immune"
        elif t.link is not None and t.link[1] == seat and t.link[0] not in t.immune:
            code += "_linked"
            params["linked_player"] = t.link[0]
        says = said(code, **params)
        events.append(event("drink", PUBLIC, says, seat=seat, shots=shots if drank else 0))
    if hand_out:
        record_drink(t, seat, hand_out=hand_out)
        events.append(
            event(
                "drink",
                PUBLIC,
                said("drink_hand_out", player=seat, hand_out=hand_out),
                seat=seat,
                hand_out=hand_out,
            )
        )


def _end_turn(t: Table) -> None:
    assert t.turn is not None  # a turn only ends while a round is played
    t.holding = None
    t.hold_source = None
    t.effect = None
    t.spy = None
    t.step = "turn"
    t.turn = (t.turn + 1) % t.players


def _end_round(t: Table, events: Events) -> None:
    """The round is over: first any Magier exchanges, then the reveal and the scores."""
    t.step = "exchange"
    t.turn = None
    t.holding = None
    t.hold_source = None
    t.effect = None
    t.spy = None
    t.pending_exchanges = [list(e) for e in t.enchantments]
    _next_exchange(t, events)


def _next_exchange(t: Table, events: Events) -> None:
    while t.pending_exchanges:
        by, target = t.pending_exchanges.pop(0)
        if target in t.immune:
            events.append(
                event(
                    "exchange",
                    PUBLIC,
                    said("exchange_immune", target_player=target),
                )
            )
            continue
        if not t.hands[by] or not t.hands[target]:
            continue
        t.exchange = {"by": by, "target": target, "gives": {}}
        events.append(
            event(
                "exchange",
                PUBLIC,
                said("exchange", target_player=target, player=by),
                by=by,
                target=target,
            )
        )
        # each of the two reads in their own message whom they exchange with, and which card
        events.append(event("exchange", [target], said("exchange_give_best", player=by)))
        events.append(event("exchange", [by], said("exchange_give_worst", target_player=target)))
        return
    t.exchange = None
    finish_round(t, events)


def settle(t: Table, events: Events) -> None:
    """After every action in play: refill an empty draw pile, or end a round that cannot go on."""
    if t.step not in PLAY_STEPS:
        return
    if not t.draw:
        _refill(t, events)
    if t.exhausted or (not t.draw and t.holding is None):
        if t.holding is not None:
            t.discard.append(t.holding)
        events.append(event("round", PUBLIC, said("draw_pile_empty")))
        t.caller = None
        _end_round(t, events)
        return
    if t.step == "spy" and (t.spy is None or t.spy["left"] <= 0 or not t.hands[t.spy["of"]]):
        _end_turn(t)


# ---- legality -------------------------------------------------------------------------------
def _targetable(t: Table, actor: int, seat: int) -> bool:
    """Card effects may not target a player made immune by the Kellner (oneself is fine)."""
    return seat == actor or seat not in t.immune


def effect_actions(t: Table) -> list[str]:
    """The owed effect choices of the turn player (``decline`` last)."""
    actor = t.turn
    assert actor is not None
    n = t.players
    mine = len(t.hands[actor])
    effect = t.deck.spec(t.effect).effect if t.effect else None
    out: list[str] = []
    if effect == "peek_own":
        out += [f"peek {i}" for i in range(1, mine + 1)]
    elif effect == "peek_any":
        out += [
            f"peek {s}.{i}"
            for s in range(n)
            if _targetable(t, actor, s)
            for i in range(1, len(t.hands[s]) + 1)
        ]
    elif effect == "trade":
        cards = [
            (s, i)
            for s in range(n)
            if _targetable(t, actor, s)
            for i in range(1, len(t.hands[s]) + 1)
        ]
        out += [
            f"trade {a[0]}.{a[1]} {b[0]}.{b[1]}"
            for k, a in enumerate(cards)
            for b in cards[k + 1 :]
            if a[0] != b[0]
        ]
    elif effect == "slot":
        out += [f"slot discard {i}" for i in range(1, mine + 1)]
        out += [f"slot give {s}" for s in range(n) if s != actor and _targetable(t, actor, s)]
    elif effect == "philosopher":
        out += [
            f"rotate {s} {k}"
            for s in range(n)
            if s != actor and _targetable(t, actor, s)
            for k in range(1, len(t.hands[s]))
        ]
    elif effect == "waiter":
        out.append("immune")
    elif effect == "gossip":
        out.append(f"rule {SAMPLE_RULE}")
    elif effect == "belle":
        if t.options.braced:
            out += [f"belle show {i}" for i in range(1, mine + 1)]
        else:
            out.append("belle link")
        if _targetable(t, actor, (actor + 1) % n):
            out.append("belle swap")
    elif effect == "magician":
        out += [f"enchant {s}" for s in range(n) if s != actor and _targetable(t, actor, s)]
    out.append("decline")
    return out


def owner_actions(t: Table, seat: int) -> list[str]:
    """The seat's actions for the step the engine waits on (not the out-of-turn ones)."""
    step = t.step
    if step == "next":
        return ["next"]
    if step == "look":
        if t.looks_left[seat] <= 0:
            return []
        return [f"look {i + 1}" for i, c in enumerate(t.hands[seat]) if c not in t.known[seat]]
    if step == "exchange":
        ex = t.exchange
        if ex is None or seat not in (ex["by"], ex["target"]) or seat in ex["gives"]:
            return []
        return [f"give {i}" for i in range(1, len(t.hands[seat]) + 1)]
    if step == "spy":
        if t.spy is None or seat != t.spy["seat"]:
            return []
        return [f"spy {i}" for i in range(1, len(t.hands[t.spy["of"]]) + 1)]
    if seat != t.turn:
        return []
    if step == "turn":
        out = ["leiff"]
        if t.draw:
            out.append("draw")
        top = t.top()
        if top is not None and t.deck.spec(t.label(top)).takeable and t.hands[seat]:
            out.append("take")
        return out
    if step == "hold":
        out = [f"swap {i}" for i in range(1, len(t.hands[seat]) + 1)]
        if t.hold_source == "draw" or not t.hands[seat]:
            out.append("discard")
        return out
    if step == "effect":
        return effect_actions(t)
    return []


def out_of_turn_actions(t: Table, seat: int) -> list[str]:
    if t.step not in PLAY_STEPS or not t.discard:
        return []
    out = [f"match {i}" for i in range(1, len(t.hands[seat]) + 1)]
    out += [
        f"catch {s}.{i}"
        for s in range(t.players)
        if s != seat
        for i in range(1, len(t.hands[s]) + 1)
    ]
    if t.options.teams:
        mine = t.options.team_of(seat)
        out += [f"penalty {s}" for s in range(t.players) if t.options.team_of(s) != mine]
    return out


def legal_actions(t: Table, seat: int) -> list[str]:
    if t.step == "over" or not 0 <= seat < t.players:
        return []
    return owner_actions(t, seat) + out_of_turn_actions(t, seat)


# ---- applying -------------------------------------------------------------------------------
def _slot(t: Table, seat: int, slot: int, owner: int | None = None) -> int:
    """``slot`` if ``seat`` has it; ``owner`` (a seat) words the error for another's hand."""
    if not 1 <= slot <= len(t.hands[seat]):
        size = len(t.hands[seat])
        if owner is None:
            raise IllegalMove("leiff_no_own_slot", slot=slot, count=size)
        raise IllegalMove("leiff_no_slot", player=player(owner), slot=slot, count=size)
    return slot


def _seat(t: Table, seat: int) -> int:
    if not 0 <= seat < t.players:
        raise IllegalMove("leiff_no_seat", seat=seat, last=t.players - 1)
    return seat


def _why_not_owner(t: Table, seat: int, action: Action) -> IllegalMove:
    """A reason, safe to show anyone, why this seat may not make this choice now."""
    step = t.step
    if step == "over":
        return IllegalMove("game_over")
    if step == "next":
        return IllegalMove("leiff_round_over")
    if step == "look":
        return IllegalMove("leiff_looking")
    if step == "exchange":
        return IllegalMove("leiff_exchange")
    if step == "spy":
        return IllegalMove("leiff_spy")
    assert t.turn is not None  # every step left here is a turn player's
    if seat != t.turn:
        return IllegalMove("leiff_not_your_turn", player=player(t.turn))
    if step == "turn":
        return IllegalMove("leiff_start_turn")
    if step == "hold":
        return IllegalMove("leiff_holding")
    return IllegalMove("leiff_finish_effect")


def apply(t: Table, seat: int, action: Action, events: Events) -> None:
    """Apply one parsed action by ``seat`` to the (private copy of the) table."""
    _seat(t, seat)
    if t.step == "over":
        raise IllegalMove("game_over")
    kind = action.kind
    if action.out_of_turn:
        if t.step not in PLAY_STEPS:
            raise IllegalMove("leiff_out_of_turn_in_play_only")
        _apply_out_of_turn(t, seat, action, events)
        settle(t, events)
        return
    text = str(action)
    allowed = owner_actions(t, seat)
    if text not in allowed and not (kind == "rule" and "rule " + SAMPLE_RULE in allowed):
        raise _illegal_reason(t, seat, action, allowed)
    handler = _HANDLERS[kind]
    handler(t, seat, action, events)
    settle(t, events)


def apply_owned(t: Table, seat: int, action: Action, events: Events) -> None:
    """:func:`apply` for an owner action the caller took from ``owner_actions(t, seat)``,
    without checking it against that list again: the searching bot's rollouts
    (``engine.ai.leiff_rollout``), which choose every action from that list and play
    hundreds of rounds a decision. Anything else goes through :func:`apply`."""
    _HANDLERS[action.kind](t, seat, action, events)
    settle(t, events)


def _illegal_reason(t: Table, seat: int, action: Action, allowed: list[str]) -> IllegalMove:
    """Why an owner action was refused, naming only the seat's own choices (never a hidden
    card: the effect card named is the one just discarded, face up)."""
    if not allowed:
        return _why_not_owner(t, seat, action)
    listed = ", ".join(allowed[:8]) + (" …" if len(allowed) > 8 else "")
    verb = str(action).split()[0]
    if any(a.split()[0] == verb for a in allowed):
        return IllegalMove("leiff_not_possible_now", action=str(action), actions=listed)
    if t.step == "effect" and seat == t.turn:
        return IllegalMove(
            "leiff_not_an_answer",
            action=str(action),
            card=display_name(t.effect or ""),
            actions=listed,
        )
    return _why_not_owner(t, seat, action)


def _apply_out_of_turn(t: Table, seat: int, action: Action, events: Events) -> None:
    top = t.top()
    if action.kind == "penalty":
        if not t.options.teams:
            raise IllegalMove("leiff_penalty_teams_only")
        target = _seat(t, action.numbers[0])
        if t.options.team_of(target) == t.options.team_of(seat):
            raise IllegalMove("leiff_penalty_other_team")
        events.append(
            event("penalty", PUBLIC, said("penalty_table_talk", player=seat, target_player=target))
        )
        _add_cards(t, target, 1, "add_penalty", events)
        return
    if top is None:
        raise IllegalMove("leiff_nothing_to_match")
    top_label = t.label(top)
    if action.kind == "match":
        slot = _slot(t, seat, action.numbers[0])
        card_id = t.hands[seat][slot - 1]
        label = t.label(card_id)
        if label == top_label:
            _remove_from_hand(t, seat, slot)
            events.append(
                event(
                    "match",
                    PUBLIC,
                    said("match_right", player=seat, card=label, slot=slot, top_card=top_label),
                    seat=seat,
                    slot=slot,
                    card=label,
                    right=True,
                    ops=[["remove", seat, slot]],
                )
            )
        else:
            t.reveal_to_all(card_id)
            events.append(
                event(
                    "match",
                    PUBLIC,
                    said("match_wrong", player=seat, card=label, slot=slot, top_card=top_label),
                    seat=seat,
                    slot=slot,
                    card=label,
                    right=False,
                    reveal=[[seat, slot, label]],
                )
            )
            _add_cards(t, seat, MATCH_PENALTY, "add_wrong_match", events)
        return
    # catch
    owner, slot = action.numbers
    _seat(t, owner)
    if owner == seat:
        raise IllegalMove("leiff_catch_own")
    _slot(t, owner, slot, owner)
    card_id = t.hands[owner][slot - 1]
    label = t.label(card_id)
    if label == top_label:
        _remove_from_hand(t, owner, slot)
        events.append(
            event(
                "catch",
                PUBLIC,
                said("catch_right", player=seat, card=label, owner_player=owner, slot=slot),
                seat=seat,
                owner=owner,
                slot=slot,
                card=label,
                right=True,
                ops=[["remove", owner, slot]],
            )
        )
        _add_cards(t, owner, MATCH_PENALTY, "add_caught", events)
        _drink_event(t, owner, events, shots=1)
        _drink_event(t, seat, events, hand_out=1)
    else:
        t.reveal_to_all(card_id)
        events.append(
            event(
                "catch",
                PUBLIC,
                said(
                    "catch_wrong",
                    player=seat,
                    owner_player=owner,
                    slot=slot,
                    card=label,
                    top_card=top_label,
                ),
                seat=seat,
                owner=owner,
                slot=slot,
                card=label,
                right=False,
                reveal=[[owner, slot, label]],
            )
        )
        _add_cards(t, seat, CATCH_PENALTY, "add_wrong_catch", events)
        _drink_event(t, seat, events, shots=1)


# ---- the turn player's actions ----------------------------------------------------------------
def _do_next(t: Table, seat: int, action: Action, events: Events) -> None:
    events.append(event("next", PUBLIC, said("next_round", player=seat)))
    deal(t, events)


def _do_look(t: Table, seat: int, action: Action, events: Events) -> None:
    slot = action.numbers[0]
    card_id = t.hands[seat][slot - 1]
    t.known[seat].add(card_id)
    t.looks_left[seat] -= 1
    events.append(event("look", PUBLIC, said("look_public", player=seat, slot=slot)))
    events.append(
        event(
            "look",
            [seat],
            said("look_private", slot=slot, card=t.label(card_id)),
            reveal=[[seat, slot, t.label(card_id)]],
        )
    )
    if not any(t.looks_left):
        t.step = "turn"
        t.turn = t.first
        events.append(event("turn", PUBLIC, said("look_done", player=t.first)))


def _do_leiff(t: Table, seat: int, action: Action, events: Events) -> None:
    t.caller = seat
    events.append(event("leiff", PUBLIC, said("leiff", player=seat), seat=seat))
    _end_round(t, events)


def _do_draw(t: Table, seat: int, action: Action, events: Events) -> None:
    card_id = t.draw.pop()
    t.holding = card_id
    t.hold_source = "draw"
    t.step = "hold"
    events.append(event("draw", PUBLIC, said("draw", player=seat), seat=seat))
    events.append(
        event(
            "draw",
            [seat],
            said("draw_private", card=t.label(card_id)),
            holding=t.label(card_id),
        )
    )


def _do_take(t: Table, seat: int, action: Action, events: Events) -> None:
    card_id = t.discard.pop()
    t.holding = card_id
    t.hold_source = "discard"
    t.step = "hold"
    label = t.label(card_id)
    events.append(
        event(
            "take",
            PUBLIC,
            said("take", player=seat, card=label),
            seat=seat,
            card=label,
        )
    )


def _do_swap(t: Table, seat: int, action: Action, events: Events) -> None:
    slot = action.numbers[0]
    held = t.holding
    assert held is not None
    old = t.hands[seat][slot - 1]
    t.forget(old)
    t.hands[seat][slot - 1] = held
    t.discard.append(old)
    ops = [["replace", seat, slot]]
    old_label = t.label(old)
    if t.hold_source == "discard":
        t.reveal_to_all(held)
        events.append(
            event(
                "swap",
                PUBLIC,
                said("swap_taken", player=seat, held_card=t.label(held), slot=slot, card=old_label),
                seat=seat,
                slot=slot,
                card=old_label,
                ops=ops,
                reveal=[[seat, slot, t.label(held)]],
            )
        )
    else:
        t.known[seat].add(held)
        events.append(
            event(
                "swap",
                PUBLIC,
                said("swap_drawn", player=seat, slot=slot, card=old_label),
                seat=seat,
                slot=slot,
                card=old_label,
                ops=ops,
            )
        )
        events.append(
            event(
                "swap",
                [seat],
                said("swap_private", slot=slot, card=t.label(held)),
                reveal=[[seat, slot, t.label(held)]],
            )
        )
    _end_turn(t)


def _do_discard(t: Table, seat: int, action: Action, events: Events) -> None:
    held = t.holding
    assert held is not None
    label = t.label(held)
    from_draw = t.hold_source == "draw"
    t.discard.append(held)
    t.holding = None
    t.hold_source = None
    events.append(
        event("discard", PUBLIC, said("discard", player=seat, card=label), seat=seat, card=label)
    )
    spec = t.deck.spec(label)
    if from_draw and spec.effect is not None:
        t.effect = label
        t.step = "effect"
        if spec.effect == "belle" and t.link is not None:
            # a new Dorfschönheit ends the previous one's drinking link, whatever is chosen now
            t.link = None
            events.append(event("effect", PUBLIC, said("belle_link_ends")))
        return
    _end_turn(t)


def _do_decline(t: Table, seat: int, action: Action, events: Events) -> None:
    events.append(event("decline", PUBLIC, said("decline", player=seat, card=t.effect or "")))
    _end_turn(t)


def _effect_event(t: Table, says: Said, **data: object) -> Event:
    return event("effect", PUBLIC, says, card=t.effect, **data)


def _do_peek(t: Table, seat: int, action: Action, events: Events) -> None:
    if action.kind == "peek":
        owner, slot = seat, action.numbers[0]
    else:
        owner, slot = action.numbers
    card_id = t.hands[owner][slot - 1]
    t.known[seat].add(card_id)
    if owner == seat:
        public, private = said("peek_own", player=seat, slot=slot), "peek_own_private"
    else:
        public = said("peek_other", player=seat, owner_player=owner, slot=slot)
        private = "peek_other_private"
    events.append(_effect_event(t, public, seat=seat))
    params: dict[str, Param] = {"slot": slot, "card": t.label(card_id)}
    if owner != seat:
        params["owner_player"] = owner
    events.append(
        event(
            "effect",
            [seat],
            said(private, **params),
            reveal=[[owner, slot, t.label(card_id)]],
        )
    )
    _end_turn(t)


def _do_trade(t: Table, seat: int, action: Action, events: Events) -> None:
    a_seat, a_slot, b_seat, b_slot = action.numbers
    hands = t.hands
    hands[a_seat][a_slot - 1], hands[b_seat][b_slot - 1] = (
        hands[b_seat][b_slot - 1],
        hands[a_seat][a_slot - 1],
    )
    # one of the two cards may be the player's own: "swaps their slot 1 with Ben's slot 3"
    if seat == a_seat:
        says = said(
            "blind_swap_own", player=seat, slot=a_slot, other_player=b_seat, other_slot=b_slot
        )
    elif seat == b_seat:
        says = said(
            "blind_swap_own", player=seat, slot=b_slot, other_player=a_seat, other_slot=a_slot
        )
    else:
        says = said(
            "blind_swap",
            player=seat,
            a_player=a_seat,
            a_slot=a_slot,
            b_player=b_seat,
            b_slot=b_slot,
        )
    events.append(_effect_event(t, says, ops=[["exchange", a_seat, a_slot, b_seat, b_slot]]))
    _end_turn(t)


def _do_slot_discard(t: Table, seat: int, action: Action, events: Events) -> None:
    slot = action.numbers[0]
    card_id = _remove_from_hand(t, seat, slot)
    events.append(
        _effect_event(
            t,
            said("slot_discard", player=seat, card=t.label(card_id), slot=slot),
            ops=[["remove", seat, slot]],
            discarded=t.label(card_id),
        )
    )
    _end_turn(t)


def _do_slot_give(t: Table, seat: int, action: Action, events: Events) -> None:
    target = action.numbers[0]
    events.append(_effect_event(t, said("slot_give", player=seat, target_player=target)))
    _add_cards(t, target, 1, "add_extra", events)
    _end_turn(t)


def _do_rotate(t: Table, seat: int, action: Action, events: Events) -> None:
    target, steps = action.numbers
    hand = t.hands[target]
    size = len(hand)
    t.hands[target] = [hand[(i - steps) % size] for i in range(size)]
    # only the player who turned the cards knows the new order
    for viewer, seen in enumerate(t.known):
        if viewer != seat:
            seen.difference_update(hand)
    events.append(
        _effect_event(
            t,
            said("rotate", player=seat, target_player=target),
            ops=[["scramble", target, seat]],
        )
    )
    events.append(
        event(
            "effect",
            [seat],
            said("rotate_private", target_player=target, count=steps),
            ops=[["rotate", target, steps]],
        )
    )
    # the player whose cards moved reads it in their own message too: what they knew of
    # their hand is gone from their picture
    events.append(event("effect", [target], said("rotate_victim", player=seat)))
    _end_turn(t)


def _do_immune(t: Table, seat: int, action: Action, events: Events) -> None:
    t.immune.add(seat)
    events.append(_effect_event(t, said("immune", player=seat)))
    _end_turn(t)


def _do_rule(t: Table, seat: int, action: Action, events: Events) -> None:
    t.rule = action.text
    events.append(
        _effect_event(t, said("rule", player=seat, rule=action.text or ""), rule=action.text)
    )
    _end_turn(t)


def _do_belle_link(t: Table, seat: int, action: Action, events: Events) -> None:
    right = (seat - 1) % t.players
    t.link = [seat, right]
    events.append(
        _effect_event(
            t,
            said("belle_link", player=seat, right_player=right),
            link=[seat, right],
        )
    )
    _end_turn(t)


def _do_belle_show(t: Table, seat: int, action: Action, events: Events) -> None:
    slot = action.numbers[0]
    card_id = t.hands[seat][slot - 1]
    t.reveal_to_all(card_id)
    label = t.label(card_id)
    events.append(
        _effect_event(
            t,
            said("show", player=seat, slot=slot, card=label),
            reveal=[[seat, slot, label]],
        )
    )
    _end_turn(t)


def _do_belle_swap(t: Table, seat: int, action: Action, events: Events) -> None:
    left = (seat + 1) % t.players
    t.hands[seat], t.hands[left] = t.hands[left], t.hands[seat]
    events.append(
        _effect_event(
            t,
            said("swap_hands", player=seat, left_player=left),
            ops=[["swap_hands", seat, left]],
        )
    )
    _end_turn(t)


def _do_enchant(t: Table, seat: int, action: Action, events: Events) -> None:
    target = action.numbers[0]
    t.enchantments.append([seat, target])
    if t.options.braced:
        looks = min(2, len(t.hands[seat]))
        events.append(
            _effect_event(
                t,
                said("enchant_look", player=seat, target_player=target, count=looks),
                target=target,
            )
        )
        t.spy = {"seat": target, "of": seat, "left": looks}
        t.step = "spy"
        return
    t.doubled.add(seat)
    events.append(
        _effect_event(
            t,
            said("enchant_double", player=seat, target_player=target),
            target=target,
        )
    )
    _end_turn(t)


def _do_spy(t: Table, seat: int, action: Action, events: Events) -> None:
    assert t.spy is not None
    owner = t.spy["of"]
    slot = action.numbers[0]
    card_id = t.hands[owner][slot - 1]
    t.known[seat].add(card_id)
    t.spy["left"] -= 1
    events.append(
        event("effect", PUBLIC, said("peek_other", player=seat, owner_player=owner, slot=slot))
    )
    events.append(
        event(
            "effect",
            [seat],
            said("peek_other_private", owner_player=owner, slot=slot, card=t.label(card_id)),
            reveal=[[owner, slot, t.label(card_id)]],
        )
    )
    if t.spy["left"] <= 0:
        _end_turn(t)


def _do_give(t: Table, seat: int, action: Action, events: Events) -> None:
    ex = t.exchange
    assert ex is not None
    ex["gives"][seat] = action.numbers[0]
    events.append(event("exchange", PUBLIC, said("exchange_chosen", player=seat)))
    by, target = ex["by"], ex["target"]
    if by in ex["gives"] and target in ex["gives"]:
        a, b = ex["gives"][by], ex["gives"][target]
        hands = t.hands
        hands[by][a - 1], hands[target][b - 1] = hands[target][b - 1], hands[by][a - 1]
        events.append(
            event(
                "exchange",
                PUBLIC,
                said("exchange_done", target_player=target, b_slot=b, player=by, a_slot=a),
                ops=[["exchange", by, a, target, b]],
            )
        )
        t.exchange = None
        _next_exchange(t, events)


_HANDLERS = {
    "next": _do_next,
    "look": _do_look,
    "leiff": _do_leiff,
    "draw": _do_draw,
    "take": _do_take,
    "swap": _do_swap,
    "discard": _do_discard,
    "decline": _do_decline,
    "peek": _do_peek,
    "peek_at": _do_peek,
    "trade": _do_trade,
    "slot_discard": _do_slot_discard,
    "slot_give": _do_slot_give,
    "rotate": _do_rotate,
    "immune": _do_immune,
    "rule": _do_rule,
    "belle_link": _do_belle_link,
    "belle_show": _do_belle_show,
    "belle_swap": _do_belle_swap,
    "enchant": _do_enchant,
    "spy": _do_spy,
    "give": _do_give,
}
