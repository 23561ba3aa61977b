"""``/wizard rules``: the rules in words, with this server's options."""

from __future__ import annotations

from typing import Final

import discord

from bot.features.table import SHOW_HAND_LABEL
from bot.i18n import COLOUR, N_, Texts, _bold, suit_text, timer_text, variants_text
from wizard.cards import SUITS, Theme, rank_label
from wizard.options import Bidding, Options

RULES_TITLE: Final = N_("Wizard · the rules in short")


def rules_embed(text: str, *, where: str, t: Texts) -> discord.Embed:
    """``/wizard rules`` as ``/wizard help`` is shown, an embed: ``text``
    (:func:`rules_text`) under a title, and ``where`` the options come from (this channel's
    game, or the server's defaults) below it (demo QA: plain text that opened with an
    italic "Game 1 in this channel.")."""
    embed = discord.Embed(title=t(RULES_TITLE), description=text, colour=COLOUR)
    return embed.set_footer(text=where)


def rules_text(
    options: Options,
    *,
    players: int | None = None,
    turn_seconds: float | None = None,
    timeouts: int = 2,
    theme: Theme = Theme.CLASSIC,
    t: Texts,
    show_hand: str | None = None,
) -> str:
    """A short summary of the rules and of the variants in force (``/wizard rules``), with
    the cards as the server shows them (R1.5). ``timeouts``: the server's turns run out in
    a row after which a computer plays the seat. ``show_hand``: the table's "Show my hand"
    as the table shows it (in the server's language; by default in ``t``'s)."""
    if theme is Theme.CLASSIC:
        ranks = f"{rank_label(1)}–{rank_label(13)}"
    else:  # 2–10, J, Q, K, A
        ranks = ", ".join(
            [f"{rank_label(1, theme)}–{rank_label(9, theme)}"]
            + [rank_label(r, theme) for r in range(10, 14)]
        )
    if options.single_suit:
        if options.bidding is Bidding.OPEN:
            deal = t(
                # Translators: {ranks} are a suit's cards, "1–13" or "2–10, J, Q, K, A".
                "Each player draws from their own 15-card deck (one suit {ranks}, a Wizard, a "
                "Jester): 4 cards in round 1, one more each round, 12 rounds. Nobody deals: "
                "who bids first and leads the first trick moves one seat left each round, and "
                "the table marks 🔀 who bids last.",
                ranks=ranks,
            )
        else:
            deal = t(
                # Translators: single suit where everyone bids at once (hidden or secret
                # bids); {ranks} are a suit's cards, "1–13" or "2–10, J, Q, K, A".
                "Each player draws from their own 15-card deck (one suit {ranks}, a Wizard, a "
                "Jester): 4 cards in round 1, one more each round, 12 rounds. Nobody deals: "
                "who leads the first trick moves one seat left each round, and the table "
                "marks 🔀 who leads first.",
                ranks=ranks,
            )
        play = t(
            "**Play:** no trump and no suit to follow: play any card. The highest value wins "
            "the trick (Jester lowest, Wizard highest; the first of equals wins)."
        )
    else:
        # As the table names them: with the letter of the card codes (🟦B12) in the classic
        # theme.
        suits = ", ".join(suit_text(s, theme, t=t) for s in SUITS)
        parts = [
            # Translators: {ranks} are a suit's cards, "1–13" or "2–10, J, Q, K, A"; {suits}
            # the four suits with their emoji.
            t(
                "60 cards: four suits of {ranks} ({suits}), 4 🧙 Wizards and 4 🃏 Jesters.",
                ranks=ranks,
                suits=suits,
            )
        ]
        if players:
            parts.append(
                t(
                    "Round *r* deals *r* cards each ({rounds} rounds for {players} players).",
                    rounds=60 // players,
                    players=players,
                )
            )
        else:
            parts.append(
                t(
                    "Round *r* deals *r* cards each, until the deck runs out: 20 rounds for 3 "
                    "players, 15 for 4, 12 for 5, 10 for 6."
                )
            )
        parts.append(
            t(
                "The next card is turned: its suit is trump; a Jester means no trump; a Wizard "
                "lets the dealer choose trump. In the last round no card is left to turn: no "
                "trump."
            )
        )
        deal = " ".join(parts)
        play = t(
            "**Play:** the player left of the dealer leads the first trick, the winner of a "
            "trick the next. Follow suit if you can: the suit of the trick's first suited card "
            "(none if a Wizard came first); if you cannot, play any card, trump or not. A 🧙 "
            "Wizard or a 🃏 Jester may always be played. "
            "The first Wizard wins the trick, else the highest trump, else the highest card of "
            "the suit to follow (only Jesters: the first Jester)."
        )
    if options.bidding is Bidding.OPEN and options.single_suit:
        bidding = t(
            # Translators: single suit has no dealer; the table marks 🔀 who bids last.
            "**Bidding:** everyone says how many tricks they will win, from 0 to the cards in "
            "hand, one at a time to the left; the player marked 🔀 bids last."
        )
    elif options.bidding is Bidding.OPEN:
        bidding = t(
            "**Bidding:** everyone says how many tricks they will win, from 0 to the cards in "
            "hand, one at a time from the left of the dealer; the dealer bids last."
        )
    else:
        bidding = t(
            "**Bidding:** everyone chooses at the same time how many tricks they will win, "
            "from 0 to the cards in hand."
        )
    lines = [
        deal,
        bidding,
        play,
        t(
            "**Scoring:** bid exactly right: 20 + 10 per trick. Otherwise −10 per trick too "
            "many or too few. Highest total after the last round wins; a tie shares the win."
        ),
        "",
    ]
    rules = []
    if options.bidding is Bidding.HIDDEN:
        rules.append(t("Hidden bids: everyone bids privately; all bids are shown together."))
    elif options.bidding is Bidding.SECRET:
        rules.append(t("Secret bids: bids stay private until the round is scored."))
    if options.uneven_bids and options.single_suit:
        # Translators: single suit has no dealer; the table marks 🔀 who bids last.
        rules.append(t("Uneven bids: the last to bid may not make the bids add up to the tricks."))
    elif options.uneven_bids:
        rules.append(t("Uneven bids: the dealer may not make the bids add up to the tricks."))
    if options.canadian:
        rules.append(
            t(
                "Canadian rule: in the last round the only top scorer, bidding last, may not "
                "make the bids add up."
            )
        )
    if options.clairvoyance:
        rules.append(t("Clairvoyance: in round 1 you see everyone's card but your own."))
    if options.magic_twos:
        rules.append(
            t(
                # Translators: {two} is the rank of the magic card as the deck shows it: 2,
                # or 3 in the standard deck (whose ranks start at 2).
                "Magic twos: a {two} of the suit to follow wins the trick, even over Wizards "
                "(the {two} that sets the suit stays an ordinary card).",
                two=rank_label(2, theme),
            )
        )
    if options.single_suit:
        rules.append(t("Single suit: every player plays from a deck of their own, as above."))
    if rules:  # each line names its variant: a list of the names first would say it twice
        lines.append(t("**Variants in force:**"))
        lines += [f"• {rule}" for rule in rules]
    else:
        lines.append(t("**Variants in force:** {variants}", variants=variants_text(options, t=t)))
    if turn_seconds is not None:
        lines.append(
            t.plural(
                # Translators: {n} is the server's number of timeouts in a row after which
                # a computer plays the seat (1: at the first).
                "**Timer:** {timer}; when it runs out a computer plays your seat until you "
                "take it back, and a game it finishes for you counts as lost.",
                "**Timer:** {timer}; when it runs out a computer moves for you. After {n} in a "
                "row it plays your seat until you take it back, and a game it finishes for you "
                "counts as lost.",
                timeouts,
                timer=timer_text(turn_seconds, t=t),
            )
        )
    else:
        lines.append(t("**Timer:** none: the game waits for every player."))
    lines.append(
        t(
            "Press {button} on the table to see your cards and play.",
            button=_bold(show_hand if show_hand is not None else t(SHOW_HAND_LABEL)),
        )
    )
    return "\n".join(lines)
