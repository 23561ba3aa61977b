"""The table: the public embed (round, trump, bids, tricks, trick, whose turn) and
its buttons (open bids, "Show my hand")."""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from enum import Enum
from typing import Any, Final

import discord

from bot.cogs.clicks import ClickBase
from bot.cogs.look import public_look, update_look
from bot.cogs.messages import SLACK, GameMessages, Surface
from bot.cogs.replies import forbidden_uneven
from bot.i18n import (
    BID_MARKS,
    COLOUR,
    EMPTY,
    N_,
    Texts,
    _bold,
    _relative,
    card_text,
    display_names,
    level_name,
    reader_texts,
    suit_text,
    texts,
    variants_text,
)
from bot.ui.buttons import CustomId, Verb, add_bids, button, detached_view
from bot.ui.layout import BLUE, GREEN, MAX_BUTTONS
from wizard.cards import Card, Suit, Theme, rank_label
from wizard.options import Bidding, Options
from wizard.rules import forbidden_bid_public, trick_winner
from wizard.service import (
    Actor,
    GameInfo,
    GameUpdate,
    ServiceError,
    StaleVersionError,
)
from wizard.state import Phase
from wizard.view import PlayerView, SeatCard, TableView

log = logging.getLogger(__name__)

# Translators: the button of the table that opens a player's private hand.
SHOW_HAND_LABEL: Final = N_("Show my hand")


def show_hand_label(language: str) -> str:
    """The table's "Show my hand" button as the table names it: in the server's language
    (``GuildSettings.language``), whatever the reader's."""
    return texts(language)(SHOW_HAND_LABEL)


# Translators: the button of the table that lets a person take over a computer's seat.
TAKE_SEAT_LABEL: Final = N_("Take a seat")

# Translators: a button of the private hand, and of the table, while a computer player
# holds a player's seat (only that player may take it back).
TAKE_BACK_LABEL: Final = N_("Take my seat back")


def seats_to_take(info: GameInfo) -> str | None:
    """The table's button for taking a seat of the running game, if someone may now:
    "Take a seat" while the host allows it and a computer plays a seat (anyone not seated
    may take it); else "Take my seat back" while a computer holds a player's own seat (not
    after a kick), as only that player may (see :meth:`GameInfo.seats_open_to`)."""
    if info.table is None:
        return None
    if info.allow_seat_taking and any(s.computer_controlled for s in info.seats):
        return TAKE_SEAT_LABEL
    if any(s.away and not s.kicked for s in info.seats):
        return TAKE_BACK_LABEL
    return None


class NamedBy(Enum):
    """Who named the round's trump after a turned Wizard (R3.3), as the table tells it."""

    DEALER = "dealer"
    """The dealer's player now: their person by a click, or a computer seat's computer."""
    COMPUTER = "computer"
    """A computer, for the dealer's person: their time ran out, or it held their seat."""
    EARLIER = "earlier"
    """Whoever held the dealer's seat then (a person, or a computer seat's computer), before
    someone else took it over."""


def trump_named_by(info: GameInfo) -> NamedBy:
    """Who named the current round's trump, from who made the move (``DEALER`` when nobody
    has named it)."""
    move = info.trump_named_by
    if move is None:
        return NamedBy.DEALER
    holder = info.seats[move.seat].user_id
    if move.user_id != holder:
        # Whoever's seat it was then (a person, or a computer seat's own computer) has left
        # it to its player now.
        return NamedBy.EARLIER
    if move.actor is Actor.PLAYER or holder is None:
        return NamedBy.DEALER
    return NamedBy.COMPUTER


def trump_line(
    table: TableView,
    names: Sequence[str],
    theme: Theme = Theme.CLASSIC,
    *,
    t: Texts,
    named_by: NamedBy = NamedBy.DEALER,
) -> str:
    """The turned card and the trump of the round, in words (after a turned Wizard, the
    dealer is said to have chosen trump only if they did: see :class:`NamedBy`)."""
    if table.round == 0:
        return t("The first round is being dealt.")
    if table.options.single_suit:
        return t("No trump: every player draws from their own suit (single suit).")
    turned = table.turned
    if turned is None:
        return t("No card is turned in the last round: no trump.")
    shown = card_text(turned, theme, t=t)
    if turned.is_jester:
        return t("Turned {card}: no trump this round.", card=shown)
    dealer = _bold(names[table.dealer])
    if turned.is_wizard:
        if table.trump is None:
            return t(
                "Turned {card}: {dealer} (dealer) is choosing trump.",
                card=shown,
                dealer=dealer,
            )
        suit = suit_text(table.trump, theme, t=t)
        if named_by is NamedBy.DEALER:
            return t("Turned {card}: {dealer} chose {suit}.", card=shown, dealer=dealer, suit=suit)
        if named_by is NamedBy.COMPUTER:
            # Translators: the dealer's turn timer ran out, or they had left: a computer
            # named trump for them after a turned Wizard.
            return t(
                "Turned {card}: a computer chose {suit} for {dealer}.",
                card=shown,
                dealer=dealer,
                suit=suit,
            )
        # The person who chose has left the seat since: its name is now another's.
        return t("Turned {card}: trump is {suit}.", card=shown, suit=suit)
    assert table.trump is not None
    return t("Turned {card}: trump is {suit}.", card=shown, suit=suit_text(table.trump, theme, t=t))


def status_line(
    table: TableView,
    names: Sequence[str],
    theme: Theme = Theme.CLASSIC,
    *,
    t: Texts,
    computer: Collection[int] = (),
) -> str:
    """What the game waits for, and from whom (a seat in ``computer`` bids, or chooses trump,
    without buttons)."""
    phase = table.phase
    if phase is Phase.GAME_OVER:
        return "🏁 " + t("The game is over.")
    if phase is Phase.ROUND_OVER:
        if table.round == 0:
            return "🔀 " + t("Dealing round {round}…", round=1)
        scored = t("Round {round} is scored.", round=table.round)
        return f"✅ {scored} " + t("Dealing round {round}…", round=table.round + 1)
    waiting = ", ".join(_bold(names[s]) for s in table.to_act) or EMPTY
    if phase is Phase.CHOOSE_TRUMP:
        if table.dealer in computer:
            return "⏳ " + t("{player} to choose trump.", player=waiting)
        # QA: the suit buttons are in the dealer's hand alone, which the table did not say.
        return "⏳ " + t(
            "{player} to choose trump, with the suit buttons of their hand (**{button}**).",
            player=waiting,
            button=t(SHOW_HAND_LABEL),
        )
    if phase is Phase.BID:
        return _bid_status(table, names, waiting, t=t, computer=computer)
    assert phase is Phase.PLAY
    who = _bold(names[table.turn]) if table.turn is not None else waiting
    line = "⏳ " + t("{player} to play.", player=who)
    if table.follow is not None:
        line += " " + t("Suit to follow: {suit}.", suit=suit_text(table.follow, theme, t=t))
    elif (lead := open_lead(table)) is not None:
        # QA: a suited lead was named, a Wizard's or a Jester's said nothing (R5.2).
        if lead is OpenLead.WIZARD:
            line += " " + t("No suit to follow: a Wizard came first.")
        else:
            line += " " + t("No suit to follow yet (only Jesters so far).")
    return line


class OpenLead(Enum):
    """Why a trick with cards on it has no suit to follow (R5.2)."""

    WIZARD = "wizard"
    """A Wizard came before any suited card: the trick has none."""
    JESTERS = "jesters"
    """Only Jesters so far: the first suited card sets it."""


def open_lead(table: TableView | PlayerView) -> OpenLead | None:
    """Why the started trick has no suit to follow (R5.2), or ``None`` when it is empty, has
    one, or the game knows none (single suit, R7.7)."""
    if not table.trick or table.follow is not None or table.options.single_suit:
        return None
    return OpenLead.WIZARD if any(card.is_wizard for _, card in table.trick) else OpenLead.JESTERS


def _bid_status(
    table: TableView, names: Sequence[str], waiting: str, *, t: Texts, computer: Collection[int]
) -> str:
    """Who bids now; under clairvoyance (R7.4) in round 1, where to see the others' cards."""
    if table.turn is None:
        n = len(table.to_act)
        line = "⏳ " + t.plural(
            "Waiting for the bid of {players}.",
            "Waiting for the bids of {players}.",
            n,
            players=waiting,
        )
    else:
        # One seat to bid: an open bid, made with the table's buttons (bids_on_table) by a
        # person; a computer bids by itself.
        player = _bold(names[table.turn])
        if table.turn in computer:
            line = "⏳ " + t("{player} to bid.", player=player)
        else:
            line = "⏳ " + t("{player} to bid, with the buttons below.", player=player)
        forbidden = forbidden_bid_public(table)
        if forbidden is not None and forbidden[0] <= table.round_tricks:
            # The greyed-out button says why (R7.1, R7.5).
            bid, rule = forbidden
            tricks = table.round_tricks
            if rule == "R7.1":
                line += " " + t(forbidden_uneven(table.options), bid=bid, tricks=tricks)
            else:
                line += " " + t(FORBIDDEN_CANADIAN, player=player, bid=bid, tricks=tricks)
    if table.options.clairvoyance and table.round == 1:
        # QA: the others' cards are only in each hand; a bid from the table's buttons
        # alone is a bid blind.
        line += " " + t(
            "Clairvoyance: press **{button}** to see the others' cards before you bid.",
            button=t(SHOW_HAND_LABEL),
        )
    return line


def bids_total_line(table: TableView, *, t: Texts) -> list[str]:
    """What the bids everyone sees add up to, against the round's tricks (QA: only the
    bidder's hand said it), once there are two; none while bids are hidden (R7.2, R7.3)."""
    made = [bid for bid in table.bids if bid is not None]
    if table.phase not in (Phase.BID, Phase.PLAY) or len(made) < 2:
        return []
    return [
        t.plural(
            "Bids together: {total} for {n} trick.",
            "Bids together: {total} for {n} tricks.",
            table.round_tricks,
            total=sum(made),
        )
    ]


def bid_text(table: TableView, seat: int, *, t: Texts) -> str:
    """A seat's bid as everyone may see it: the number, a hidden/secret mark, or a dash."""
    bid = table.bids[seat]
    if table.bids_revealed and bid is not None:
        return str(bid)
    if not table.has_bid[seat]:
        return EMPTY
    mark, word = BID_MARKS[
        Bidding.SECRET if table.options.bidding is Bidding.SECRET else Bidding.HIDDEN
    ]
    return f"{mark} {t(word)}"


TIMED_OUT_MARK: Final = N_("time ran out, a computer moved")
"""After a player's line on the table: their turn timer ran out and a computer made their
move (a second timeout in a row hands the seat to a computer)."""


def _nowrap(text: str) -> str:
    """``text`` with no-break spaces: a narrow screen breaks a seat's line between its
    facts, never inside one (demo QA: "pts" alone on the next line, away from its number)."""
    return text.replace(" ", "\u00a0")


def _round_role(table: TableView, *, t: Texts) -> tuple[int, str]:
    """The seat the table marks 🔀 and what it is: the dealer; in single suit, where nobody
    deals (R7.7), the seat in the dealer's place, which bids last, or, where everyone bids
    at once (R7.2, R7.3), the seat after it, which leads the first trick (QA: "bids last"
    was said where nobody bids last)."""
    if not table.options.single_suit:
        # Translators: after a player's name on the table: this player deals the round.
        return table.dealer, t("dealer")
    if table.options.bidding is Bidding.OPEN:
        # Translators: after a player's name on the table in single suit, where nobody
        # deals: this player bids last this round.
        return table.dealer, t("bids last")
    # Translators: after a player's name on the table in single suit with hidden or secret
    # bids (everyone bids at once): this player leads the first trick of the round.
    return (table.dealer + 1) % len(table.players), t("leads first")


def seat_lines(
    table: TableView,
    names: Sequence[str],
    computer: Collection[int] = (),
    *,
    t: Texts,
    levels: Mapping[int, str] | None = None,
    away: Collection[int] = (),
    timed_out: Collection[int] = (),
    removed: Collection[int] = (),
    host: int | None = None,
) -> list[str]:
    """One line per seat: turn marker, name, host, dealer, bid, tricks won, cards left, score.

    A computer seat is marked 🤖 with its level (``levels``: seat → level); a person's seat
    in ``away`` says that a computer of that level plays it for them (one in ``removed``:
    since the host or a manager removed them); one in ``timed_out``, that a computer made
    its last move when the turn timer ran out. ``host``: the seat of the game's host (the
    role passes on when the host leaves, so everyone sees who has it now)."""
    levels = levels or {}
    lines = []
    playing = table.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)
    marked, role = _round_role(table, t=t)
    for seat, name in enumerate(names):
        marker = "▶️" if playing and seat in table.to_act else "▫️"
        bot = " 🤖" if seat in computer else ""
        if seat in computer and seat in levels:
            level = level_name(levels[seat], t=t)
            if seat in removed:
                # Translators: after a person's name on the table: the host or a server
                # manager removed them from the game; a computer of this level plays on.
                bot = " 🤖 " + t("removed, played by a computer ({level})", level=level)
            elif seat in away:
                # Translators: after a person's name on the table: a computer of this level
                # plays their seat (after timeouts, or they left).
                bot = " 🤖 " + t("played by a computer ({level})", level=level)
            else:
                bot = f" 🤖 {level}"
        # Translators: a tag after a name in the lobby and on the table: who runs the game
        # (may remove players or cancel it).
        hosts = " · " + t("host") if seat == host else ""
        dealer = ""
        if table.round > 0 and seat == marked:
            dealer = " · 🔀 " + role
        parts = [f"{marker} **{name}**{bot}{hosts}{dealer}"]
        if table.round > 0:
            # Translators: a player's bid on the table: a number, a dash or a hidden mark.
            parts.append(_nowrap(t("bid {bid}", bid=bid_text(table, seat, t=t))))
            # Translators: the number of tricks a player has won so far this round.
            parts.append(_nowrap(t("won {tricks}", tricks=table.tricks[seat])))
            if playing:
                size = table.hand_sizes[seat]
                # Translators: how many cards a player still holds.
                parts.append(_nowrap(t.plural("{n} card", "{n} cards", size)))
        # Translators: a player's total score (points), in bold.
        parts.append(_nowrap(t("{points} pts", points=_bold(t.count(table.scores[seat])))))
        if seat in timed_out and seat not in away:
            parts.append("⏰ " + t(TIMED_OUT_MARK))
        lines.append(" · ".join(parts))
    return lines


def trick_text(cards: Sequence[SeatCard], names: Sequence[str], theme: Theme, *, t: Texts) -> str:
    """A trick as ``Ann 🟦B7 · Bob 🧙Z`` in the order played."""
    return (
        " · ".join(f"{names[seat]} {card_text(card, theme, t=t)}" for seat, card in cards) or EMPTY
    )


def last_trick_text(table: TableView, names: Sequence[str], theme: Theme, *, t: Texts) -> str:
    """The previous trick of this round and who won it (see :func:`won_trick_text`)."""
    return won_trick_text(
        table.last_trick,
        names,
        table.last_winner,
        theme,
        t=t,
        magic_twos=table.options.magic_twos,
        single_suit=table.options.single_suit,
        trump=table.trump,
    )


def won_trick_text(
    cards: Sequence[SeatCard],
    names: Sequence[str],
    winner: int | None,
    theme: Theme,
    *,
    t: Texts,
    magic_twos: bool = False,
    single_suit: bool = False,
    trump: Suit | None = None,
) -> str:
    """A finished trick and who won it: ``Ann 🟦B7 · Bob 🧙Z → won by **Bob**``; with
    ``magic_twos`` on, a 2 that took the trick only as a magic two says so (R7.6), and in
    ``single_suit`` a card that took it only as the first of equals (R7.7)."""
    trick = trick_text(cards, names, theme, t=t)
    if winner is None:
        return trick
    # Translators: {trick} is the cards played, as “Ann 🟦B7 · Bob 🧙Z”.
    text = t("{trick} → won by {player}", trick=trick, player=_bold(names[winner]))
    seats = [seat for seat, _ in cards]
    if winner in seats:
        text += _why_note(
            cards, seats.index(winner), trump, theme, t=t, magic=magic_twos, single=single_suit
        )
    return text


def _why_note(
    cards: Sequence[SeatCard],
    index: int,
    trump: Suit | None,
    theme: Theme,
    *,
    t: Texts,
    magic: bool,
    single: bool,
) -> str:
    """Why the card at ``index`` takes (or would take) the trick, where a variant's rule
    decides it that a player may not see at once (:func:`_magic_two_note`,
    :func:`_tie_note`)."""
    if magic:
        return _magic_two_note(cards, index, trump, theme, t=t)
    if single:
        return _tie_note(cards, index, t=t)
    return ""


def _tie_note(cards: Sequence[SeatCard], index: int, *, t: Texts) -> str:
    """Why the card at ``index`` takes (or would take) a single-suit trick in which a card of
    the same value was played after it: the first of equals wins (R7.7)."""

    def value(card: Card) -> tuple[int | None, bool]:
        return card.rank, card.is_wizard  # a Wizard, a Jester or a number

    first = value(cards[index][1])
    if not any(value(card) == first for _, card in cards[index + 1 :]):
        return ""
    # Translators: in single suit (no suits, no trump), after who takes a trick in which
    # another card of the same value was played later.
    return " " + t("(equal values: the first one played wins)")


def _magic_two_note(
    cards: Sequence[SeatCard], index: int, trump: Suit | None, theme: Theme, *, t: Texts
) -> str:
    """Why the card at ``index`` takes (or would take) the trick, when only a magic two
    does (R7.6): without magic twos another card would; else nothing."""
    if trick_winner([card for _, card in cards], trump) == index:
        return ""
    return " " + t(
        # Translators: {two} is the rank of the magic card as the deck shows it: 2, or 3
        # in the standard deck (whose ranks start at 2).
        "(a magic two: a {two} of the suit to follow wins, even over Wizards)",
        two=rank_label(2, theme),
    )


def trick_in_play_text(
    cards: Sequence[SeatCard],
    names: Sequence[str],
    options: Options,
    trump: Suit | None,
    theme: Theme,
    *,
    t: Texts,
) -> str:
    """The trick being played and, from its second card on, whose card would take it if
    nobody beats it: ``Ann 🟦B7 · Bob 🧙Z → Bob is ahead`` (with why, when a magic two is,
    R7.6). The table shows it, and the hand of the player to play."""
    text = trick_text(cards, names, theme, t=t)
    if len(cards) < 2:
        return text
    index = trick_winner(
        [card for _, card in cards],
        trump,
        magic_twos=options.magic_twos,
        single_suit=options.single_suit,
    )
    # Translators: after the cards of the trick being played: whose card would take it if
    # nobody beats it (in bold).
    text += " " + t("→ {player} is ahead", player=_bold(names[cards[index][0]]))
    return text + _why_note(
        cards, index, trump, theme, t=t, magic=options.magic_twos, single=options.single_suit
    )


def table_embed(
    table: TableView,
    *,
    names: Sequence[str] | None = None,
    theme: Theme = Theme.CLASSIC,
    computer: Collection[int] = (),
    title: str | None = None,
    deadline: float | None = None,
    t: Texts,
    levels: Mapping[int, str] | None = None,
    away: Collection[int] = (),
    timed_out: Collection[int] = (),
    removed: Collection[int] = (),
    host: int | None = None,
    named_by: NamedBy = NamedBy.DEALER,
) -> discord.Embed:
    """The public table message: round, dealer, trump, bids, tricks, the tricks on the table,
    whose turn it is and the running scores (and, with ``deadline``, when the turn timer
    runs out, as a Unix time). ``title`` (already in ``t``'s language) defaults to the
    game's name; ``named_by``: who named trump after a turned Wizard."""
    shown = display_names(table, names)
    if title is None:
        # Translators: the name of the game (not the card), as a title.
        title = t.context("game name", "Wizard")
    if table.round == 0:
        # Translators: the table's title before the first round; {title} names the game.
        heading = t("{title} · starting", title=title)
    else:
        heading = t.plural(
            "{title} · round {round} of {rounds} ({n} trick)",
            "{title} · round {round} of {rounds} ({n} tricks)",
            table.round_tricks,
            title=title,
            round=table.round,
            rounds=table.num_rounds,
        )
    embed = discord.Embed(title=heading, colour=COLOUR)
    embed.description = "\n".join(
        [
            trump_line(table, shown, theme, t=t, named_by=named_by),
            status_line(table, shown, theme, t=t, computer=computer),
            *bids_total_line(table, t=t),
            "",
            *seat_lines(
                table,
                shown,
                computer,
                t=t,
                levels=levels,
                away=away,
                timed_out=timed_out,
                removed=removed,
                host=host,
            ),
        ]
    )
    if table.round > 0:
        if table.phase is Phase.PLAY:  # before the first card is played there is no trick
            if table.trick:
                current = trick_in_play_text(
                    table.trick, shown, table.options, table.trump, theme, t=t
                )
            else:
                current = t("{player} leads.", player=_bold(shown[table.leader]))
            embed.add_field(name=t("Current trick"), value=current, inline=False)
        if table.last_trick:
            embed.add_field(
                name=t("Last trick"), value=last_trick_text(table, shown, theme, t=t), inline=False
            )
    if deadline is not None and table.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY):
        when = _relative(deadline)
        if len(table.to_act) == 1:
            # Translators: {when} is a time Discord shows as “in 5 minutes”; {player}, in
            # bold, the one player the game waits for.
            timer = t(
                "Time runs out {when}: then a computer moves for {player}.",
                when=when,
                player=_bold(shown[table.to_act[0]]),
            )
        else:
            # Translators: {when} is a time Discord shows as “in 5 minutes”; several players
            # choose their bids at once (hidden or secret bids).
            timer = t(
                "Time runs out {when}: then a computer bids for whoever has not bid yet.",
                when=when,
            )
        embed.add_field(name=t("Turn timer"), value="⏰ " + timer, inline=False)
    embed.set_footer(text=t("Variants: {variants}", variants=variants_text(table.options, t=t)))
    return embed


FORBIDDEN_CANADIAN: Final = N_(
    "{player} is alone at the top of the scores in the last round and, under the Canadian "
    "rule, may not bid {bid}: the bids would add up to {tricks}, the tricks of this round."
)
"""The table's note while the sole leader bids last in the last round (R7.5)."""


def bids_on_table(table: TableView) -> bool:
    """Whether the bid awaited now is made with buttons on the public table: open bidding
    (every bid is public anyway, R4.2), one seat to bid. Hidden and secret bids (R7.2, R7.3)
    are made in the private hands."""
    return (
        table.phase is Phase.BID
        and table.options.bidding is Bidding.OPEN
        and table.turn is not None
    )


def table_bids(table: TableView) -> tuple[int, ...]:
    """The bids the seat to bid may make now, from the public table alone (empty unless
    :func:`bids_on_table`): 0 to the round's tricks, without the dealer's forbidden bid, as
    the engine answers it from the public table (:func:`wizard.rules.forbidden_bid_public`)."""
    if not bids_on_table(table):
        return ()
    forbidden = forbidden_bid_public(table)
    bad = None if forbidden is None else forbidden[0]
    return tuple(b for b in range(table.round_tricks + 1) if b != bad)


def table_view(
    game: int,
    version: int,
    *,
    t: Texts,
    table: TableView | None = None,
    computer: Collection[int] = (),
    seatable: str | None = None,
) -> discord.ui.View:
    """The table's buttons: under open bidding, while a person (not a seat in ``computer``)
    is to bid, one button per bid 0…r with the forbidden one disabled (R7.1, R7.5,
    :func:`table_bids`), then "Show my hand" (and ``seatable``, the label of the button taking a
    seat, when one may be taken: see :func:`seats_to_take`).

    Bids take as few rows as rows of five would, filled evenly (:func:`add_bids`); "Show my
    hand" gets a row of its own when one is left (up to 20 bids), else it closes the last row
    (21 bids, round 20 with 3 players: 22 buttons).
    """
    view = detached_view()
    row: int | None = None
    if table is not None and bids_on_table(table) and table.turn not in computer:
        row = add_bids(view, game, version, table.round_tricks + 1, set(table_bids(table)))
    view.add_item(
        button(
            CustomId(game, Verb.HAND, "", version),
            label=t(SHOW_HAND_LABEL),
            emoji="🎴",
            style=BLUE,
            row=row,
        )
    )
    if seatable is not None and len(view.children) < MAX_BUTTONS:
        view.add_item(
            button(
                CustomId(game, Verb.TAKESEAT, "", version),
                label=t(seatable),
                emoji="🙋",
                style=GREEN,
                row=row,
            )
        )
    assert len(view.children) <= MAX_BUTTONS
    return view


def public_shown(embed: discord.Embed, view: discord.ui.View | None = None) -> dict[str, Any]:
    """What a public message shows (its embed, and the buttons that act on the game),
    comparable with what it showed before. The version on "Show my hand" is left out: that
    button works whatever the version, so a new version alone is no reason to edit; "Take a
    seat" counts by its presence only, for the same reason."""
    rows = [] if view is None else view.to_components()
    buttons = [
        (c.get("custom_id"), c.get("disabled", False), c.get("style"))
        for row in rows
        for c in row.get("components", ())
        if f":{Verb.HAND.value}:" not in str(c.get("custom_id", ""))
        and f":{Verb.TAKESEAT.value}:" not in str(c.get("custom_id", ""))
    ]
    if any(
        f":{Verb.TAKESEAT.value}:" in str(c.get("custom_id", ""))
        for row in rows
        for c in row.get("components", ())
    ):
        buttons.append((Verb.TAKESEAT.value, False, None))
    return {"embed": embed.to_dict(), "buttons": buttons}


def _buttons_of(shown: dict[str, Any] | None) -> Any:
    """The game's buttons in what a public message shows (see :func:`public_shown`)."""
    return None if shown is None else shown.get("buttons")


def table_parts(info: GameInfo, *, t: Texts, theme: Theme) -> tuple[discord.Embed, discord.ui.View]:
    """The table message of a started game: its embed and its buttons (the open bids of a
    person to bid, and "Show my hand")."""
    assert info.table is not None
    computer = {s.seat for s in info.seats if s.computer_controlled}
    view = table_view(
        info.id,
        info.version,
        t=t,
        table=info.table,
        computer=computer,
        seatable=seats_to_take(info),
    )
    return table_embed_of(info, t=t, theme=theme), view


def table_embed_of(info: GameInfo, *, t: Texts, theme: Theme) -> discord.Embed:
    """The table message of a started game, from its public table only (R8.1), in the
    server's language and card theme."""
    assert info.table is not None
    computer = {s.seat for s in info.seats if s.computer_controlled}
    deadline = info.deadline if info.turn_seconds is not None else None
    return table_embed(
        info.table,
        computer=computer,
        levels={s.seat: s.level for s in info.seats if s.computer_controlled and s.level},
        away={s.seat for s in info.seats if s.away},
        timed_out={s.seat for s in info.seats if s.timeouts > 0},
        removed={s.seat for s in info.seats if s.kicked},
        host=info.seat_of(info.host_id),
        named_by=trump_named_by(info),
        # Translators: the title of a game's table (the round follows it).
        title=t("Wizard · game {game}", game=info.id),
        deadline=deadline,
        t=t,
        theme=theme,
    )


class TableMessages(GameMessages):
    """Publishing the table: posted once, then edited in place at a paced rate."""

    async def _table(self, surface: Surface, info: GameInfo) -> bool:
        """Edit the table (or post it if it has none, or if it was deleted); True if done or
        held back for the trailing edit (see ``edit_interval``)."""
        t, theme = await public_look(self.service, info.guild_id)
        embed, view = table_parts(info, t=t, theme=theme)
        shown = public_shown(embed, view)
        if surface.table_id is not None:
            if shown == surface.shown:
                return True
            if _buttons_of(surface.shown) != shown["buttons"]:
                # A person's bid buttons come or go (an open bid is made on the table): like
                # a hand whose buttons change, the table is edited at once.
                self._table_edited(surface)
            elif self._hold_table(surface):
                return True
            done = await self._edit(surface, surface.table_id, embed=embed, view=view)
            if done:
                self.stats.table_edits += 1
                surface.shown = shown
                return True
            if done is False:
                return False
            log.info("game %s: the table message is gone; posting it again", surface.game_id)
            surface.table_id = None
        self._table_edited(surface)
        message = await self._post(surface, embed=embed, view=view)
        if message is None:
            return False
        self.stats.table_posts += 1
        surface.table_id = message.id
        surface.shown = shown
        await self._remember(surface, table_message_id=message.id)
        return True

    def _hold_table(self, surface: Surface) -> bool:
        """Whether a table edit must wait for the end of the interval (a trailing edit is
        then armed); if not, the edit about to be made starts a new interval."""
        now = self.clock.now()
        if now + SLACK >= surface.table_free_at:
            self._table_edited(surface)
            return False
        if surface.table_timer is None:

            def fire() -> None:
                surface.table_timer = None
                self.request(surface)

            surface.table_timer = self.clock.call_at(surface.table_free_at, fire)
        return True

    def _table_edited(self, surface: Surface) -> None:
        surface.table_free_at = self.clock.now() + self.config.edit_interval

    def note_table(
        self,
        surface: Surface,
        message_id: int,
        embed: discord.Embed,
        view: discord.ui.View | None = None,
    ) -> None:
        """The table is now ``message_id`` showing ``embed`` and ``view``, drawn by a click's
        response (the game's start, a bid made on the table): that response was the latest
        table edit, for the pacing, and shows the latest state, so no edit follows unless the
        state moves on."""
        surface.table_id = message_id
        surface.shown = public_shown(embed, view)
        self._table_edited(surface)


STALE_TABLE = N_(
    "🔄 This has moved on since that was shown: the table shows the game as it is now."
)
"""The private reply to a bid clicked on a table that showed an earlier moment."""


class TableClicks(ClickBase):
    """The table's buttons: an open bid made on the table (and its refusals)."""

    async def _bid_on_table(
        self, interaction: discord.Interaction[Any], cid: CustomId, update: GameUpdate
    ) -> None:
        """An open bid made with the table's buttons: the response redraws the table in place
        (the next bidder's buttons), and that is the table edit of this move.

        The surface's lock is taken before anything can yield after the update is recorded:
        the sync task the update wakes then finds the table already showing the new state
        and edits nothing more (unless the state moves on meanwhile). A bid button on
        another public message (one the bot did not draw) gets a private note instead.
        """
        surface = self.surfaces.get(cid.game)
        async with surface.lock:
            # The bidder's own hand is not the message clicked: it is left to the usual rules.
            self.surfaces.after_update(update)
            note, _ = await self._remember_done(interaction, cid, update)
            # The update's own picture of the game and the settings it was made under (read
            # only for a duplicate, whose moment has passed).
            info = update.info or await self.service.get_game(cid.game)
            self.surfaces.adopt(info)
            message = interaction.message
            if message is None or message.id != surface.table_id or info.table is None:
                await self._send_private(interaction, note or "✅")
                return
            t, theme = await update_look(self.service, update, info.guild_id)
            embed, view = table_parts(info, t=t, theme=theme)
            await self._edit_clicked(interaction, embed=embed, view=view)
            self.surfaces.note_table(surface, message.id, embed, view)

    async def _table_refused(
        self, interaction: discord.Interaction[Any], cid: CustomId, error: ServiceError
    ) -> None:
        """A refused bid on the table: a private reply, and the table is left as it is (a
        double click, or two bids pressed together, is answered like the first click; a
        stale button says so)."""
        done = await self._click_done(interaction, cid, error)
        t = await reader_texts(interaction)
        if done is not None:
            await self._send_private(interaction, self._again_note(done, cid, t))
        elif isinstance(error, StaleVersionError):
            await self._stale_table(interaction, cid)
        else:
            await self._refuse(interaction, error)

    async def _stale_table(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """A bid clicked on a table that showed an earlier moment: the table shows the game
        as it is now (the bids, or the play that followed them: player QA, de)."""
        await self._send_private(interaction, (await reader_texts(interaction))(STALE_TABLE))
