"""The hand: a player's private message, its text and its move buttons (bids, trump,
cards, "Take my seat back")."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Final

import discord

from bot.cogs.clicks import on_table
from bot.cogs.look import public_theme
from bot.cogs.messages import LeaveStep
from bot.cogs.replies import (
    FORBIDDEN_CANADIAN_OWN,
    STALE,
    TIMED_OUT,
    forbidden_uneven,
    refusal_of,
    refusal_text,
)
from bot.features.hints import hint_button
from bot.features.lobby import LEAVE_LABEL
from bot.features.seat_notes import back_note, left_note, new_host, passed_to
from bot.features.table import (
    SHOW_HAND_LABEL,
    TAKE_BACK_LABEL,
    OpenLead,
    TableClicks,
    bids_on_table,
    last_trick_text,
    open_lead,
    trick_in_play_text,
    trump_line,
)
from bot.i18n import (
    N_,
    Texts,
    _bold,
    card_emoji,
    card_label_text,
    card_text,
    cards_text,
    display_names,
    reader_texts,
    sort_hand,
    spoken_language,
    suit_emoji,
    suit_name,
    suit_text,
)
from bot.ui.buttons import CustomId, Verb, add_bids, button, detached_view
from bot.ui.layout import BLUE, GREY, MAX_BUTTONS, MAX_ROWS, RED
from wizard.cards import SUITS, Card, Suit, Theme
from wizard.rules import bidding_order, forbidden_bid_public
from wizard.service import (
    GameStatus,
    GameStatusError,
    GameUpdate,
    LastPersonError,
    MakeBid,
    Move,
    NameTrump,
    PlayCard,
    PlayHiddenCard,
    ServiceError,
    StaleVersionError,
)
from wizard.state import Action, Bid, ChooseTrump, Phase, Play
from wizard.view import PlayerView, RoundSummary, TableView, public_table

# Translators: a button of the private hand in round 1 under clairvoyance (R7.4).
PLAY_UNSEEN_LABEL: Final = N_("Play my card (unseen)")


# Translators: {button} is the label of the table's button (“Show my hand”), in the
# language of the server's public messages.
HAND_EXPIRY_NOTE: Final = N_(
    "This private message updates itself for 15 minutes after you open it or click in it "
    "(Discord's limit); after that, press “{button}” on the table for a fresh one."
)


# Translators: a button of the private hand, after the last person playing pressed “Leave”
# and was told that the game would stop.
LEAVE_STOP_LABEL: Final = N_("Leave and stop the game")
# Translators: a button of the private hand, after a player pressed “Leave” and was told
# what leaving does (LEAVE_ASKED).
LEAVE_CONFIRM_LABEL: Final = N_("Yes, leave")
# Translators: a button of the private hand, beside “Yes, leave” (or “Leave and stop the
# game”): the player does not leave after all.
LEAVE_STAY_LABEL: Final = N_("No, stay")
# Translators: atop the private hand when a player pressed “Leave” (a running game); the
# buttons “Yes, leave” and “No, stay” answer it.
LEAVE_ASKED: Final = N_(
    "Leave the game? A computer player takes over your seat at once, until you take it back; "
    "if you do not, the game counts as lost for you."
)
# Translators: below “Leave the game?” when the player's turn came while it was asked; their
# moves come back with the button “No, stay” ({stay}, in bold).
LEAVE_ASKED_AT_TURN: Final = N_("It is your turn: answer first; with {stay} you play on.")
# Translators: on the hand of a player a computer stands in for (they left, or their time
# ran out): what it did for them this round; {moves} as “trump 🟥R · bid 2 · 🟦B5 🟨Y2”.
COMPUTER_MOVES_FOR_YOU: Final = N_("The computer's moves for you this round: {moves}.")
LEFT: Final = N_("You left the game.")
"""Atop the hand of the last person playing, once they left and the game stopped."""

HAND_REPLACED: Final = N_("This hand was replaced by a newer one below.")

TIMED_OUT_PLAYED: Final = N_("Your time ran out, so a computer played {card} for you.")
TIMED_OUT_BID: Final = N_("Your time ran out, so a computer bid {bid} for you.")
TIMED_OUT_TRUMP: Final = N_("Your time ran out, so a computer chose {suit} as trump for you.")
"""What :func:`timed_out_move` says, where it can name the move (else :data:`TIMED_OUT`)."""

# Translators: what a private hand shows, with no buttons, once the bot may no longer edit it.
# {button} is the label of the table's button (“Show my hand”), in the language of the
# server's public messages.
HAND_EXPIRED: Final = N_(
    "This private message no longer updates itself: Discord allows that for 15 minutes "
    "only. Press “{button}” on the table for a fresh one."
)
# Translators: what an open private hand shows, with no buttons, when the bot stops (its
# operator stops or restarts it); the bot that starts again redraws it while Discord lets it
# (15 minutes after it was opened or last clicked). {button}: as above.
HAND_BOT_STOPPED: Final = N_(
    "The bot was stopped, most likely to be restarted: this private message does not update "
    "itself meanwhile. If it has not caught up once the bot is back, press “{button}” on the "
    "table for a fresh one."
)
"""What an older hand says once its player opened a newer one (it keeps no buttons)."""


def legal_bids(view: PlayerView) -> tuple[int, ...]:
    """The bids this seat may make now (empty when it is not bidding)."""
    return tuple(a.bid for a in view.legal if isinstance(a, Bid))


def playable_cards(view: PlayerView) -> frozenset[Card]:
    """The cards this seat may play now (empty when it may not play, or cannot see its card)."""
    return frozenset(a.card for a in view.legal if isinstance(a, Play))


def trump_choices(view: PlayerView) -> tuple[Suit, ...]:
    """The suits this seat may name as trump now (the dealer after a turned Wizard)."""
    return tuple(a.suit for a in view.legal if isinstance(a, ChooseTrump))


def must_play_hidden(view: PlayerView) -> bool:
    """Round 1 under clairvoyance, this seat to play: it plays its own card unseen (R7.4)."""
    return view.phase is Phase.PLAY and view.hand is None and view.my_turn


def opens_with_last_round(view: PlayerView) -> bool:
    """Whether the hand opens with how the player's last round went: from its end until
    the first card of the next round (R6)."""
    return bool(view.history) and not (view.played or view.trick)


def hand_text(
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    theme: Theme = Theme.CLASSIC,
    away: bool = False,
    bids_here: bool = False,
    bids_not_theirs: Collection[int] = (),
    helped: bool = False,
    last_round_helped: bool = False,
    t: Texts,
) -> str:
    """The private hand message of ``view.seat``: its cards (or, under clairvoyance, the
    others'), its own bid even when hidden, and what it may do now: nothing while a
    computer plays the seat (``away``), whose turn it is then. ``bids_here``: open bids
    are made in the hand (see :func:`hand_view`). ``bids_not_theirs``: rounds whose bid of
    the seat its reader did not make (a computer's for them, or the seat's earlier
    holder's), told as the seat's, not as theirs; ``helped``: someone else moved for the
    seat this round, so its played cards are the seat's too; ``last_round_helped``: someone
    else moved for it in the last scored round, whose line is then the seat's. A round its
    reader bid and played alone is theirs, also once a computer plays the seat (QA: "Round
    1, your seat: bid 0" right after leaving read as the computer's bid)."""
    table = public_table(view)
    shown = display_names(table, names)
    seat = view.seat
    lines: list[str] = []
    if view.round == 0:
        return t("The cards are being dealt.")
    scored = ""
    if view.history:
        last = view.history[-1]
        not_theirs = last_round_helped or last.round in bids_not_theirs
        scored = last_round_line(last, seat, not_theirs=not_theirs, t=t)
    if view.phase is Phase.GAME_OVER:  # how the last round went; no cards are left
        return scored
    if opens_with_last_round(view):
        lines.append(scored)
    hand = view.hand
    if hand is None:
        lines.append(
            t(
                "**Round {round} of {rounds}: you cannot see your own card** (clairvoyance).",
                round=view.round,
                rounds=view.num_rounds,
            )
        )
        # Those who played their card are on the table already, not listed with no card.
        others = [
            f"{shown[i]} {cards_text(sort_hand(cards), theme, t=t)}"
            for i, cards in enumerate(view.hands)
            if i != seat and cards
        ]
        if others:
            lines.append(t("The others hold: {hands}", hands=" · ".join(others)))
        else:
            lines.append(t("The others have played their cards."))
    elif not hand and (helped or away):  # a computer, or who held the seat, played some
        lines.append(
            t(
                "**Round {round} of {rounds} · your seat has played all its cards.**",
                round=view.round,
                rounds=view.num_rounds,
            )
        )
    elif not hand:  # the round's last trick goes on without them
        lines.append(
            t(
                "**Round {round} of {rounds} · you have played all your cards.**",
                round=view.round,
                rounds=view.num_rounds,
            )
        )
    else:
        lines.append(
            t.plural(
                "**Round {round} of {rounds} · your hand** ({n} card):",
                "**Round {round} of {rounds} · your hand** ({n} cards):",
                len(hand),
                round=view.round,
                rounds=view.num_rounds,
            )
        )
        lines.append(cards_text(sort_hand(hand), theme, t=t))
    if view.phase is Phase.CHOOSE_TRUMP and seat == table.dealer and table.turned is not None:
        # The dealer's own hand: the prompt below says they choose (R3.3), not their name.
        facts = [t("Turned {card}.", card=card_text(table.turned, theme, t=t))]
    elif view.phase is Phase.CHOOSE_TRUMP:
        # Not "none": the dealer is naming it (R3.3), in the words of the table.
        facts = [trump_line(table, shown, theme, t=t)]
    elif view.trump is None:
        facts = [t("Trump: none")]
    else:
        facts = [t("Trump: {suit}", suit=suit_text(view.trump, theme, t=t))]
    own_bid = view.bids[seat]
    if own_bid is not None and view.round in bids_not_theirs:
        # Translators: as "your bid: {bid}", of a bid the player did not make themselves: a
        # computer's for them (they were away), or one made before they took the seat over.
        facts.append(t("your seat's bid: {bid}", bid=own_bid))
    elif own_bid is not None:
        facts.append(t("your bid: {bid}", bid=own_bid))
    if view.phase in (Phase.PLAY, Phase.ROUND_OVER, Phase.GAME_OVER):
        facts.append(t("tricks won: {tricks}", tricks=view.tricks[seat]))
    lines.append(" · ".join(facts))
    if view.my_turn and view.phase is Phase.PLAY and table.last_trick:
        # Who took the trick before this one: the hand moves on to the next trick at once.
        lines.append(f"{t('Last trick')}: {last_trick_text(table, shown, theme, t=t)}")
    if view.my_turn and view.phase is Phase.PLAY and view.trick:
        trick = trick_in_play_text(view.trick, shown, view.options, view.trump, theme, t=t)
        lines.append(t("On the table: {trick}", trick=trick))
        if view.follow is not None:  # why some cards are greyed out (R5.3), as the table says
            suit = suit_text(view.follow, theme, t=t)
            if view.hand is None or any(card.suit is view.follow for card in view.hand):
                # Under clairvoyance (R7.4) nothing is said of the card they cannot see.
                lines.append(t("Suit to follow: {suit}.", suit=suit))
            else:  # not a rule that holds them back: any card may go (R5.3)
                lines.append(t("Suit to follow: {suit}. You have none: play any card.", suit=suit))
        elif (lead := open_lead(view)) is not None:
            if lead is OpenLead.WIZARD:
                lines.append(t("No suit to follow: a Wizard came first. Play any card."))
            else:
                lines.append(t("No suit to follow yet (only Jesters so far): play any card."))
    if view.my_turn and view.phase is Phase.BID:
        made = [  # in the order they were made (R4.2)
            (s, b) for s in bidding_order(table) if (b := table.bids[s]) is not None and s != seat
        ]
        bids = ", ".join(f"{shown[s]} {b}" for s, b in made)
        if len(made) == 1:  # QA: "together 1" of one bid
            lines.append(
                t.plural(
                    "Bids so far: {bids} ({n} trick this round)",
                    "Bids so far: {bids} ({n} tricks this round)",
                    view.round_tricks,
                    bids=bids,
                )
            )
        elif made:
            lines.append(
                t.plural(
                    "Bids so far: {bids} (together {total}, for {n} trick this round)",
                    "Bids so far: {bids} (together {total}, for {n} tricks this round)",
                    view.round_tricks,
                    bids=bids,
                    total=sum(b for _, b in made),
                )
            )
        lines.append(_forbidden_note(table, t=t))
    if not (away and view.my_turn):
        lines.append(_prompt(view, away=away, bids_here=bids_here, t=t))
    return "\n".join(line for line in lines if line)


def last_round_line(summary: RoundSummary, seat: int, *, not_theirs: bool = False, t: Texts) -> str:
    """How ``seat``'s round went, atop the hands of the next round until its first card: the
    player who played the last card of a round reads it above cards they never held. Of a
    round someone else moved in for the seat (``not_theirs``: a computer, or who held it
    before), whose seat, not who played: not "you" (QA: "you bid 5", a bid the computer
    made, under "a computer player finished this game in your seat"), nor "played by a
    computer" (QA: of a round the player played in part)."""
    bid, won = summary.bids[seat], summary.tricks[seat]
    facts = {
        "round": summary.round,
        "bid": bid,
        "won": won,
        "points": t.signed(summary.points[seat]),
        "total": _bold(t.count(summary.totals[seat])),
    }
    if not_theirs:
        # Translators: as the line below, on the hand of a player whose seat a computer
        # plays now (they left, or their time ran out): the round's bid and tricks of their
        # seat, which they or the computer made.
        line = t(
            "Round {round}, your seat: bid {bid}, won {won} → {points} (total {total})", **facts
        )
    else:
        # Translators: on a player's own hand at the start of a round, how their previous
        # round went; {points} is signed (+30, −10); {total} is the new score, in bold.
        line = t("Round {round}: you bid {bid}, won {won} → {points} (total {total})", **facts)
    return f"{'✅' if bid == won else '❌'} {line}"


def _forbidden_note(table: TableView, *, t: Texts) -> str:
    """Why the bidder may not make one bid, if so (R7.1, R7.5): the table says it in the
    server's language, the greyed-out button not at all, the hand in the bidder's."""
    forbidden = forbidden_bid_public(table)
    if forbidden is None or forbidden[0] > table.round_tricks:
        return ""
    bid, rule = forbidden
    note = forbidden_uneven(table.options) if rule == "R7.1" else FORBIDDEN_CANADIAN_OWN
    return t(note, bid=bid, tricks=table.round_tricks)


def _prompt(view: PlayerView, *, away: bool = False, bids_here: bool = False, t: Texts) -> str:
    # A seat a computer plays (``away``) bids by itself: the table's buttons are not for it;
    # with ``bids_here`` (the table cannot be updated) the hand has them.
    on_table = bids_on_table(public_table(view)) and not away and not bids_here
    if not view.my_turn:
        if view.phase in (Phase.BID, Phase.PLAY, Phase.CHOOSE_TRUMP):
            names = display_names(public_table(view))
            waiting = ", ".join(_bold(names[s]) for s in view.to_act)
            if waiting:
                line = t("Waiting for {players}.", players=waiting)
            else:
                line = t("Waiting for the others.")
            if on_table:
                line += " " + t("Bids are made with the buttons on the table.")
            return line
        return ""
    if view.phase is Phase.CHOOSE_TRUMP:
        return t("**Your turn:** you are the dealer, choose trump.")
    if on_table:
        return t("**Your turn:** bid with the buttons on the table.")
    if view.phase is Phase.BID:
        return t.plural(
            "**Your turn:** will you win the one trick?",
            "**Your turn:** how many of the {n} tricks will you win?",
            view.round_tricks,
        )
    if must_play_hidden(view):
        return t("**Your turn:** play your card, unseen.")
    return t("**Your turn:** play a card.")


def hand_heading(game_id: int, channel_id: int | None, *, t: Texts) -> str:
    """The hand's first line: its game and the channel the game is played in (a player may
    have hands of several games open)."""
    game = t("Wizard · game {game}", game=game_id)
    return f"-# {game}" + (f" · <#{channel_id}>" if channel_id is not None else "")


def timed_out_move(view: PlayerView, theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """What a computer did for ``view.seat`` when its time ran out: the seat's last move,
    which its own view shows while it is of this round (its last card, else its bid, else the
    trump it chose); else "your last move" (a card of the round before)."""
    mine = [
        card for trick in (*view.played, view.trick) for seat, card in trick if seat == view.seat
    ]
    if mine:
        return t(TIMED_OUT_PLAYED, card=card_text(mine[-1], theme, t=t))
    bid = view.bids[view.seat]
    if bid is not None:  # their own bid, which they see even when it is hidden (R7.2)
        return t(TIMED_OUT_BID, bid=bid)
    chose = view.dealer == view.seat and view.turned is not None and view.turned.is_wizard
    if chose and view.trump is not None:
        return t(TIMED_OUT_TRUMP, suit=suit_text(view.trump, theme, t=t))
    return t(TIMED_OUT)


def moves_text(moves: Sequence[Action], theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """Moves of one seat in one round as the table words them: the trump it named, its bid,
    then its cards (“trump 🟥R · bid 2 · 🟦B5 🟨Y2”)."""
    parts = [
        t("trump {suit}", suit=suit_text(m.suit, theme, t=t))
        for m in moves
        if isinstance(m, ChooseTrump)
    ]
    parts += [t("bid {bid}", bid=m.bid) for m in moves if isinstance(m, Bid)]
    cards = [m.card for m in moves if isinstance(m, Play)]
    if cards:
        parts.append(cards_text(cards, theme, t=t))
    return " · ".join(parts)


def hand_message(
    view: PlayerView,
    *,
    note: str | None = None,
    away: bool = False,
    theme: Theme = Theme.CLASSIC,
    t: Texts,
    show_hand: str | None = None,
    ending: Sequence[str] = (),
    bids_here: bool = False,
    bids_not_theirs: Collection[int] = (),
    helped: bool = False,
    last_round_helped: bool = False,
    computer_moves: Sequence[Action] = (),
) -> str:
    """The whole private hand message: an optional note on top (its game, :func:`hand_heading`;
    what just happened, or why a click was refused: already in ``t``'s language), the hand,
    and when it stops updating itself. ``away``: a computer plays the seat (or, the game
    over, finished it). ``show_hand``: the table's "Show my hand" as the table shows it (in
    the server's language; by default in ``t``'s). ``ending``: lines after the hand (how the
    game ended, after how its last round went). ``bids_here``: see :func:`hand_view`;
    ``bids_not_theirs``, ``helped``, ``last_round_helped``: see :func:`hand_text`.
    ``computer_moves``: what the computer playing the seat (``away``) did for it this round
    (QA: one who left at their turn was not told which card it played for them at once)."""
    lines = [note] if note else []
    if away and view.phase is not Phase.GAME_OVER:  # a computer finished it: no seat to take
        lines.append(
            "🤖 "
            + t(
                "**A computer player is playing your seat.** Press {button} to play again "
                "yourself.",
                button=_bold(t(TAKE_BACK_LABEL)),
            )
        )
        if computer_moves:
            moves = moves_text(computer_moves, theme, t=t)
            lines.append("🤖 " + t(COMPUTER_MOVES_FOR_YOU, moves=moves))
    lines.append(
        hand_text(
            view,
            theme=theme,
            away=away,
            bids_here=bids_here,
            bids_not_theirs=bids_not_theirs,
            helped=helped,
            last_round_helped=last_round_helped,
            t=t,
        )
    )
    lines += ending
    if view.phase is not Phase.GAME_OVER:
        button = show_hand if show_hand is not None else t(SHOW_HAND_LABEL)
        lines.append("-# " + t(HAND_EXPIRY_NOTE, button=button))
    return "\n".join(lines)


def stopped_hand_message(why: str, *, t: Texts, button: str) -> str:
    """What an open hand shows once the bot will not redraw it any more (``why``:
    :data:`HAND_EXPIRED` or :data:`HAND_BOT_STOPPED`): no cards, no buttons, which could
    only go stale, and the way to a fresh hand."""
    mark = "⌛ " if why == HAND_EXPIRED else "🔌 "
    return mark + t(why, button=button)


def replaced_hand_message(*, t: Texts) -> str:
    """What an older private hand shows once a newer one is open: no cards, so that it can
    never show a card already played."""
    return "🗂️ " + t(HAND_REPLACED)


def hand_view(
    pv: PlayerView,
    game: int,
    version: int,
    theme: Theme = Theme.CLASSIC,
    *,
    t: Texts,
    hints: bool = False,
    bids_here: bool = False,
) -> discord.ui.View | None:
    """The buttons of ``pv.seat``'s hand when it is their turn, else ``None``.

    Bidding (hidden or secret, R7.2, R7.3): one button per bid 0…r; open bids are made on
    the table instead (:func:`table_view`), so the hand has no bid buttons, unless
    ``bids_here`` (the bot cannot update the table: its buttons would not follow). Trump: the
    four suits. Playing: one button per distinct card held (two Wizards are one button),
    the ones that may not be played disabled (R5.3); under clairvoyance one "play my card".
    Bids are numbers and suit cards their codes (R1.4, R1.5), the same in every language;
    ``t`` names the suits (with their letters, as the table writes them), Wizards and
    Jesters, and translates the one labelled button.
    With ``hints`` (the server allows them) the buttons end with 💡 Hint.
    """
    if not pv.my_turn:
        return None
    view = detached_view()
    after: int | None = None  # the row after the bids, for 💡 Hint
    if pv.phase is Phase.CHOOSE_TRUMP:
        allowed = set(trump_choices(pv))
        for suit in SUITS:
            view.add_item(
                button(
                    CustomId.for_trump(game, suit, version),
                    label=suit_name(suit, theme, t=t),
                    emoji=suit_emoji(suit, theme),
                    disabled=suit not in allowed,
                )
            )
    elif pv.phase is Phase.BID and (bids_here or not bids_on_table(public_table(pv))):
        after = add_bids(view, game, version, pv.round_tricks + 1, set(legal_bids(pv)))
    elif pv.phase is Phase.PLAY:
        if must_play_hidden(pv):
            view.add_item(
                button(
                    CustomId(game, Verb.PLAYHIDDEN, "", version),
                    label=t(PLAY_UNSEEN_LABEL),
                    emoji="🎴",  # a real emoji: Discord refuses a button with any other
                    style=BLUE,
                )
            )
        else:
            hand = pv.hand or ()
            playable = playable_cards(pv)
            for card in dict.fromkeys(sort_hand(hand)):
                copies = hand.count(card)
                label = card_label_text(card, theme, t=t) + (f" ×{copies}" if copies > 1 else "")
                view.add_item(
                    button(
                        CustomId.for_play(game, card, version),
                        label=label,
                        emoji=card_emoji(card, theme),
                        style=BLUE if card in playable else GREY,
                        disabled=card not in playable,
                    )
                )
    # On the table's bids too (open bidding): the hand then has only this button.
    if hints and len(view.children) < MAX_BUTTONS:
        view.add_item(hint_button(game, version, t=t, row=after))
    if not view.children:
        return None
    assert len(view.children) <= MAX_BUTTONS
    return view


_LEAVE_BUTTONS: Final = {
    LeaveStep.ASK: (LEAVE_LABEL, "🚪", GREY),
    LeaveStep.CONFIRM: (LEAVE_CONFIRM_LABEL, "🚪", RED),
    LeaveStep.STOP: (LEAVE_STOP_LABEL, "🛑", RED),
    LeaveStep.STAY: (LEAVE_STAY_LABEL, None, GREY),
}


def leave_question(step: LeaveStep, *, t: Texts, at_turn: bool = False) -> str:
    """Atop the hand of a player who pressed "Leave", as long as it offers its answers: what
    leaving does (``step`` CONFIRM, "Yes, leave"), or to the last person playing that it
    stops the game (STOP, "Leave and stop the game"). ``at_turn``: their move waits for the
    answer (QA: the hand said "your turn: play a card" with no card to press)."""
    if step is LeaveStep.STOP:
        question = refusal_text(LastPersonError(), t=t)
    else:
        question = "🚪 " + t(LEAVE_ASKED)
    if not at_turn:
        return question
    return f"{question}\n👉 " + t(LEAVE_ASKED_AT_TURN, stay=_bold(t(LEAVE_STAY_LABEL)))


def moves_in_hand(view: PlayerView, *, bids_here: bool = False) -> bool:
    """Whether it is the player's turn and the hand has their move: not a bid made with the
    table's buttons (unless ``bids_here``, see :func:`hand_view`)."""
    return view.my_turn and (bids_here or not bids_on_table(public_table(view)))


def with_leave(
    view: discord.ui.View | None, game: int, *, t: Texts, step: LeaveStep = LeaveStep.ASK
) -> discord.ui.View:
    """The hand's buttons with "Leave" on the last row: a computer plays the seat until its
    player takes it back (the way to leave a running game; without a turn timer nothing
    else hands a seat over). On every hand of a person playing, whoever's turn it is: one
    who must go need not wait for their turn. Drawn at version 0: leaving is allowed at
    any moment, so the button never makes a hand look different. ``step``: once the player
    pressed it and was told what it does, the button that does it ("Yes, leave", or "Leave
    and stop the game" for the last person playing), and "No, stay" beside it."""
    view = view or detached_view()
    steps = [step] if step is LeaveStep.ASK else [step, LeaveStep.STAY]
    if len(view.children) + len(steps) <= MAX_BUTTONS:
        for shown in steps:
            label, emoji, style = _LEAVE_BUTTONS[shown]
            leave = CustomId(game, Verb.LEAVE, shown.value, 0)
            view.add_item(button(leave, label=t(label), emoji=emoji, style=style, row=MAX_ROWS - 1))
    return view


def _move_of(cid: CustomId) -> Move:
    """The service move a hand button stands for."""
    if cid.verb is Verb.BID:
        return MakeBid(cid.bid)
    if cid.verb is Verb.PLAY:
        return PlayCard(cid.card)
    if cid.verb is Verb.TRUMP:
        return NameTrump(cid.suit)
    if cid.verb is Verb.PLAYHIDDEN:
        return PlayHiddenCard()
    raise ValueError(f"{cid.verb} is not a move")


class HandClicks(TableClicks):
    """The hand's buttons: Show my hand, a bid, trump or card, Take my seat back (a bid
    clicked on the table goes to :class:`TableClicks`)."""

    async def _stale_table(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """While the bot may not update the table, its buttons stay as they were: the clicker
        gets their hand, which takes the bids meanwhile, not "the table shows the bids as
        they are now" (review)."""
        surface = self.surfaces.known(cid.game)
        if surface is None or not surface.permission_lost:
            await super()._stale_table(interaction, cid)
            return
        await self._open_hand(interaction, cid.game, note=None, edit=False)

    async def _hand(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        await self._open_hand(interaction, cid.game, note=None, edit=False)

    async def _open_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        *,
        note: str | None,
        edit: bool,
        theme: Theme | None = None,
        update: GameUpdate | None = None,
        leave: LeaveStep = LeaveStep.ASK,
    ) -> None:
        """Show the player's hand (in their language): a new ephemeral message, or the clicked
        hand redrawn (``theme``: the server's card theme, if the click read it already;
        ``update``: what the click received, see :meth:`bot.cogs.open_hands.OpenHands.hand_parts`;
        ``leave``: the player pressed "Leave" and was told what it does).

        Only a private message is ever redrawn as a hand: a hand button on a public message
        (which the bot never draws) gets a new private message instead.
        """
        user = interaction.user.id
        t = await reader_texts(interaction)
        content, view, seat = await self.surfaces.hand_parts(
            game_id, user, note, t=t, theme=theme, update=update, leave=leave
        )
        own = update.view if update is not None else None
        round_no = own.view.round if own is not None else None
        clicked = interaction.message
        message_id: int | None
        sent = not (edit and clicked is not None and clicked.flags.ephemeral)
        if sent:
            message_id = await self._send_private(interaction, content, view)
        else:
            assert clicked is not None
            await self._edit_clicked(interaction, content=content, view=view)
            message_id = clicked.id
        self.surfaces.remember_hand(
            game_id,
            user,
            seat,
            interaction,
            (content, view),
            spoken=spoken_language(interaction.locale),
            message_id=message_id,
            leave=leave,
            # The move's note, for the redraws that follow (the computers' moves, say).
            note=None if note is None or round_no is None else (round_no, note),
        )
        if message_id is not None:
            # After the answer: the player waits for nothing more.
            await self.surfaces.keep_hand(game_id, user, interaction, message_id)

    async def _act(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        move = _move_of(cid)
        user = interaction.user.id
        # Another click of this user in this game while this one is under way (a double
        # click, or two buttons pressed together) waits for it if refused, then is answered
        # like it (see ``_click_done``), whichever of them the service took first.
        # A move answers a Leave question asked before it: they stay (one asked while the
        # move is under way stands).
        self.surfaces.moved(cid.game, user)
        async with self._clicking(cid.game, user):
            update = await self._timely(
                interaction,
                self.service.act(cid.game, user, move, cid.version, request_id=str(interaction.id)),
                update=True,
            )
            if on_table(interaction, cid):
                await self._bid_on_table(interaction, cid, update)
                return
            # Recorded before anything else can run, so that the updates of the computer
            # moves that follow this one are rendered after it.
            self.surfaces.after_update(update, actor_user_id=user)
            note, theme = await self._remember_done(interaction, cid, update)
            await self._open_hand(
                interaction, cid.game, note=note, edit=True, theme=theme, update=update
            )

    async def _leave_game(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        """ "Leave" on a hand asks first (a misclick beside the cards would hand the seat
        over): the hand, redrawn, says what leaving does, and its "Leave" becomes "Yes,
        leave" (:class:`LeaveStep`), with which a computer plays the seat from now on; the
        hand, redrawn, says so and offers "Take my seat back". The last person playing is
        told that their leaving stops the game instead, and offered "Leave and stop the
        game", which does."""
        user = interaction.user.id
        t = await reader_texts(interaction)
        step = LeaveStep(cid.arg)  # the custom id's pattern admits no other argument
        if step is LeaveStep.STAY:  # asked, they stay: the hand as before, with "Leave"
            await self._open_hand(interaction, cid.game, note=None, edit=True)
            return
        if step is LeaveStep.ASK:
            info = await self.service.get_game(cid.game)
            # The last person is asked by the service, below; a game over or a seat no longer
            # theirs is refused by it.
            playing = info.playing()
            if info.status is GameStatus.ACTIVE and user in playing and playing != [user]:
                # The hand asks (:func:`leave_question`), with "Yes, leave".
                await self._open_hand(
                    interaction, cid.game, note=None, edit=True, leave=LeaveStep.CONFIRM
                )
                return
        try:
            # Told in the channel only by the click that hands the seat over (review: a
            # second "Yes, leave", or Leave pressed by one a computer already stands in for
            # after timeouts, changes nothing and said so again).
            async with self._clicking(cid.game, user, after_others=True):
                before = await self.service.get_game(cid.game)
                info = await self._timely(
                    interaction,
                    self.service.leave(cid.game, user, may_stop=step is LeaveStep.STOP),
                    update=True,
                )
        except LastPersonError:
            # The hand asks (:func:`leave_question`), with "Leave and stop the game".
            await self._open_hand(interaction, cid.game, note=None, edit=True, leave=LeaveStep.STOP)
            return
        self.surfaces.request(self.surfaces.adopt(info))
        note = None
        if info.status is GameStatus.CANCELLED:  # the last person left: the game stopped
            self.surfaces.cancelled(info.id, "abandoned", skip=user)
            note = "🚪 " + t(LEFT)
        await self._open_hand(interaction, cid.game, note=note, edit=True)
        seat = info.seat_of(user)
        if info.status is GameStatus.ACTIVE and seat is not None and not before.seats[seat].away:
            left, host = info.seats[seat], new_host(before, info)
            self.surfaces.tell(info.id, lambda _, t: left_note(left, host=host, t=t))

    async def _take_back(self, interaction: discord.Interaction[Any], cid: CustomId) -> None:
        user = interaction.user.id
        update = await self._timely(
            interaction, self.service.take_back(cid.game, user), update=True
        )
        self.surfaces.after_update(update, actor_user_id=user)
        t = await reader_texts(interaction)
        note = "🙋 " + t("You are playing your seat again.")
        await self._open_hand(interaction, cid.game, note=note, edit=True)
        self._tell_back(update, user)

    def _tell_back(self, update: GameUpdate, user_id: int) -> None:
        """Tell the channel that ``user_id`` plays their seat again after ``update``, and who
        hosts now if that changed."""
        info = update.info
        seat = None if info is None else info.seat_of(user_id)
        if info is not None and seat is not None:
            back, host = info.seats[seat], passed_to(update)
            self.surfaces.tell(info.id, lambda _, t: back_note(back, host=host, t=t))

    async def _hand_refused(
        self, interaction: discord.Interaction[Any], cid: CustomId, error: ServiceError
    ) -> None:
        """A refused click on a hand: the hand is redrawn as it is now, the reason on top
        (a stale click gets the current hand instead, with a word that it moved on)."""
        done = await self._click_done(interaction, cid, error)
        t = await reader_texts(interaction)
        if done is not None:
            # Not a refusal (a double click, or two buttons pressed together): the hand as
            # it is now, with what the first click did on top.
            note: str | None = self._again_note(done, cid, t)
        elif refusal_of(error)[0] == "already_bid":
            note = None  # the bid was made (from another hand): the hand shows it as it is
        elif isinstance(error, StaleVersionError):
            note = t(STALE)
        elif isinstance(error, GameStatusError):
            note = None  # the redrawn hand says that the game is over or cancelled
        else:
            try:  # a suit is named as the table shows it
                theme = await public_theme(self.service, interaction.guild_id)
            except ServiceError:
                theme = Theme.CLASSIC
            note = refusal_text(error, t=t, theme=theme)
        try:
            await self._open_hand(interaction, cid.game, note=note, edit=True)
        except ServiceError:
            await self._refuse(interaction, error)
