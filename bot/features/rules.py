"""``/wizard rules``: the rules in words, with this server's options."""

from __future__ import annotations

from bot.features.table import SHOW_HAND_LABEL
from bot.i18n import Texts, _bold, timer_text, variants_text
from wizard.options import Bidding, Options


def rules_text(
    options: Options,
    *,
    players: int | None = None,
    turn_seconds: float | None = None,
    t: Texts,
) -> str:
    """A short summary of the rules and of the variants in force (``/wizard rules``)."""
    play = t(
        "**Play:** follow suit if you can: the suit of the trick's first suited card (none if "
        "a Wizard came first). A 🧙 Wizard or a 🃏 Jester may always be played. The first "
        "Wizard wins the trick, else the highest trump, else the highest card of the suit to "
        "follow (only Jesters: the first Jester)."
    )
    if options.single_suit:
        deal = t(
            "Each player draws from their own 15-card deck (one suit 1–13, a Wizard, a Jester): "
            "4 cards in round 1, one more each round, 12 rounds."
        )
        play = t(
            "**Play:** no trump and no suit to follow: play any card. The highest value wins "
            "the trick (Jester lowest, Wizard highest; the first of equals wins)."
        )
    elif players:
        deal = t(
            "60 cards: four suits 1–13 (🟦 Humans, 🟥 Dwarves, 🟩 Elves, 🟨 Giants), "
            "4 🧙 Wizards and 4 🃏 Jesters. Round *r* deals *r* cards each ({rounds} rounds "
            "for {players} players). The next card is turned: its suit is trump; a Jester "
            "means no trump; a Wizard lets the dealer choose trump. In the last round no card "
            "is left to turn: no trump.",
            rounds=60 // players,
            players=players,
        )
    else:
        deal = t(
            "60 cards: four suits 1–13 (🟦 Humans, 🟥 Dwarves, 🟩 Elves, 🟨 Giants), "
            "4 🧙 Wizards and 4 🃏 Jesters. Round *r* deals *r* cards each. The next card "
            "is turned: its suit is trump; a Jester means no trump; a Wizard lets the dealer "
            "choose trump. In the last round no card is left to turn: no trump."
        )
    lines = [
        t("**Wizard in short**"),
        deal,
        t("**Bidding:** everyone says how many tricks they will win, starting left of the dealer."),
        play,
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
        rules.append(
            t(
                "Magic twos: a 2 of the suit to follow wins the trick, even over Wizards "
                "(the 2 that sets the suit stays an ordinary 2)."
            )
        )
    if options.single_suit:
        rules.append(t("Single suit: every player plays from a deck of their own, as above."))
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
