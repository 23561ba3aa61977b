"""What Discord shows, as pure functions of what a seat may see (``wizard.view.PlayerView``).

Public surfaces (the table, round summaries, the scorepad, final standings) are built from the
engine's public table, :class:`wizard.view.TableView` (R8.1): the service's ``GameInfo.table``,
or :func:`wizard.view.public_table` of any seat's ``PlayerView`` (no hand, no legal moves, bids
only once revealed). Whatever seat's view a caller holds, the public table is the same.

Private surfaces (the hand) take the ``PlayerView`` itself.

Cards read at a glance: a colour square per suit in the classic theme (🟦 B, 🟥 R, 🟩 G,
🟨 Y), a Wizard 🧙 and a Jester 🃏; the standard-deck theme of R1.5 uses
``wizard.cards.card_label`` with emoji suits (red hearts and diamonds, black spades and clubs).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Final

import discord

from wizard.cards import Card, Suit, Theme, card_label, suit_label
from wizard.options import Bidding, Options
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
        Suit.HUMANS: "Humans",
        Suit.DWARVES: "Dwarves",
        Suit.ELVES: "Elves",
        Suit.GIANTS: "Giants",
    },
    Theme.STANDARD: {
        Suit.HUMANS: "Spades",
        Suit.DWARVES: "Hearts",
        Suit.ELVES: "Diamonds",
        Suit.GIANTS: "Clubs",
    },
}
WIZARD_EMOJI: Final = "🧙"
JESTER_EMOJI: Final = "🃏"
_VS16: Final = "\ufe0f"  # asks for the emoji (coloured) form of ♠ ♥ ♦ ♣

COLOUR: Final = discord.Colour(0x5B3FA8)
"""The embeds' accent colour."""
EMPTY: Final = "—"
HAND_EXPIRY_NOTE: Final = (
    "This private message updates itself for 15 minutes after you open it or click in it "
    "(Discord's limit); after that, press “Show my hand” on the table for a fresh one."
)


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


def card_text(card: Card, theme: Theme = Theme.CLASSIC) -> str:
    """``card`` as one short token: ``🟦B7``, ``🧙Z``, ``🃏N``; ``8♥️``, ``🧙W``, ``🃏JE``."""
    label = card_label(card, theme)
    if theme is Theme.STANDARD and card.suit is not None:
        return label + _VS16
    return card_emoji(card, theme) + label


def cards_text(cards: Iterable[Card], theme: Theme = Theme.CLASSIC) -> str:
    """Cards separated by spaces, or a dash when there are none."""
    text = " ".join(card_text(c, theme) for c in cards)
    return text or EMPTY


def suit_text(suit: Suit, theme: Theme = Theme.CLASSIC) -> str:
    """A suit as ``🟦 Humans (B)`` or ``♠️ Spades``."""
    if theme is Theme.CLASSIC:
        return f"{suit_emoji(suit, theme)} {SUIT_NAMES[theme][suit]} ({suit_label(suit, theme)})"
    return f"{suit_emoji(suit, theme)} {SUIT_NAMES[theme][suit]}"


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


def trump_line(table: TableView, names: Sequence[str], theme: Theme = Theme.CLASSIC) -> str:
    """The turned card and the trump of the round, in words."""
    if table.round == 0:
        return "The first round is being dealt."
    if table.options.single_suit:
        return "No trump: every player draws from their own suit (single suit, R7.7)."
    turned = table.turned
    if turned is None:
        return "No card is turned in the last round: no trump (R3.4)."
    shown = card_text(turned, theme)
    if turned.is_jester:
        return f"Turned {shown}: no trump this round (R3.2)."
    if turned.is_wizard:
        if table.trump is None:
            return f"Turned {shown}: **{names[table.dealer]}** (dealer) is choosing trump (R3.3)."
        return f"Turned {shown}: **{names[table.dealer]}** chose {suit_text(table.trump, theme)}."
    assert table.trump is not None
    return f"Turned {shown}: trump is {suit_text(table.trump, theme)}."


def status_line(table: TableView, names: Sequence[str], theme: Theme = Theme.CLASSIC) -> str:
    """What the game waits for, and from whom."""
    phase = table.phase
    if phase is Phase.GAME_OVER:
        return "🏁 The game is over."
    if phase is Phase.ROUND_OVER:
        if table.round == 0:
            return "🔀 Dealing round 1…"
        return f"✅ Round {table.round} is scored. Dealing round {table.round + 1}…"
    waiting = ", ".join(f"**{names[s]}**" for s in table.to_act) or EMPTY
    if phase is Phase.CHOOSE_TRUMP:
        return f"⏳ {waiting} to choose trump."
    if phase is Phase.BID:
        if table.turn is None:
            return f"⏳ Waiting for the bids of {waiting}."
        return f"⏳ **{names[table.turn]}** to bid."
    assert phase is Phase.PLAY
    who = f"**{names[table.turn]}**" if table.turn is not None else waiting
    follow = ""
    if table.follow is not None:
        follow = f" Suit to follow: {suit_text(table.follow, theme)}."
    return f"⏳ {who} to play.{follow}"


def bid_text(table: TableView, seat: int) -> str:
    """A seat's bid as everyone may see it: the number, a hidden/secret mark, or a dash."""
    bid = table.bids[seat]
    if table.bids_revealed and bid is not None:
        return str(bid)
    if not table.has_bid[seat]:
        return EMPTY
    return "🔒 secret" if table.options.bidding is Bidding.SECRET else "✔ hidden"


def seat_lines(table: TableView, names: Sequence[str], computer: Collection[int] = ()) -> list[str]:
    """One line per seat: turn marker, name, dealer, bid, tricks won, cards left, score."""
    lines = []
    playing = table.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)
    for seat, name in enumerate(names):
        marker = "▶️" if playing and seat in table.to_act else "▫️"
        bot = " 🤖" if seat in computer else ""
        dealer = " · 🔀 dealer" if table.round > 0 and seat == table.dealer else ""
        parts = [f"{marker} **{name}**{bot}{dealer}"]
        if table.round > 0:
            parts.append(f"bid {bid_text(table, seat)}")
            parts.append(f"won {table.tricks[seat]}")
            if playing:
                size = table.hand_sizes[seat]
                parts.append(f"{size} card{'s' if size != 1 else ''}")
        parts.append(f"**{table.scores[seat]}** pts")
        lines.append(" · ".join(parts))
    return lines


def trick_text(cards: Sequence[SeatCard], names: Sequence[str], theme: Theme) -> str:
    """A trick as ``Ann 🟦B7 · Bob 🧙Z`` in the order played."""
    return " · ".join(f"{names[seat]} {card_text(card, theme)}" for seat, card in cards) or EMPTY


def table_embed(
    table: TableView,
    *,
    names: Sequence[str] | None = None,
    theme: Theme = Theme.CLASSIC,
    computer: Collection[int] = (),
    title: str = "Wizard",
    deadline: float | None = None,
) -> discord.Embed:
    """The public table message: round, dealer, trump, bids, tricks, the tricks on the table,
    whose turn it is and the running scores (and, with ``deadline``, when the turn timer
    runs out, as a Unix time)."""
    shown = display_names(table, names)
    if table.round == 0:
        heading = f"{title} · starting"
    else:
        tricks = "trick" if table.round_tricks == 1 else "tricks"
        heading = (
            f"{title} · round {table.round} of {table.num_rounds} ({table.round_tricks} {tricks})"
        )
    embed = discord.Embed(title=heading, colour=COLOUR)
    embed.description = "\n".join(
        [
            trump_line(table, shown, theme),
            status_line(table, shown, theme),
            "",
            *seat_lines(table, shown, computer),
        ]
    )
    if table.round > 0:
        current = trick_text(table.trick, shown, theme)
        if table.phase is Phase.PLAY and not table.trick:
            current = f"**{shown[table.leader]}** leads."
        embed.add_field(name="Current trick", value=current, inline=False)
        if table.last_trick:
            won = "" if table.last_winner is None else f" → won by **{shown[table.last_winner]}**"
            embed.add_field(
                name="Last trick",
                value=trick_text(table.last_trick, shown, theme) + won,
                inline=False,
            )
    if deadline is not None and table.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY):
        embed.add_field(
            name="Turn timer",
            value=f"⏰ Time runs out {_relative(deadline)}: then a computer moves for whoever "
            "has not acted yet.",
            inline=False,
        )
    variants = table.options.describe()
    embed.set_footer(text="Variants: " + (", ".join(variants) if variants else "none (classic)"))
    return embed


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
    view: PlayerView, *, names: Sequence[str] | None = None, theme: Theme = Theme.CLASSIC
) -> str:
    """The private hand message of ``view.seat``: its cards (or, under clairvoyance, the
    others'), its own bid even when hidden, and what it may do now."""
    table = public_table(view)
    shown = display_names(table, names)
    seat = view.seat
    lines: list[str] = []
    if view.round == 0:
        return "The cards are being dealt."
    heading = f"Round {view.round} of {view.num_rounds}"
    hand = view.hand
    if hand is None:
        lines.append(f"**{heading}: you cannot see your own card** (clairvoyance, R7.4).")
        others = [
            f"{shown[i]} {cards_text(sort_hand(cards), theme)}"
            for i, cards in enumerate(view.hands)
            if i != seat and cards is not None
        ]
        lines.append("The others hold: " + (" · ".join(others) or EMPTY))
    else:
        count = len(hand)
        lines.append(f"**{heading} · your hand** ({count} card{'s' if count != 1 else ''}):")
        lines.append(cards_text(sort_hand(hand), theme))
    trump = "none" if view.trump is None else suit_text(view.trump, theme)
    own_bid = view.bids[seat]
    facts = [f"Trump: {trump}"]
    if own_bid is not None:
        facts.append(f"your bid: {own_bid}")
    if view.phase in (Phase.PLAY, Phase.ROUND_OVER, Phase.GAME_OVER):
        facts.append(f"tricks won: {view.tricks[seat]}")
    lines.append(" · ".join(facts))
    if view.my_turn and view.phase is Phase.PLAY and view.trick:
        lines.append(f"On the table: {trick_text(view.trick, shown, theme)}")
    if view.my_turn and view.phase is Phase.BID:
        made = [(s, b) for s, b in enumerate(table.bids) if b is not None and s != seat]
        if made:
            total = sum(b for _, b in made)
            bids = ", ".join(f"{shown[s]} {b}" for s, b in made)
            lines.append(f"Bids so far: {bids} (total {total} of {view.round_tricks})")
    lines.append(_prompt(view))
    return "\n".join(line for line in lines if line)


def _prompt(view: PlayerView) -> str:
    if not view.my_turn:
        if view.phase in (Phase.BID, Phase.PLAY, Phase.CHOOSE_TRUMP):
            names = display_names(public_table(view))
            waiting = ", ".join(f"**{names[s]}**" for s in view.to_act)
            return f"Waiting for {waiting}." if waiting else "Waiting for the others."
        return ""
    if view.phase is Phase.CHOOSE_TRUMP:
        return "**Your turn:** you are the dealer, choose trump."
    if view.phase is Phase.BID:
        tricks = view.round_tricks
        what = "the trick" if tricks == 1 else f"the {tricks} tricks"
        return f"**Your turn:** how many of {what} will you win?"
    if must_play_hidden(view):
        return "**Your turn:** play your card, unseen."
    return "**Your turn:** play a card."


# ------------------------------------------------------ rounds and game


def round_summary_embed(
    summary: RoundSummary,
    players: Sequence[str],
    *,
    num_rounds: int | None = None,
    theme: Theme = Theme.CLASSIC,
) -> discord.Embed:
    """After a round: each player's bid, tricks and points, and the new totals."""
    names = _escape(players)
    of = f" of {num_rounds}" if num_rounds else ""
    embed = discord.Embed(title=f"Round {summary.round}{of} scored", colour=COLOUR)
    trump = "no trump" if summary.trump is None else f"trump {suit_text(summary.trump, theme)}"
    turned = (
        "nothing turned" if summary.turned is None else f"turned {card_text(summary.turned, theme)}"
    )
    lines = [f"Dealer **{names[summary.dealer]}** · {turned} · {trump}", ""]
    for seat, name in enumerate(names):
        bid, won, points = summary.bids[seat], summary.tricks[seat], summary.points[seat]
        mark = "✅" if bid == won else "❌"
        total = summary.totals[seat]
        lines.append(f"{mark} **{name}**: bid {bid}, won {won} → {points:+d} (total **{total}**)")
    embed.description = "\n".join(lines)
    return embed


def scorepad_text(history: Sequence[RoundSummary], players: Sequence[str]) -> str:
    """The scorepad as a code block: one row per round, ``bid/won total`` per player.

    Names are cut to 10 characters so that 20 rounds of 3 players or 10 rounds of 6 fit
    an embed description.
    """
    names = [_short(p.replace("`", "'")) for p in players]
    cells = [
        [f"{b}/{t} {s:+d}" for b, t, s in zip(r.bids, r.tricks, r.totals, strict=True)]
        for r in history
    ]
    widths = [max([len(n), 8, *(len(row[i]) for row in cells)]) for i, n in enumerate(names)]
    header = "rnd " + " ".join(n.rjust(w) for n, w in zip(names, widths, strict=True))
    lines = [header, "-" * len(header)]
    for r, row in zip(history, cells, strict=True):
        padded = (c.rjust(w) for c, w in zip(row, widths, strict=True))
        lines.append(f"{r.round:>3} " + " ".join(padded))
    if not history:
        lines.append("(no round scored yet)")
    return "```\n" + "\n".join(lines) + "\n```"


def standings(scores: Sequence[int]) -> list[tuple[int, int]]:
    """``(place, seat)`` pairs, best first; tied scores share a place (1, 1, 3)."""
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    out: list[tuple[int, int]] = []
    for index, seat in enumerate(order):
        tied = index > 0 and scores[seat] == scores[order[index - 1]]
        out.append((out[-1][0] if tied else index + 1, seat))
    return out


def final_embed(
    table: TableView,
    *,
    names: Sequence[str] | None = None,
    scorepad_image: str | None = None,
) -> discord.Embed:
    """The final standings: places, scores, winners (R6.3: tied leaders share the win), and
    the scorepad: as text, or the picture at ``scorepad_image`` (e.g. ``attachment://…``)."""
    shown = display_names(table, names)
    ranking = standings(table.scores)
    best = table.scores[ranking[0][1]] if ranking else 0
    winners = [shown[s] for _, s in ranking if table.scores[s] == best]
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = [
        f"{medals.get(place, f'{place}.')} **{shown[seat]}**: {table.scores[seat]} points"
        for place, seat in ranking
    ]
    title = "🏆 Winner: " if len(winners) == 1 else "🏆 Winners: "
    embed = discord.Embed(title=title + " and ".join(winners), colour=COLOUR)
    pad = ["", scorepad_text(table.history, table.players)] if table.history else []
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
) -> discord.Embed:
    """A scored round as posted in the channel: the summary, the round's final trick (it is
    no longer on the table) and the scorepad so far."""
    embed = round_summary_embed(summary, players, num_rounds=num_rounds, theme=theme)
    names = _escape(players)
    if last_trick:
        won = "" if last_winner is None else f" → won by **{names[last_winner]}**"
        embed.add_field(
            name="Final trick", value=trick_text(last_trick, names, theme) + won, inline=False
        )
    if history:
        # In the description (4096 characters), not a field (1024): 20 rounds must fit.
        embed.description = (
            f"{embed.description}\n\n**Scorepad** (bid/won total)\n"
            f"{scorepad_text(history, players)}"
        )
    return embed


# ----------------------------------------------------------------- lobby


def _relative(when: float) -> str:
    """A Unix time as a Discord timestamp that every client shows as "in 5 minutes"."""
    return f"<t:{int(when)}:R>"


def timer_text(turn_seconds: float | None) -> str:
    """The turn timer in words."""
    if turn_seconds is None:
        return "no turn timer"
    seconds = int(turn_seconds)
    if seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' if minutes != 1 else ''} per turn"
    return f"{seconds} seconds per turn"


def variants_text(options: Options) -> str:
    """The variants in force, in words."""
    names = options.describe()
    return ", ".join(names) if names else "none (the classic game)"


def lobby_embed(
    *,
    game_id: int,
    seats: Sequence[tuple[str, bool]],
    host_seat: int | None,
    options: Options,
    turn_seconds: float | None,
    max_seats: int,
    deadline: float | None = None,
) -> discord.Embed:
    """The lobby: who has joined (``seats`` are ``(name, is_computer)`` pairs), the variants,
    the turn timer and how to start."""
    names = _escape(name for name, _ in seats)
    lines = [f"**Players ({len(seats)} of 3–{max_seats}):**"]
    for seat, (name, (_, computer)) in enumerate(zip(names, seats, strict=True)):
        tags = []
        if computer:
            tags.append("🤖 computer")
        if seat == host_seat:
            tags.append("host")
        suffix = f" ({', '.join(tags)})" if tags else ""
        lines.append(f"{seat + 1}. **{name}**{suffix}")
    lines += [
        "",
        f"**Variants:** {variants_text(options)}",
        f"**Timer:** {timer_text(turn_seconds)}",
        "",
        "Press **Join** to take a seat. The host presses **Start** once 3 to "
        f"{max_seats} players are in (add computer players to fill seats).",
    ]
    if deadline is not None:
        lines.append(f"This lobby closes {_relative(deadline)} unless the game starts.")
    embed = discord.Embed(title=f"Wizard · game {game_id} · lobby", colour=COLOUR)
    embed.description = "\n".join(lines)
    return embed


CANCEL_REASONS: Final[dict[str, str]] = {
    "host": "The host cancelled the game.",
    "manager": "A server manager cancelled the game.",
    "expired": "Nobody started the game in time, so the lobby closed.",
    "empty": "Everyone left the lobby.",
}


def cancelled_embed(game_id: int, reason: str) -> discord.Embed:
    """A lobby or table that will not go on."""
    text = CANCEL_REASONS.get(reason, "The game was cancelled.")
    embed = discord.Embed(title=f"Wizard · game {game_id} · cancelled", colour=COLOUR)
    embed.description = f"🛑 {text} No result is recorded."
    return embed


# ----------------------------------------------------------- rules, pings


def rules_text(
    options: Options, *, players: int | None = None, turn_seconds: float | None = None
) -> str:
    """A short summary of the rules and of the variants in force (``/wizard rules``)."""
    if options.single_suit:
        deal = (
            "Each player draws from their own 15-card deck (one suit 1–13, a Wizard, a Jester): "
            "4 cards in hand 1, one more each hand, 12 hands. No trump, no suit to follow: "
            "the highest value wins (Jester lowest, Wizard highest; the first of equals wins)."
        )
    else:
        rounds = f" ({60 // players} rounds for {players} players)" if players else ""
        deal = (
            "60 cards: four suits 1–13 (🟦 Humans, 🟥 Dwarves, 🟩 Elves, 🟨 Giants), "
            "4 🧙 Wizards and 4 🃏 Jesters. Round *r* deals *r* cards each"
            f"{rounds}. The next card is turned: its suit is trump; a Jester means no trump; "
            "a Wizard lets the dealer choose trump."
        )
    lines = [
        "**Wizard in short**",
        deal,
        "**Bidding:** everyone says how many tricks they will win, starting left of the dealer.",
        "**Play:** follow the suit led if you can; a 🧙 Wizard or a 🃏 Jester may always be "
        "played. The first Wizard wins the trick, else the highest trump, else the highest "
        "card of the suit led (only Jesters: the first Jester).",
        "**Scoring:** bid exactly right: 20 + 10 per trick. Otherwise −10 per trick too many "
        "or too few. Highest total after the last round wins.",
        "",
        f"**Variants in force:** {variants_text(options)}",
    ]
    if options.bidding is Bidding.HIDDEN:
        lines.append("• Hidden bids: everyone bids privately; all bids are shown together.")
    elif options.bidding is Bidding.SECRET:
        lines.append("• Secret bids: bids stay private until the round is scored.")
    if options.uneven_bids:
        lines.append("• Uneven bids: the dealer may not make the bids add up to the tricks.")
    if options.canadian:
        lines.append(
            "• Canadian rule: in the last round a sole leader bidding last may not make the "
            "bids add up."
        )
    if options.clairvoyance:
        lines.append("• Clairvoyance: in round 1 you see everyone's card but your own.")
    if options.magic_twos:
        lines.append("• Magic twos: a 2 played into a trick of its own suit wins it.")
    if turn_seconds is not None:
        lines.append(
            f"**Timer:** {timer_text(turn_seconds)}; when it runs out a computer moves for you."
        )
    else:
        lines.append("**Timer:** none: the game waits for every player.")
    lines.append("Press **Show my hand** on the table to see your cards and play.")
    return "\n".join(lines)


def ping_text(mentions: Sequence[str], phase: Phase, round_no: int) -> str:
    """The turn reminder: who is awaited and for what."""
    what = {
        Phase.CHOOSE_TRUMP: "to choose trump",
        Phase.BID: "to bid",
        Phase.PLAY: "to play",
    }.get(phase, "to act")
    who = " ".join(mentions)
    return f"🔔 {who}: your turn {what} (Wizard, round {round_no}). Press **Show my hand**."


def hand_message(
    view: PlayerView,
    *,
    note: str | None = None,
    away: bool = False,
    theme: Theme = Theme.CLASSIC,
) -> str:
    """The whole private hand message: an optional note on top (what just happened, or why
    a click was refused), the hand, and when it stops updating itself."""
    lines = [note] if note else []
    if away:
        lines.append(
            "🤖 **A computer player is playing your seat.** Press **Take my seat back** to "
            "play again yourself."
        )
    lines.append(hand_text(view, theme=theme))
    if view.phase is not Phase.GAME_OVER:
        lines.append(f"-# {HAND_EXPIRY_NOTE}")
    return "\n".join(lines)


def _escape(names: Iterable[str]) -> list[str]:
    return [discord.utils.escape_mentions(discord.utils.escape_markdown(n)) or "?" for n in names]


def _short(name: str, width: int = 10) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


__all__ = [
    "HAND_EXPIRY_NOTE",
    "JESTER_EMOJI",
    "STANDARD_SUIT_EMOJI",
    "SUIT_SQUARES",
    "WIZARD_EMOJI",
    "bid_text",
    "cancelled_embed",
    "card_emoji",
    "card_text",
    "cards_text",
    "final_embed",
    "hand_message",
    "hand_text",
    "legal_bids",
    "lobby_embed",
    "must_play_hidden",
    "ping_text",
    "playable_cards",
    "public_table",
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
    "trump_choices",
    "trump_line",
    "variants_text",
]
