"""When a Leiff table's living message posts anew, and when its edit may wait.

The delivery wing keeps one channel message per running table, edited in place
(:mod:`bot.delivery.living`); these are the table's own rules for it:

- a new message rather than an edit when the players' attention is needed: a round ends
  (its scores stay readable in that message) and the next round is dealt; the game ends;
  the clock warns a player (the table's reminder after a while, see
  ``leiff_logic.REMIND_AFTER_SECONDS``): that message pings them, an edit never would;
- a draw from the draw pile is held back for the drawer's next step (the discard or the
  swap that ends their turn, or whatever anyone else does first): it changes nothing
  another player acts on (the discard pile's top stays), and the table already says whose
  move it is, so a turn of two actions is one edit, not two.
"""

from __future__ import annotations

from matchcore.service.results import Update

TABLE = "table"  # the kind the living message is recorded under, and its picture's
# Public events that need the players' attention: a new message rather than an edit.
ATTENTION_EVENTS = frozenset({"round", "deal", "game_over", "result"})
# Update kinds that need it too: the clock's reminder pings, the game's end.
ATTENTION_KINDS = frozenset({"warning", "match_over", "match_aborted"})


def needs_attention(update: Update) -> bool:
    """Whether the update posts a new table message (see the module's first point)."""
    return update.kind in ATTENTION_KINDS or any(
        event.kind in ATTENTION_EVENTS for event in update.events
    )


def held_back(update: Update) -> bool:
    """Whether the table's message may wait for the next update: a player's draw from the
    draw pile, and nothing else (a refill, a card taken from the discard pile, any other
    step goes out at once). Nobody acts on it: the discard pile's top, which matching and
    catching are judged against, is unchanged, and the table says whose move it is. The
    drawer's own hand shows the card at once (their callback); the next update, their
    discard or swap or anyone's action, shows the draw's line with its own."""
    facts = [event.kind for event in update.events if not event.said]
    return update.kind == "action" and bool(facts) and all(kind == "draw" for kind in facts)
