"""What a game's channel is told when a seat changes hands: a player left or was removed,
their time ran out until a computer took the seat, they came back, or someone took the seat
over. In the
server's language, as every public message."""

from __future__ import annotations

from typing import Final

from bot.i18n import N_, Texts, _bold, _escape, level_name
from wizard.service import GameInfo, GameUpdate, HostPassed, SeatInfo, SeatTakenOver

# Translators: said in the channel; {level} is a computer level (“Normal”).
LEFT_NOTE: Final = N_("{player} left the game; a computer plays their seat ({level}).")
# Translators: said in the channel when the host (or a server manager) removed {player}
# from a running game; {level} is a computer level (“Normal”).
REMOVED_NOTE: Final = N_(
    "{player} was removed from the game; a computer plays their seat ({level})."
)
# Translators: said in the channel when one who left takes their seat back.
BACK_NOTE: Final = N_("{player} is back and plays their seat again.")
# Translators: after a note of one who left or came back, when the host's say passed on.
HOSTS_NOW: Final = N_("{player} hosts the game now.")


def new_host(before: GameInfo, after: GameInfo) -> SeatInfo | None:
    """The seat of who has the host's say after a seat changed hands, if it passed on (QA:
    the host left, and another player became host without a word)."""
    if after.host_id == before.host_id:
        return None
    seat = after.seat_of(after.host_id)
    return None if seat is None else after.seats[seat]


def passed_to(update: GameUpdate) -> SeatInfo | None:
    """The seat of who has the host's say after ``update``, if it passed on (the service's
    :class:`~wizard.service.HostPassed`)."""
    seat = next((e.seat for e in update.events if isinstance(e, HostPassed)), None)
    return None if seat is None or update.info is None else update.info.seats[seat]


def _with_host(note: str, host: SeatInfo | None, t: Texts) -> str:
    if host is None:
        return note
    return f"{note} {t(HOSTS_NOW, player=_bold(_escape([host.name])[0]))}"


def left_note(seat: SeatInfo, *, host: SeatInfo | None = None, t: Texts) -> str:
    """The channel's note of a player who left, e.g. "bob left the game; a computer plays
    their seat (Normal)", and who hosts now if that changed (:func:`new_host`)."""
    name = _bold(_escape([seat.name])[0])
    note = "🚪 " + t(LEFT_NOTE, player=name, level=level_name(seat.level, t=t))
    return _with_host(note, host, t)


def removed_note(seat: SeatInfo, *, host: SeatInfo | None = None, t: Texts) -> str:
    """The channel's note of a player the host (or a manager) removed from the running game,
    e.g. "cy was removed from the game; a computer plays their seat (Normal)"."""
    name = _bold(_escape([seat.name])[0])
    note = "👢 " + t(REMOVED_NOTE, player=name, level=level_name(seat.level, t=t))
    return _with_host(note, host, t)


def handed_over_note(
    seat: SeatInfo,
    timeouts: int,
    *,
    open_to_others: bool = False,
    host: SeatInfo | None = None,
    t: Texts,
) -> str:
    """The channel's note of a seat handed to a computer after ``timeouts`` timeouts in a
    row (the server's setting), and who hosts now if that changed (the host's time ran
    out). Where others may take over computers' seats (``open_to_others``), it does not
    promise the seat back to its player alone (player QA: a stranger took it a moment
    later)."""
    facts = {"player": _bold(_escape([seat.name])[0]), "level": level_name(seat.level, t=t)}
    if open_to_others:
        text = t.plural(
            # Translators: said in the channel; {level} is a computer level (“Normal”). The
            # host lets people who are not playing take over a computer's seat.
            "{player}'s time ran out; a computer plays their seat ({level}) until they take "
            "it back or someone else takes it over.",
            "{player}'s time ran out {n} times in a row; a computer plays their seat "
            "({level}) until they take it back or someone else takes it over.",
            timeouts,
            **facts,
        )
    else:
        text = t.plural(
            # Translators: said in the channel; {level} is a computer level (“Normal”).
            "{player}'s time ran out; a computer plays their seat ({level}) until they take "
            "it back.",
            "{player}'s time ran out {n} times in a row; a computer plays their seat "
            "({level}) until they take it back.",
            timeouts,
            **facts,
        )
    return _with_host("⏰ " + text, host, t)


def back_note(seat: SeatInfo, *, host: SeatInfo | None = None, t: Texts) -> str:
    """The channel's note of a player who took their seat back, and who hosts now if that
    changed (the host, back)."""
    note = "🙋 " + t(BACK_NOTE, player=_bold(_escape([seat.name])[0]))
    return _with_host(note, host, t)


def taken_over_text(
    event: SeatTakenOver, before: SeatInfo | None, *, host: SeatInfo | None = None, t: Texts
) -> str:
    """The channel's note of a seat taken over, e.g. "Sam took over Merlin's seat (was a
    computer, Normal)", and who hosts now if that changed (:func:`passed_to`)."""
    return _with_host(_taken_over(event, before, t=t), host, t)


def _taken_over(event: SeatTakenOver, before: SeatInfo | None, *, t: Texts) -> str:
    name, previous = _escape([event.name, event.previous])
    level = level_name(before.level, t=t) if before is not None and before.level else None
    if before is not None and before.is_computer and level is not None:
        # Translators: {player} took over the seat of the computer {previous} ({level}).
        return "🙋 " + t(
            "{player} took over {previous}'s seat (was a computer, {level}).",
            player=_bold(name),
            previous=_bold(previous),
            level=level,
        )
    # Translators: {player} took over the seat {previous} left (a computer played it).
    return "🙋 " + t(
        "{player} took over {previous}'s seat (a computer was playing it).",
        player=_bold(name),
        previous=_bold(previous),
    )
