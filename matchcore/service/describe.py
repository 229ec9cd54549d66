"""How the service describes a match: :class:`MatchInfo` snapshots and :class:`Update`\\ s.

:class:`Describer` turns a stored record and its engine state into what the Discord layer
shows: the snapshot of a match, the update of a board move, a Leiff step, a lobby change or
a challenge. It reads and never changes anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.board import BoardState
from engine.leiff.state import LeiffState
from engine.leiff.views import LeiffView
from engine.phrases import Phrase
from matchcore.service import board_logic, bots, leiff_logic, time_controls
from matchcore.service.board_logic import mention
from matchcore.service.results import (
    Buttons,
    ChallengeInfo,
    Event,
    MatchInfo,
    Picture,
    SeatInfo,
    Update,
    say,
)
from matchcore.service.steps import GameState, title
from matchcore.service.store import MatchStore
from matchcore.service.texts import Said
from matchcore.storage import ChallengeRecord, MatchRecord


class Describer:
    """Snapshots and updates of matches, lobbies and challenges."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store
        # Per running table, the last state described and what each player's private
        # message showed then (leiff_logic.private_basis): the next action starts from that
        # very state (the store's cache), so whether a hand changed is decided without
        # working the old views out again (a view costs about as much as the action).
        self._bases: dict[int, tuple[LeiffState, dict[int, tuple[Any, ...]]]] = {}
        # a basis is of use only beside its state: it goes when the store lets that go
        store.states.dropped_listeners.append(self._forget_basis)

    def _forget_basis(self, match_id: int) -> None:
        self._bases.pop(match_id, None)

    def info(
        self,
        record: MatchRecord,
        state: GameState | None,
        spectator_view: LeiffView | None = None,
    ) -> MatchInfo:
        """``spectator_view``: the table's ``state.view(None)`` when the caller has it."""
        to_act: tuple[int, ...] = ()
        score = ""
        phrases: tuple[Phrase, ...] = ()
        if state is not None and record.status == "running":
            if isinstance(state, LeiffState):
                removed = {s.seat for s in record.seats if s.removed}
                to_act = tuple(
                    u
                    for u in (
                        record.user_of(s) for s in leiff_logic.owners(state) if s not in removed
                    )
                    if u is not None
                )
            else:
                user = board_logic.user_to_move(record, state)
                to_act = () if user is None else (user,)
        if state is not None:
            if isinstance(state, LeiffState):
                view = spectator_view if spectator_view is not None else state.view(None)
                totals = view["totals"]
                score = " · ".join(
                    f"{leiff_logic.seat_mention(record, seat)} {total}"
                    for seat, total in enumerate(totals)
                )
            else:
                score = state.score_text()
                phrases = tuple(state.score_phrases())
        offer = record.draw_offer_seat
        return MatchInfo(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            game=record.game,
            status=record.status,
            version=record.version,
            seats=tuple(
                SeatInfo(
                    seat=s.seat,
                    user_id=s.user_id,
                    colour=s.colour,
                    removed=s.removed,
                    timeouts=s.timeouts,
                    is_bot=s.is_bot,
                    bot_level=s.bot_level,
                    clock_left=s.clock_left,
                    away_until=s.away_until,
                )
                for s in record.seats
            ),
            host_id=record.host_id,
            to_act=to_act,
            deadline_at=record.deadline_at,
            warn_at=None if record.warned else record.warn_at,
            options=dict(record.options),
            result=record.result,
            score_text=score,
            score_phrases=phrases,
            rated=record.rated,
            vs_bot=record.vs_bot,
            draw_offer_by=None if offer is None else record.user_of(offer),
            created_at=record.created_at,
            finished_at=record.finished_at,
            messages=dict(record.messages),
            bot_level=bots.level_of(record),
            bot_to_act=bots.bot_due(record, state),
            time_control=record.time_control,
        )

    def board(
        self,
        kind: str,
        record: MatchRecord,
        state: BoardState,
        lines: Sequence[Event],
        *,
        moved: bool = False,
    ) -> Update:
        """A board match after a change (or as it is, ``kind="refresh"``)."""
        info = self.info(record, state)
        last = state.last_turn
        events = []
        if moved:
            events.append(Event("move", {"move": last.move, "colour": last.colour}))
        if record.result is not None:
            events.append(Event("result", dict(record.result)))
        return match_update(
            kind,
            record,
            info,
            events=(*events, *lines),
            one_paragraph=True,
            pictures=(
                Picture(
                    "board",
                    record.id,
                    record.version,
                    None,
                    state=board_logic.picture_state(record, state),
                ),
            ),
            buttons=(Buttons(None, board_logic.channel_actions(record, state), record.version),),
            mentions=bots.humans_only(record, info.to_act),
        )

    def table(
        self,
        kind: str,
        record: MatchRecord,
        before: LeiffState | None,
        states: Sequence[LeiffState],
        lines: Sequence[Event],
        closing: Sequence[Event] = (),
        *,
        only_user: int | None = None,
    ) -> Update:
        """A Leiff table after the engine produced ``states`` from ``before``.
        ``only_user``: private parts for that user only (None: for every player)."""
        final = states[-1] if states else self.store.table_state(record)
        said = list(lines)
        events: list[Event] = []
        for state in states:
            said.extend(leiff_logic.public_lines(state, record))
            said.extend(leiff_logic.private_lines(state, record))
            events.extend(Event(k, d) for k, d in leiff_logic.public_events(state))
        said.extend(closing)
        spectator = final.view(None)
        info = self.info(record, final, spectator)
        pictures = [Picture("table", record.id, record.version, None, view=spectator)]
        buttons = []
        kept = self._bases.get(record.id)
        bases_before = kept[1] if kept is not None and kept[0] is before else {}
        bases: dict[int, tuple[Any, ...]] = {}
        views: dict[int, LeiffView] = {}

        def hand_changed(seat: int) -> bool:
            """leiff_logic.hand_changed, with the views worked out once."""
            views[seat] = final.view(seat)
            bases[seat] = leiff_logic.private_basis(views[seat], seat)
            if before is None:
                return True
            if seat not in bases_before:
                return bool(leiff_logic.private_basis(before.view(seat), seat) != bases[seat])
            return bases_before[seat] != bases[seat]

        for seat in record.seats:
            if seat.user_id is None or seat.is_bot:
                continue
            if only_user is not None and seat.user_id != only_user:
                continue
            if seat.removed and kind not in ("refresh", "resigned"):
                continue  # they left the table: a bot plays their hand, they get no DM
            if (
                kind == "refresh"
                or (kind == "resigned" and seat.removed)
                or hand_changed(seat.seat)
            ):
                view = views[seat.seat] if seat.seat in views else final.view(seat.seat)
                pictures.append(Picture("hand", record.id, record.version, seat.user_id, view=view))
                actions = (
                    ()
                    if seat.removed or record.status != "running"
                    else tuple(leiff_logic.controls(view, seat.seat))
                )
                # A private message carries its player's hand version, not the match's.
                version = leiff_logic.hand_version(view, seat.seat)
                buttons.append(Buttons(seat.user_id, actions, version))
        if record.status != "running":
            self._bases.pop(record.id, None)
        elif bases:
            self._bases[record.id] = (final, bases)
        if record.result is not None:
            events.append(Event("result", dict(record.result)))
        # Ping whoever the table now waits for, once; dealing the next round pings nobody
        # (anyone may deal it, and nobody is late for it).
        waiting_changed = (
            before is None or leiff_logic.deadline_key(before) != leiff_logic.deadline_key(final)
        ) and final.waiting_for()["step"] != "next"
        return match_update(
            kind,
            record,
            info,
            events=(*events, *said),
            pictures=tuple(pictures),
            buttons=tuple(buttons),
            mentions=bots.humans_only(record, info.to_act) if waiting_changed else (),
        )

    def lobby(self, kind: str, record: MatchRecord, lines: Sequence[Event]) -> Update:
        info = self.info(record, None)
        actions = ("join", "leave", "start") if record.status == "lobby" else ()
        return match_update(
            kind,
            record,
            info,
            events=(
                Event(kind, {"players": list(info.user_ids), "host": record.host_id}),
                *lines,
            ),
            one_paragraph=True,
            buttons=(Buttons(None, actions, record.version),),
        )

    def challenge(self, kind: str, challenge: ChallengeRecord, lines: Sequence[Event]) -> Update:
        actions: tuple[str, ...] = ()
        if challenge.status == "open":
            actions = (
                ("accept", "cancel")
                if challenge.target_id is None
                else ("accept", "decline", "cancel")
            )
        mentions = (challenge.target_id,) if kind == "challenge" and challenge.target_id else ()
        return Update(
            kind=kind,
            challenge_id=challenge.id,
            match_id=challenge.match_id,
            guild_id=challenge.guild_id,
            channel_id=challenge.channel_id,
            thread_id=challenge.thread_id,
            events=(Event(kind, {"challenge_id": challenge.id}), *lines),
            buttons=(Buttons(None, actions, 0),),
            mentions=mentions,
            challenge=challenge_info(challenge),
        )


def match_update(
    kind: str,
    record: MatchRecord,
    info: MatchInfo,
    *,
    events: tuple[Event, ...],
    pictures: tuple[Picture, ...] = (),
    buttons: tuple[Buttons, ...] = (),
    mentions: tuple[int, ...] = (),
    one_paragraph: bool = False,
) -> Update:
    """An update about one match: where it is and its version from ``record``, ``info`` its
    snapshot, and what the change says and shows."""
    return Update(
        kind=kind,
        match_id=record.id,
        version=record.version,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        thread_id=record.thread_id,
        events=events,
        pictures=pictures,
        buttons=buttons,
        mentions=mentions,
        one_paragraph=one_paragraph,
        match=info,
    )


def challenge_info(challenge: ChallengeRecord) -> ChallengeInfo:
    return ChallengeInfo(
        id=challenge.id,
        guild_id=challenge.guild_id,
        channel_id=challenge.channel_id,
        thread_id=challenge.thread_id,
        challenger_id=challenge.challenger_id,
        target_id=challenge.target_id,
        game=challenge.game,
        size=challenge.size,
        options=dict(challenge.options),
        status=challenge.status,
        created_at=challenge.created_at,
        expires_at=challenge.expires_at,
        match_id=challenge.match_id,
        rematch_of=challenge.rematch_of,
        message_id=challenge.message_id,
        time_control=challenge.time_control,
    )


def challenge_text(challenge: ChallengeRecord) -> Event:
    """The line offering a challenge (or an open seek)."""
    what = {"game": title(challenge.game), "size": challenge.size}
    # An option switched on reads as its name ("variant"), any other as name and value.
    chosen = [
        key if value is True else f"{key} {value}"
        for key, value in sorted(challenge.options.items())
        if value is not False
    ]
    offered = (
        Said("challenge_what_options", {**what, "options": ", ".join(chosen)})
        if chosen
        else Said("challenge_what", what)
    )
    if challenge.time_control:
        clock = time_controls.control_of(challenge.time_control, 0).said()
        offered = Said("challenge_what_clock", {"what": offered, "clock": clock})
    if challenge.target_id is None:
        return say("challenge_open", user=mention(challenge.challenger_id), what=offered)
    return say(
        "challenge_to",
        user=mention(challenge.challenger_id),
        target=mention(challenge.target_id),
        what=offered,
    )
