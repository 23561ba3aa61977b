"""What Discord shows, as pure functions of what a seat may see (``wizard.view.PlayerView``).

Public surfaces (the table, round summaries, the scorepad, final standings) are built from the
engine's public table, :class:`wizard.view.TableView` (R8.1): the service's ``GameInfo.table``,
or :func:`wizard.view.public_table` of any seat's ``PlayerView`` (no hand, no legal moves, bids
only once revealed). Whatever seat's view a caller holds, the public table is the same.

Private surfaces (the hand) take the ``PlayerView`` itself.

Every word goes through the translation layer (:mod:`bot.i18n`): each function that returns
text a person reads takes the :class:`~bot.i18n.Texts` of the reader's language as ``t``
(public surfaces: the server's language; private ones: the player's). Names, numbers, emoji
and card codes are the same in every language.

Cards read at a glance: a colour square per suit in the classic theme (🟦 B, 🟥 R, 🟩 G,
🟨 Y), a Wizard 🧙 and a Jester 🃏; the standard-deck theme of R1.5 uses
``wizard.cards.card_label`` with emoji suits (red hearts and diamonds, black spades and clubs).
A suit card's code (``B7``; ``8♥``) is the rules' notation (R1.4, R1.5), the same in every
language; Wizards and Jesters are shown by their emoji and their name in the reader's language
(``🧙Wizard``, ``🃏Narr``), never by the rules' initials (``Z``, ``N``, ``W``, ``JE``), which
only the custom ids carry.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import reduce
from typing import Final

import discord

from bot.i18n import N_, Texts
from wizard.cards import Card, Suit, Theme, card_label, suit_label
from wizard.options import Bidding, Options
from wizard.rules import forbidden_bid_public
from wizard.state import Bid, ChooseTrump, Phase, Play
from wizard.view import PlayerView, RoundSummary, SeatCard, TableView, public_table

# ------------------------------------------------------------------ cards

SUIT_SQUARES: Final[dict[Suit, str]] = {
    Suit.HUMANS: "🟦",
    Suit.DWARVES: "🟥",
    Suit.ELVES: "🟩",
    Suit.GIANTS: "🟨",
}
"""The classic theme's colour of each suit (R1.2: blue, red, green, yellow)."""
STANDARD_SUIT_EMOJI: Final[dict[Suit, str]] = {
    Suit.HUMANS: "♠️",
    Suit.DWARVES: "♥️",
    Suit.ELVES: "♦️",
    Suit.GIANTS: "♣️",
}
"""The standard-deck theme's suit emoji (R1.5): spades, hearts, diamonds, clubs."""
SUIT_NAMES: Final[dict[Theme, dict[Suit, str]]] = {
    Theme.CLASSIC: {
        # Translators: a suit of the Wizard deck (R1.2), blue.
        Suit.HUMANS: N_("Humans"),
        # Translators: a suit of the Wizard deck (R1.2), red.
        Suit.DWARVES: N_("Dwarves"),
        # Translators: a suit of the Wizard deck (R1.2), green.
        Suit.ELVES: N_("Elves"),
        # Translators: a suit of the Wizard deck (R1.2), yellow.
        Suit.GIANTS: N_("Giants"),
    },
    Theme.STANDARD: {
        # Translators: a suit of a standard deck of cards.
        Suit.HUMANS: N_("Spades"),
        # Translators: a suit of a standard deck of cards.
        Suit.DWARVES: N_("Hearts"),
        # Translators: a suit of a standard deck of cards.
        Suit.ELVES: N_("Diamonds"),
        # Translators: a suit of a standard deck of cards.
        Suit.GIANTS: N_("Clubs"),
    },
}
"""Each suit's name (translated where shown)."""
WIZARD_EMOJI: Final = "🧙"
JESTER_EMOJI: Final = "🃏"
_VS16: Final = "\ufe0f"  # asks for the emoji (coloured) form of ♠ ♥ ♦ ♣

COLOUR: Final = discord.Colour(0x5B3FA8)
"""The embeds' accent colour."""
EMPTY: Final = "—"

# --------------------------------------------------------- button labels

# The labels of the buttons (bot.ui.views), here because texts name them too.
# Translators: a button of the lobby.
JOIN_LABEL: Final = N_("Join")
# Translators: a button of the lobby.
LEAVE_LABEL: Final = N_("Leave")
# Translators: a button of the lobby.
ADD_COMPUTER_LABEL: Final = N_("Add computer player")
# Translators: a button of the lobby (the host starts the game).
START_LABEL: Final = N_("Start")
# Translators: a button of the lobby (the host cancels the game).
CANCEL_LABEL: Final = N_("Cancel")
# Translators: the button of the table that opens a player's private hand.
SHOW_HAND_LABEL: Final = N_("Show my hand")
# Translators: a button of the private hand, while a computer player holds the seat.
TAKE_BACK_LABEL: Final = N_("Take my seat back")

LEVEL_NAMES: Final[dict[str, str]] = {
    # Translators: a computer player's level (strength).
    "easy": N_("Easy"),
    # Translators: a computer player's level (strength).
    "normal": N_("Normal"),
    # Translators: a computer player's level (strength).
    "hard": N_("Hard"),
    # Translators: a computer player's level (strength): plays at random (tests only).
    "random": N_("Random"),
}
"""The name of each computer level (``wizard.ai.LEVELS``)."""
LEVEL_CHOICES_TEXT: Final[dict[str, str]] = {
    "easy": N_("Easy: plays by simple rules, for learning the game"),
    "normal": N_("Normal: thinks ahead about the cards still out, a good opponent"),
}
"""A level people may choose (``GuildSettings.USER_LEVELS``) with its one-line description,
as commands offer it."""


def level_name(level: str | None, *, t: Texts) -> str:
    """A computer level's name in ``t``'s language (an unknown one as it is stored)."""
    if level is None:
        return ""
    key = LEVEL_NAMES.get(level)
    return t(key) if key is not None else level


# Translators: a button of the private hand in round 1 under clairvoyance (R7.4).
PLAY_UNSEEN_LABEL: Final = N_("Play my card (unseen)")
# Translators: the button of the final standings: a new lobby like the finished game's.
PLAY_AGAIN_LABEL: Final = N_("Play again")

# Translators: “Show my hand” is the label of the table's button: translate it the same way.
HAND_EXPIRY_NOTE: Final = N_(
    "This private message updates itself for 15 minutes after you open it or click in it "
    "(Discord's limit); after that, press “Show my hand” on the table for a fresh one."
)

HAND_REPLACED: Final = N_("This hand was replaced by a newer one below.")
"""What an older hand says once its player opened a newer one (it keeps no buttons)."""

# ---------------------------------------------------------------- variants

VARIANT_NAMES: Final[dict[str, str]] = {
    "uneven_bids": N_("uneven bids"),
    Bidding.HIDDEN.value: N_("hidden bids"),
    Bidding.SECRET.value: N_("secret bids"),
    "clairvoyance": N_("clairvoyance"),
    "canadian": N_("Canadian rule"),
    "magic_twos": N_("magic twos"),
    "single_suit": N_("single suit"),
}
"""Each variant's name (R7), by option (the bidding modes by their value): words a player
reads, never a rule id."""

BID_MARKS: Final[dict[Bidding, tuple[str, str]]] = {
    # Translators: on the table, a bid made but kept private until the round is scored (R7.3).
    Bidding.SECRET: ("🔒", N_("secret")),
    # Translators: on the table, a bid made but not shown until all have bid (R7.2).
    Bidding.HIDDEN: ("✔", N_("hidden")),
}
"""The mark of a bid made but not shown yet, by bidding mode."""


def suit_emoji(suit: Suit, theme: Theme = Theme.CLASSIC) -> str:
    """The emoji of a suit: its colour square (classic) or its suit sign (standard)."""
    return SUIT_SQUARES[suit] if theme is Theme.CLASSIC else STANDARD_SUIT_EMOJI[suit]


def card_emoji(card: Card, theme: Theme = Theme.CLASSIC) -> str:
    """The emoji that marks ``card``: its suit's emoji, 🧙 or 🃏."""
    if card.is_wizard:
        return WIZARD_EMOJI
    if card.is_jester:
        return JESTER_EMOJI
    suit = card.suit
    assert suit is not None
    return suit_emoji(suit, theme)


def card_name(card: Card, *, t: Texts) -> str | None:
    """The word for a Wizard or a Jester in ``t``'s language (``None`` for a suit card):
    players read words, not the rules' initials ``Z`` and ``N`` (German) or ``W`` and ``JE``."""
    if card.is_wizard:
        # Translators: the card (not the game), as it is named on buttons and tables.
        return t.context("card", "Wizard")
    if card.is_jester:
        # Translators: the card, as it is named on buttons and tables.
        return t.context("card", "Jester")
    return None


def card_label_text(card: Card, theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """A card's label without its emoji (hand buttons): ``B7``, ``8♥``, or the name of a
    Wizard or a Jester in ``t``'s language, in both themes."""
    return card_name(card, t=t) or card_label(card, theme)


def card_text(card: Card, theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """``card`` as one short token: ``🟦B7``, ``8♥️``; a Wizard or a Jester by its emoji and
    its name in ``t``'s language (``🧙Wizard``, ``🃏Jester``; ``🧙Zauberer``, ``🃏Narr``) in
    both themes, never by the rules' initials."""
    name = card_name(card, t=t)
    if name is not None:
        return card_emoji(card, theme) + name
    label = card_label(card, theme)
    if theme is Theme.STANDARD:
        return label + _VS16
    return card_emoji(card, theme) + label


def cards_text(cards: Iterable[Card], theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """Cards separated by spaces, or a dash when there are none."""
    text = " ".join(card_text(c, theme, t=t) for c in cards)
    return text or EMPTY


def suit_text(suit: Suit, theme: Theme = Theme.CLASSIC, *, t: Texts) -> str:
    """A suit as ``🟦 Humans (B)`` or ``♠️ Spades``."""
    name = t(SUIT_NAMES[theme][suit])
    if theme is Theme.CLASSIC:
        return f"{suit_emoji(suit, theme)} {name} ({suit_label(suit, theme)})"
    return f"{suit_emoji(suit, theme)} {name}"


def sort_key(card: Card) -> tuple[int, int]:
    """Hand order: Jesters, then suits B R G Y by rank, then Wizards (weakest to strongest)."""
    if card.is_jester:
        return (0, 0)
    if card.is_wizard:
        return (2, 0)
    return (1, int(card))


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """``cards`` in hand order (see :func:`sort_key`)."""
    return tuple(sorted(cards, key=sort_key))


# --------------------------------------------------------- public table


def display_names(table: TableView, names: Sequence[str] | None = None) -> tuple[str, ...]:
    """Seat names safe to put in a message: markdown and mentions escaped."""
    raw = table.players if names is None else tuple(names)
    if len(raw) != len(table.players):
        raise ValueError(f"{len(raw)} names for {len(table.players)} seats")
    return tuple(
        discord.utils.escape_mentions(discord.utils.escape_markdown(name)) or "?" for name in raw
    )


def _bold(text: object) -> str:
    return f"**{text}**"


def trump_line(
    table: TableView, names: Sequence[str], theme: Theme = Theme.CLASSIC, *, t: Texts
) -> str:
    """The turned card and the trump of the round, in words."""
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
        return t(
            "Turned {card}: {dealer} chose {suit}.",
            card=shown,
            dealer=dealer,
            suit=suit_text(table.trump, theme, t=t),
        )
    assert table.trump is not None
    return t("Turned {card}: trump is {suit}.", card=shown, suit=suit_text(table.trump, theme, t=t))


def status_line(
    table: TableView, names: Sequence[str], theme: Theme = Theme.CLASSIC, *, t: Texts
) -> str:
    """What the game waits for, and from whom."""
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
        return "⏳ " + t("{player} to choose trump.", player=waiting)
    if phase is Phase.BID:
        if table.turn is None:
            return "⏳ " + t("Waiting for the bids of {players}.", players=waiting)
        # One seat to bid: an open bid, made with the table's buttons (bids_on_table).
        return "⏳ " + t(
            "{player} to bid, with the buttons below.", player=_bold(names[table.turn])
        )
    assert phase is Phase.PLAY
    who = _bold(names[table.turn]) if table.turn is not None else waiting
    line = "⏳ " + t("{player} to play.", player=who)
    if table.follow is not None:
        line += " " + t("Suit to follow: {suit}.", suit=suit_text(table.follow, theme, t=t))
    return line


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


def seat_lines(
    table: TableView,
    names: Sequence[str],
    computer: Collection[int] = (),
    *,
    t: Texts,
    levels: Mapping[int, str] | None = None,
    away: Collection[int] = (),
) -> list[str]:
    """One line per seat: turn marker, name, dealer, bid, tricks won, cards left, score.

    A computer seat is marked 🤖 with its level (``levels``: seat → level); a person's seat
    in ``away`` says that a computer of that level plays it for them."""
    levels = levels or {}
    lines = []
    playing = table.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)
    for seat, name in enumerate(names):
        marker = "▶️" if playing and seat in table.to_act else "▫️"
        bot = " 🤖" if seat in computer else ""
        if seat in computer and seat in levels:
            level = level_name(levels[seat], t=t)
            if seat in away:
                # Translators: after a person's name on the table: a computer of this level
                # plays their seat (after timeouts, or they left).
                bot = " 🤖 " + t("played by a computer ({level})", level=level)
            else:
                bot = f" 🤖 {level}"
        # Translators: after a player's name on the table: this player deals the round.
        dealer = " · 🔀 " + t("dealer") if table.round > 0 and seat == table.dealer else ""
        parts = [f"{marker} **{name}**{bot}{dealer}"]
        if table.round > 0:
            # Translators: a player's bid on the table: a number, a dash or a hidden mark.
            parts.append(t("bid {bid}", bid=bid_text(table, seat, t=t)))
            # Translators: the number of tricks a player has won so far this round.
            parts.append(t("won {tricks}", tricks=table.tricks[seat]))
            if playing:
                size = table.hand_sizes[seat]
                # Translators: how many cards a player still holds.
                parts.append(t.plural("{n} card", "{n} cards", size))
        # Translators: a player's total score (points), in bold.
        parts.append(t("{points} pts", points=_bold(table.scores[seat])))
        lines.append(" · ".join(parts))
    return lines


def trick_text(cards: Sequence[SeatCard], names: Sequence[str], theme: Theme, *, t: Texts) -> str:
    """A trick as ``Ann 🟦B7 · Bob 🧙Z`` in the order played."""
    return (
        " · ".join(f"{names[seat]} {card_text(card, theme, t=t)}" for seat, card in cards) or EMPTY
    )


def won_trick_text(
    cards: Sequence[SeatCard],
    names: Sequence[str],
    winner: int | None,
    theme: Theme,
    *,
    t: Texts,
) -> str:
    """A finished trick and who won it: ``Ann 🟦B7 · Bob 🧙Z → won by **Bob**``."""
    trick = trick_text(cards, names, theme, t=t)
    if winner is None:
        return trick
    # Translators: {trick} is the cards played, as “Ann 🟦B7 · Bob 🧙Z”.
    return t("{trick} → won by {player}", trick=trick, player=_bold(names[winner]))


def variant_names(options: Options, *, t: Texts) -> list[str]:
    """The names of the variants in force (empty for the standard game), in ``t``'s language;
    the same variants as ``Options.describe``, in the same order."""
    keys = []
    if options.uneven_bids:
        keys.append("uneven_bids")
    if options.bidding is not Bidding.OPEN:
        keys.append(options.bidding.value)
    keys += [
        k for k in ("clairvoyance", "canadian", "magic_twos", "single_suit") if getattr(options, k)
    ]
    return [t(VARIANT_NAMES[k]) for k in keys]


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
) -> discord.Embed:
    """The public table message: round, dealer, trump, bids, tricks, the tricks on the table,
    whose turn it is and the running scores (and, with ``deadline``, when the turn timer
    runs out, as a Unix time). ``title`` (already in ``t``'s language) defaults to the
    game's name."""
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
            trump_line(table, shown, theme, t=t),
            status_line(table, shown, theme, t=t),
            "",
            *seat_lines(table, shown, computer, t=t, levels=levels, away=away),
        ]
    )
    if table.round > 0:
        current = trick_text(table.trick, shown, theme, t=t)
        if table.phase is Phase.PLAY and not table.trick:
            current = t("{player} leads.", player=_bold(shown[table.leader]))
        embed.add_field(name=t("Current trick"), value=current, inline=False)
        if table.last_trick:
            embed.add_field(
                name=t("Last trick"),
                value=won_trick_text(table.last_trick, shown, table.last_winner, theme, t=t),
                inline=False,
            )
    if deadline is not None and table.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY):
        embed.add_field(
            name=t("Turn timer"),
            value="⏰ "
            + t(
                # Translators: {when} is a time Discord shows as “in 5 minutes”.
                "Time runs out {when}: then a computer moves for whoever has not acted yet.",
                when=_relative(deadline),
            ),
            inline=False,
        )
    variants = variant_names(table.options, t=t)
    embed.set_footer(
        text=t("Variants: {variants}", variants=", ".join(variants))
        if variants
        else t("Variants: none (classic)")
    )
    return embed


# ---------------------------------------------------------------- bids on the table


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


# ---------------------------------------------------------------- hand


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


def hand_text(
    view: PlayerView,
    *,
    names: Sequence[str] | None = None,
    theme: Theme = Theme.CLASSIC,
    t: Texts,
) -> str:
    """The private hand message of ``view.seat``: its cards (or, under clairvoyance, the
    others'), its own bid even when hidden, and what it may do now."""
    table = public_table(view)
    shown = display_names(table, names)
    seat = view.seat
    lines: list[str] = []
    if view.round == 0:
        return t("The cards are being dealt.")
    hand = view.hand
    if hand is None:
        lines.append(
            t(
                "**Round {round} of {rounds}: you cannot see your own card** (clairvoyance).",
                round=view.round,
                rounds=view.num_rounds,
            )
        )
        others = [
            f"{shown[i]} {cards_text(sort_hand(cards), theme, t=t)}"
            for i, cards in enumerate(view.hands)
            if i != seat and cards is not None
        ]
        lines.append(t("The others hold: {hands}", hands=" · ".join(others) or EMPTY))
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
    if view.trump is None:
        facts = [t("Trump: none")]
    else:
        facts = [t("Trump: {suit}", suit=suit_text(view.trump, theme, t=t))]
    own_bid = view.bids[seat]
    if own_bid is not None:
        facts.append(t("your bid: {bid}", bid=own_bid))
    if view.phase in (Phase.PLAY, Phase.ROUND_OVER, Phase.GAME_OVER):
        facts.append(t("tricks won: {tricks}", tricks=view.tricks[seat]))
    lines.append(" · ".join(facts))
    if view.my_turn and view.phase is Phase.PLAY and view.trick:
        lines.append(t("On the table: {trick}", trick=trick_text(view.trick, shown, theme, t=t)))
    if view.my_turn and view.phase is Phase.BID:
        made = [(s, b) for s, b in enumerate(table.bids) if b is not None and s != seat]
        if made:
            lines.append(
                t(
                    "Bids so far: {bids} (total {total} of {tricks})",
                    bids=", ".join(f"{shown[s]} {b}" for s, b in made),
                    total=sum(b for _, b in made),
                    tricks=view.round_tricks,
                )
            )
    lines.append(_prompt(view, t=t))
    return "\n".join(line for line in lines if line)


def _prompt(view: PlayerView, *, t: Texts) -> str:
    on_table = bids_on_table(public_table(view))
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


# ------------------------------------------------------ rounds and game


def round_summary_embed(
    summary: RoundSummary,
    players: Sequence[str],
    *,
    num_rounds: int | None = None,
    theme: Theme = Theme.CLASSIC,
    t: Texts,
) -> discord.Embed:
    """After a round: each player's bid, tricks and points, and the new totals."""
    names = _escape(players)
    if num_rounds:
        title = t("Round {round} of {rounds} scored", round=summary.round, rounds=num_rounds)
    else:
        title = t("Round {round} scored", round=summary.round)
    embed = discord.Embed(title=title, colour=COLOUR)
    if summary.trump is None:
        # Translators: {trump} of “Dealer {dealer} · {turned} · {trump}” (a round summary).
        trump = t("no trump")
    else:
        # Translators: {trump} of “Dealer {dealer} · {turned} · {trump}” (a round summary).
        trump = t("trump {suit}", suit=suit_text(summary.trump, theme, t=t))
    if summary.turned is None:
        # Translators: {turned} of “Dealer {dealer} · {turned} · {trump}” (a round summary).
        turned = t("nothing turned")
    else:
        # Translators: {turned} of “Dealer {dealer} · {turned} · {trump}” (a round summary).
        turned = t("turned {card}", card=card_text(summary.turned, theme, t=t))
    lines = [
        # Translators: {turned} is “turned {card}” or “nothing turned”; {trump} is
        # “trump {suit}” or “no trump”.
        t(
            "Dealer {dealer} · {turned} · {trump}",
            dealer=_bold(names[summary.dealer]),
            turned=turned,
            trump=trump,
        ),
        "",
    ]
    for seat, name in enumerate(names):
        bid, won, points = summary.bids[seat], summary.tricks[seat], summary.points[seat]
        mark = "✅" if bid == won else "❌"
        line = t(
            # Translators: {points} is signed (+30, −10); {total} is the new score, in bold.
            "{player}: bid {bid}, won {won} → {points} (total {total})",
            player=_bold(name),
            bid=bid,
            won=won,
            points=f"{points:+d}",
            total=_bold(summary.totals[seat]),
        )
        lines.append(f"{mark} {line}")
    embed.description = "\n".join(lines)
    return embed


def scorepad_text(history: Sequence[RoundSummary], players: Sequence[str], *, t: Texts) -> str:
    """The scorepad so far as narrow lines, one per player, best first: place, name, total
    and, round by round, ✅ (bid made) or ❌ (missed).

    No table: a table's width grows with the players and their names (6 names of 32
    characters are wider than Discord shows a code block on a phone), while these lines wrap
    like any text. The bids and tricks of every round are in that round's summary and on the
    final scorepad picture.
    """
    if not history:
        return t("(no round scored yet)")
    names = _escape(players)
    totals = history[-1].totals
    lines = []
    for place, seat in standings(totals):
        medal = MEDALS.get(place) or t("{place}.", place=place)
        marks = bid_marks(history, seat)
        lines.append(f"{medal} {_bold(names[seat])} · {_bold(totals[seat])} · {marks}")
    return "\n".join(lines)


def bid_marks(history: Sequence[RoundSummary], seat: int) -> str:
    """A seat's rounds at a glance: ✅ where its bid was made, ❌ where it was missed."""
    return "".join("✅" if r.bids[seat] == r.tricks[seat] else "❌" for r in history)


def standings(scores: Sequence[int]) -> list[tuple[int, int]]:
    """``(place, seat)`` pairs, best first; tied scores share a place (1, 1, 3)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out: list[tuple[int, int]] = []
    for index, seat in enumerate(order):
        tied = index > 0 and scores[seat] == scores[order[index - 1]]
        out.append((out[-1][0] if tied else index + 1, seat))
    return out


MEDALS: Final = {1: "🥇", 2: "🥈", 3: "🥉"}


def and_list(items: Sequence[str], *, t: Texts) -> str:
    """``A``, ``A and B``, ``A and B and C``."""

    def pair(first: str, second: str) -> str:
        # Translators: names joined: “Ann and Bob”; {first} may itself be “Ann and Bob”.
        return t("{first} and {second}", first=first, second=second)

    return reduce(pair, items)


def final_embed(
    table: TableView,
    *,
    names: Sequence[str] | None = None,
    scorepad_image: str | None = None,
    t: Texts,
) -> discord.Embed:
    """The final standings: places, scores, winners (R6.3: tied leaders share the win), and
    the scorepad: the picture at ``scorepad_image`` (e.g. ``attachment://…``), or without
    it each player's rounds as made/missed marks (:func:`bid_marks`)."""
    shown = display_names(table, names)
    ranking = standings(table.scores)
    best = table.scores[ranking[0][1]] if ranking else 0
    winners = [shown[s] for _, s in ranking if table.scores[s] == best]
    lines = [
        # Translators: a line of the final standings; {place} is a medal (🥇) or “4.”.
        t.plural(
            "{place} {player}: {n} point",
            "{place} {player}: {n} points",
            table.scores[seat],
            # Translators: a place below the medals in the final standings: 4., 5., 6.
            place=MEDALS.get(place) or t("{place}.", place=place),
            player=_bold(shown[seat]),
        )
        for place, seat in ranking
    ]
    title = t.plural(
        "🏆 Winner: {players}",
        "🏆 Winners: {players}",
        len(winners),
        players=and_list(winners, t=t) if winners else "",
    )
    embed = discord.Embed(title=title, colour=COLOUR)
    pad = []
    if table.history:  # the text fallback of the picture: each player's rounds, made or not
        # Translators: the heading of the final standings' rounds when no picture is shown.
        pad = ["", t("**Rounds** (✅ bid made, ❌ missed)")]
        pad += [f"{_bold(shown[s])} {bid_marks(table.history, s)}" for _, s in ranking]
    if scorepad_image is not None:
        embed.set_image(url=scorepad_image)
        pad = []
    embed.description = "\n".join([*lines, *pad])
    return embed


def round_end_embed(
    summary: RoundSummary,
    players: Sequence[str],
    *,
    num_rounds: int | None = None,
    last_trick: Sequence[SeatCard] = (),
    last_winner: int | None = None,
    history: Sequence[RoundSummary] = (),
    theme: Theme = Theme.CLASSIC,
    t: Texts,
) -> discord.Embed:
    """A scored round as posted in the channel: the summary, the round's final trick (it is
    no longer on the table) and the standings so far (:func:`scorepad_text`): lines that
    wrap, so that 6 players with 32-character names fit a phone as well as a desktop."""
    embed = round_summary_embed(summary, players, num_rounds=num_rounds, theme=theme, t=t)
    names = _escape(players)
    if last_trick:
        embed.add_field(
            name=t("Final trick"),
            value=won_trick_text(last_trick, names, last_winner, theme, t=t),
            inline=False,
        )
    if history:
        # In the description (4096 characters), not a field (1024): 6 long names must fit.
        # Translators: the heading of the standings under a round summary.
        heading = t("**Standings** (✅ bid made, ❌ missed, round by round)")
        embed.description = (
            f"{embed.description}\n\n{heading}\n{scorepad_text(history, players, t=t)}"
        )
    return embed


# ----------------------------------------------------------------- lobby


def _relative(when: float) -> str:
    """A Unix time as a Discord timestamp that every client shows as "in 5 minutes"."""
    return f"<t:{int(when)}:R>"


def timer_text(turn_seconds: float | None, *, t: Texts) -> str:
    """The turn timer in words."""
    if turn_seconds is None:
        return t("no turn timer")
    seconds = int(turn_seconds)
    if seconds % 60 == 0:
        return t.plural("{n} minute per turn", "{n} minutes per turn", seconds // 60)
    return t.plural("{n} second per turn", "{n} seconds per turn", seconds)


def variants_text(options: Options, *, t: Texts) -> str:
    """The variants in force, in words."""
    names = variant_names(options, t=t)
    return ", ".join(names) if names else t("none (the classic game)")


def lobby_embed(
    *,
    game_id: int,
    seats: Sequence[tuple[str, bool]],
    host_seat: int | None,
    options: Options,
    turn_seconds: float | None,
    max_seats: int,
    deadline: float | None = None,
    t: Texts,
    levels: Sequence[str | None] = (),
    lobby_level: str | None = None,
) -> discord.Embed:
    """The lobby: who has joined (``seats`` are ``(name, is_computer)`` pairs, ``levels`` the
    level of each computer seat), the level of computers added, the variants, the turn timer
    and how to start."""
    names = _escape(name for name, _ in seats)
    lines = [
        t("**Players ({players} of 3–{max_seats}):**", players=len(seats), max_seats=max_seats)
    ]
    for seat, (name, (_, computer)) in enumerate(zip(names, seats, strict=True)):
        tags = []
        if computer:
            # Translators: a tag after a name in the lobby: a computer player.
            tags.append("🤖 " + t("computer"))
            if seat < len(levels) and levels[seat] is not None:
                tags.append(level_name(levels[seat], t=t))
        if seat == host_seat:
            # Translators: a tag after a name in the lobby: who opened the game.
            tags.append(t("host"))
        suffix = f" ({', '.join(tags)})" if tags else ""
        lines.append(f"{seat + 1}. **{name}**{suffix}")
    lines += [
        "",
        t("**Variants:** {variants}", variants=variants_text(options, t=t)),
        t("**Timer:** {timer}", timer=timer_text(turn_seconds, t=t)),
        *(
            [
                # Translators: the level of the computer players the lobby's button adds.
                t("**Computer players:** {level}", level=level_name(lobby_level, t=t))
            ]
            if lobby_level is not None
            else []
        ),
        "",
        t(
            # Translators: {join} and {start} are the lobby's buttons.
            "Press {join} to take a seat. The host presses {start} once 3 to {max_seats} "
            "players are in (add computer players to fill seats).",
            join=_bold(t(JOIN_LABEL)),
            start=_bold(t(START_LABEL)),
            max_seats=max_seats,
        ),
    ]
    if deadline is not None:
        lines.append(
            t("This lobby closes {when} unless the game starts.", when=_relative(deadline))
        )
    embed = discord.Embed(title=t("Wizard · game {game} · lobby", game=game_id), colour=COLOUR)
    embed.description = "\n".join(lines)
    return embed


def invitation_text(game_id: int, previous: int, mentions: Sequence[str], *, t: Texts) -> str:
    """The line above a "Play again" lobby: who played game ``previous`` (``mentions``,
    each told once, by Discord) and how they take their seat again."""
    line = t(
        "🔁 **Game {game}:** a rematch of game {previous}, same options and computers.",
        game=game_id,
        previous=previous,
    )
    if mentions:
        line += "\n" + t(
            # Translators: {players} are mentions; {join} is the lobby's button.
            "{players}: press {join} to take your seat again.",
            players=" ".join(mentions),
            join=_bold(t(JOIN_LABEL)),
        )
    return line


CANCEL_REASONS: Final[dict[str, str]] = {
    "host": N_("The host cancelled the game."),
    "manager": N_("A server manager cancelled the game."),
    "expired": N_("Nobody started the game in time, so the lobby closed."),
    "empty": N_("Everyone left the lobby."),
}
CANCELLED: Final = N_("The game was cancelled.")
"""Why a game was cancelled, for a reason :data:`CANCEL_REASONS` does not know."""


def cancelled_embed(game_id: int, reason: str, *, t: Texts) -> discord.Embed:
    """A lobby or table that will not go on."""
    text = t(CANCEL_REASONS.get(reason, CANCELLED))
    embed = discord.Embed(title=t("Wizard · game {game} · cancelled", game=game_id), colour=COLOUR)
    embed.description = f"🛑 {text} " + t("No result is recorded.")
    return embed


# ----------------------------------------------------------- rules, pings


def rules_text(
    options: Options,
    *,
    players: int | None = None,
    turn_seconds: float | None = None,
    t: Texts,
) -> str:
    """A short summary of the rules and of the variants in force (``/wizard rules``)."""
    if options.single_suit:
        deal = t(
            "Each player draws from their own 15-card deck (one suit 1–13, a Wizard, a Jester): "
            "4 cards in round 1, one more each round, 12 rounds. No trump, no suit to follow: "
            "the highest value wins (Jester lowest, Wizard highest; the first of equals wins)."
        )
    elif players:
        deal = t(
            "60 cards: four suits 1–13 (🟦 Humans, 🟥 Dwarves, 🟩 Elves, 🟨 Giants), "
            "4 🧙 Wizards and 4 🃏 Jesters. Round *r* deals *r* cards each ({rounds} rounds "
            "for {players} players). The next card is turned: its suit is trump; a Jester "
            "means no trump; a Wizard lets the dealer choose trump.",
            rounds=60 // players,
            players=players,
        )
    else:
        deal = t(
            "60 cards: four suits 1–13 (🟦 Humans, 🟥 Dwarves, 🟩 Elves, 🟨 Giants), "
            "4 🧙 Wizards and 4 🃏 Jesters. Round *r* deals *r* cards each. The next card "
            "is turned: its suit is trump; a Jester means no trump; a Wizard lets the dealer "
            "choose trump."
        )
    lines = [
        t("**Wizard in short**"),
        deal,
        t("**Bidding:** everyone says how many tricks they will win, starting left of the dealer."),
        t(
            "**Play:** follow the suit led if you can; a 🧙 Wizard or a 🃏 Jester may always be "
            "played. The first Wizard wins the trick, else the highest trump, else the highest "
            "card of the suit led (only Jesters: the first Jester)."
        ),
        t(
            "**Scoring:** bid exactly right: 20 + 10 per trick. Otherwise −10 per trick too "
            "many or too few. Highest total after the last round wins."
        ),
        "",
        t("**Variants in force:** {variants}", variants=variants_text(options, t=t)),
    ]
    rules = []
    if options.bidding is Bidding.HIDDEN:
        rules.append(t("Hidden bids: everyone bids privately; all bids are shown together."))
    elif options.bidding is Bidding.SECRET:
        rules.append(t("Secret bids: bids stay private until the round is scored."))
    if options.uneven_bids:
        rules.append(t("Uneven bids: the dealer may not make the bids add up to the tricks."))
    if options.canadian:
        rules.append(
            t(
                "Canadian rule: in the last round a sole leader bidding last may not make the "
                "bids add up."
            )
        )
    if options.clairvoyance:
        rules.append(t("Clairvoyance: in round 1 you see everyone's card but your own."))
    if options.magic_twos:
        rules.append(t("Magic twos: a 2 played into a trick of its own suit wins it."))
    lines += [f"• {rule}" for rule in rules]
    if turn_seconds is not None:
        lines.append(
            t(
                "**Timer:** {timer}; when it runs out a computer moves for you.",
                timer=timer_text(turn_seconds, t=t),
            )
        )
    else:
        lines.append(t("**Timer:** none: the game waits for every player."))
    lines.append(
        t(
            "Press {button} on the table to see your cards and play.",
            button=_bold(t(SHOW_HAND_LABEL)),
        )
    )
    return "\n".join(lines)


PING_TEXTS: Final[dict[Phase, str]] = {
    Phase.CHOOSE_TRUMP: N_(
        "{players}: your turn to choose trump (Wizard, round {round}). Press {button}."
    ),
    Phase.BID: N_("{players}: your turn to bid (Wizard, round {round}). Press {button}."),
    Phase.PLAY: N_("{players}: your turn to play (Wizard, round {round}). Press {button}."),
}
"""The turn reminder by phase: ``{players}`` are mentions, ``{button}`` the table's button."""
PING_ACT: Final = N_("{players}: your turn to act (Wizard, round {round}). Press {button}.")
"""The turn reminder in any other phase."""
PING_BID_ON_TABLE: Final = N_(
    "{players}: your turn to bid (Wizard, round {round}), with the buttons on the table."
)
"""The turn reminder for an open bid, made on the table (:func:`bids_on_table`)."""


def ping_text(
    mentions: Sequence[str], phase: Phase, round_no: int, *, t: Texts, on_table: bool = False
) -> str:
    """The turn reminder: who is awaited and for what (``on_table``: a bid made with the
    table's buttons)."""
    text = t(
        PING_BID_ON_TABLE if on_table else PING_TEXTS.get(phase, PING_ACT),
        players=" ".join(mentions),
        round=round_no,
        button=_bold(t(SHOW_HAND_LABEL)),
    )
    return f"🔔 {text}"


def hand_message(
    view: PlayerView,
    *,
    note: str | None = None,
    away: bool = False,
    theme: Theme = Theme.CLASSIC,
    t: Texts,
) -> str:
    """The whole private hand message: an optional note on top (what just happened, or why
    a click was refused, already in ``t``'s language), the hand, and when it stops updating
    itself."""
    lines = [note] if note else []
    if away:
        lines.append(
            "🤖 "
            + t(
                "**A computer player is playing your seat.** Press {button} to play again "
                "yourself.",
                button=_bold(t(TAKE_BACK_LABEL)),
            )
        )
    lines.append(hand_text(view, theme=theme, t=t))
    if view.phase is not Phase.GAME_OVER:
        lines.append("-# " + t(HAND_EXPIRY_NOTE))
    return "\n".join(lines)


def replaced_hand_message(*, t: Texts) -> str:
    """What an older private hand shows once a newer one is open: no cards, so that it can
    never show a card already played."""
    return "🗂️ " + t(HAND_REPLACED)


def _escape(names: Iterable[str]) -> list[str]:
    return [discord.utils.escape_mentions(discord.utils.escape_markdown(n)) or "?" for n in names]


__all__ = [
    "ADD_COMPUTER_LABEL",
    "BID_MARKS",
    "CANCEL_LABEL",
    "CANCEL_REASONS",
    "HAND_EXPIRY_NOTE",
    "HAND_REPLACED",
    "JESTER_EMOJI",
    "JOIN_LABEL",
    "LEAVE_LABEL",
    "PLAY_AGAIN_LABEL",
    "PLAY_UNSEEN_LABEL",
    "SHOW_HAND_LABEL",
    "STANDARD_SUIT_EMOJI",
    "START_LABEL",
    "SUIT_NAMES",
    "SUIT_SQUARES",
    "TAKE_BACK_LABEL",
    "VARIANT_NAMES",
    "WIZARD_EMOJI",
    "and_list",
    "bid_marks",
    "bid_text",
    "cancelled_embed",
    "card_emoji",
    "card_label_text",
    "card_name",
    "card_text",
    "cards_text",
    "final_embed",
    "hand_message",
    "hand_text",
    "invitation_text",
    "legal_bids",
    "lobby_embed",
    "must_play_hidden",
    "ping_text",
    "playable_cards",
    "public_table",
    "replaced_hand_message",
    "round_end_embed",
    "round_summary_embed",
    "rules_text",
    "scorepad_text",
    "seat_lines",
    "sort_hand",
    "standings",
    "status_line",
    "suit_emoji",
    "suit_text",
    "table_embed",
    "timer_text",
    "trick_text",
    "trump_choices",
    "trump_line",
    "variant_names",
    "variants_text",
    "won_trick_text",
]
