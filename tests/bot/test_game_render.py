"""The game's messages as text: lobby, round summaries, rules, pings, the private hand and the
refusals, within Discord's limits even for the longest games."""

from __future__ import annotations

import pytest

from bot.features.hand import HAND_EXPIRY_NOTE, hand_message
from bot.features.lobby import cancelled_embed, lobby_embed
from bot.features.pings import ping_text
from bot.features.rules import rules_embed, rules_text
from bot.features.summaries import round_end_embed
from bot.i18n import duration_text, texts, timer_text
from wizard.cards import Card, Theme
from wizard.options import Bidding, Options
from wizard.rules import apply, legal_actions, new_game
from wizard.state import Phase
from wizard.view import RoundSummary, view

EMBED_TOTAL = 6000
DESCRIPTION = 4096
FIELD = 1024
EN = texts("en")


def embed_size(embed: object) -> int:
    e = embed.to_dict()  # type: ignore[attr-defined]
    size = len(e.get("title", "")) + len(e.get("description", ""))
    size += len(e.get("footer", {}).get("text", ""))
    for f in e.get("fields", []):
        assert len(f["value"]) <= FIELD
        size += len(f["name"]) + len(f["value"])
    assert len(e.get("description", "")) <= DESCRIPTION
    return size


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (6, 10)])
def test_round_summary_of_the_longest_game_fits(players: int, rounds: int) -> None:
    names = [f"Player with a long name {i}" for i in range(players)]
    history = tuple(
        RoundSummary(
            r,
            r % players,
            Card.parse("B7"),
            None,
            bids=(r,) * players,
            tricks=(0,) * players,
            points=(-10 * r,) * players,
            totals=(-9999,) * players,
        )
        for r in range(1, rounds + 1)
    )
    embed = round_end_embed(
        history[-1],
        names,
        moved=(),
        computers=(),
        num_rounds=rounds,
        last_trick=tuple((s, Card.parse("G13")) for s in range(players)),
        last_winner=0,
        history=history,
        t=EN,
    )
    assert embed_size(embed) <= EMBED_TOTAL
    assert f"Round {rounds} of {rounds} scored" == embed.title
    description = embed.description or ""
    # A line per player in the standings, each with a mark per round; no wide table.
    assert "```" not in description
    every_round_missed = " ".join(["❌" * 5] * (rounds // 5))  # in groups of five
    assert description.count(every_round_missed) == players
    assert "Final trick" in [f.name for f in embed.fields]


def test_lobby_and_cancelled() -> None:
    embed = lobby_embed(
        game_id=4,
        seats=[("ann", False), ("Merlin", True), ("@everyone", False)],
        host_seat=0,
        options=Options(bidding=Bidding.HIDDEN),
        turn_seconds=90,
        max_seats=6,
        deadline=1_800_000_000,
        t=EN,
    )
    text = embed.description or ""
    assert embed.title == "Wizard · game 4 · lobby"
    assert "1. **ann** (host)" in text and "2. **Merlin** (🤖 computer)" in text
    assert "@everyone" not in text.replace("@\u200beveryone", "")  # mentions are escaped
    assert "hidden bids" in text and "90 seconds per turn" in text
    assert "<t:1800000000:R>" in text
    assert (
        timer_text(None, t=EN) == "no turn timer" and timer_text(120, t=EN) == "2 minutes per turn"
    )
    # A day's timer read "1,440 minutes per turn".
    assert timer_text(86400, t=EN) == "24 hours per turn"
    assert timer_text(3600, t=EN) == "1 hour per turn"
    assert timer_text(5400, t=EN) == "90 minutes per turn"


def test_a_turn_limit_that_is_no_round_number_reads_in_hours_minutes_and_seconds() -> None:
    """A limit a command set to any number of seconds (up to a day) reads as a clock would
    say it: 3,661 s read "3,661 seconds" ("3.661 segundos", player QA, es)."""
    es = texts("es-ES")
    assert timer_text(3661, t=EN) == "1 hour 1 minute 1 second per turn"
    assert duration_text(EN, 3661) == "1 hour 1 minute 1 second"
    assert duration_text(es, 3661) == "1 hora 1 minuto 1 segundo"
    assert timer_text(150, t=es) == "2 minutos 30 segundos por turno"
    assert duration_text(EN, 6000) == "1 hour 40 minutes"
    assert duration_text(EN, 86399) == "23 hours 59 minutes 59 seconds"
    # A number under a hundred reads as it is, in its unit.
    assert duration_text(EN, 90) == "90 seconds" and duration_text(EN, 5400) == "90 minutes"
    assert duration_text(EN, 0) == duration_text(EN, None) == "no time limit"
    assert duration_text(EN, 0.4) == "no time limit" and timer_text(0.4, t=EN) == "no turn timer"
    assert "Nobody started the game in time" in (
        cancelled_embed(4, "expired", t=EN).description or ""
    )


def test_rules_name_the_variants_in_force() -> None:
    text = rules_text(
        Options(uneven_bids=True, canadian=True, magic_twos=True),
        players=4,
        turn_seconds=60,
        t=EN,
    )
    assert "15 rounds for 4 players" in text
    assert "Uneven bids" in text and "Canadian rule" in text and "Magic twos" in text
    assert "1 minute per turn" in text
    single = rules_text(Options(single_suit=True, bidding=Bidding.SECRET), t=EN)
    assert "12 rounds" in single and "Secret bids" in single
    assert "the game waits for every player" in single
    assert len(text) < 2000 and len(single) < 2000


def test_single_suit_rules_never_ask_to_follow_suit() -> None:
    """R7.7: no trump, any card may be played, the highest value wins. The classic play
    rules (follow suit, trump wins) must not stand beside that."""
    single = rules_text(Options(single_suit=True), players=4, t=EN)
    play = next(line for line in single.splitlines() if line.startswith("**Play:**"))
    assert "play any card" in play and "highest value wins" in play
    assert "ollow suit" not in single and "trump wins" not in single
    assert "highest trump" not in single
    assert "• Single suit:" in single  # explained like every other variant in force
    classic = rules_text(Options(), players=4, t=EN)
    assert "Follow suit" in classic and "Single suit" not in classic


def test_rules_name_the_suit_to_follow_and_the_last_round_without_trump() -> None:
    """R5.2: the suit to follow is the first suited card's (a led Jester sets none), and a
    Wizard before it leaves none; R3.4: the last round has no card to turn, so no trump."""
    for players in (4, None):
        text = rules_text(Options(), players=players, t=EN)
        play = next(line for line in text.splitlines() if line.startswith("**Play:**"))
        assert "the suit of the trick's first suited card" in play
        assert "none if a Wizard came first" in play
        assert "suit led" not in text
        assert "In the last round no card is left to turn: no trump." in text
        assert "the player left of the dealer leads the first trick" in play  # R5.1
        assert "a tie shares the win" in text  # R6.3


def test_the_rules_say_that_trump_is_never_required_and_how_long_a_game_is() -> None:
    """QA: "Follow suit if you can" did not say that one who cannot need not trump (R5.5),
    which players of other trick games expect to have to; with no game yet in the channel,
    the rules gave no game length (R2.2)."""
    text = rules_text(Options(), t=EN)
    assert "if you cannot, play any card, trump or not" in text, text
    assert "20 rounds for 3 players, 15 for 4, 12 for 5, 10 for 6" in text, text


def test_the_rules_say_what_running_out_of_time_leads_to() -> None:
    """QA: "when it runs out a computer moves for you" read like a one-off move; that the
    server's timeouts in a row hand the seat over, and that a game a computer finishes
    for you counts as lost, was learnt only once it had happened."""
    twice = rules_text(Options(), turn_seconds=300, t=EN)
    assert (
        "**Timer:** 5 minutes per turn; when it runs out a computer moves for you. After 2 in a "
        "row it plays your seat until you take it back, and a game it finishes for you counts "
        "as lost." in twice
    ), twice
    once = rules_text(Options(), turn_seconds=300, timeouts=1, t=EN)
    assert (
        "**Timer:** 5 minutes per turn; when it runs out a computer plays your seat until you "
        "take it back, and a game it finishes for you counts as lost." in once
    ), once


def test_rules_say_how_bids_are_made_in_each_bidding_mode() -> None:
    """R4.1/R4.2: open bids go one at a time, the dealer last; R7.2/R7.3: hidden and secret
    bids are chosen at once, with no order."""
    open_ = rules_text(Options(), t=EN)
    assert "from 0 to the cards in hand, one at a time from the left of the dealer" in open_
    assert "the dealer bids last" in open_
    for bidding in (Bidding.HIDDEN, Bidding.SECRET):
        text = rules_text(Options(bidding=bidding), t=EN)
        line = next(line for line in text.splitlines() if line.startswith("**Bidding:**"))
        assert "everyone chooses at the same time" in line and "dealer" not in line
    # R7.7: nobody deals in single suit (QA: "Nobody deals", then "the dealer bids last").
    single = rules_text(Options(single_suit=True), t=EN)
    line = next(line for line in single.splitlines() if line.startswith("**Bidding:**"))
    assert "dealer" not in line and "one at a time to the left" in line
    assert "the player marked 🔀 bids last" in line
    # Variants QA: the uneven bids' line then named a dealer all the same.
    variants = rules_text(Options(single_suit=True, uneven_bids=True, canadian=True), t=EN)
    assert "dealer" not in variants, variants
    assert "Uneven bids: the last to bid may not make the bids add up to the tricks." in variants


def test_rules_show_the_cards_as_the_server_does() -> None:
    """R1.5: on a standard-deck server the rules name its suits and ranks, and the magic
    card by the rank it shows (the rules' 2 is shown as a 3)."""
    text = rules_text(Options(magic_twos=True), theme=Theme.STANDARD, t=EN)
    assert (
        "four suits of 2–10, J, Q, K, A (♠\ufe0e Spades, ♥️ Hearts, ♦️ Diamonds, ♣\ufe0e Clubs)"
        in text
    )
    assert "Humans" not in text
    assert "Magic twos: a 3 of the suit to follow wins the trick" in text
    single = rules_text(Options(single_suit=True), theme=Theme.STANDARD, t=EN)
    assert "one suit 2–10, J, Q, K, A, a Wizard, a Jester" in single
    classic = rules_text(Options(magic_twos=True), t=EN)
    assert "four suits of 1–13 (🟦 Humans" in classic and "Magic twos: a 2 of" in classic


def test_ping_names_the_phase() -> None:
    assert ping_text(["<@1>"], Phase.BID, 3, t=EN) == (
        "🔔 <@1>: your turn to bid (Wizard, round 3). Press **Show my hand**."
    )
    assert "to choose trump" in ping_text(["<@1>"], Phase.CHOOSE_TRUMP, 1, t=EN)
    assert ping_text(["<@1>", "<@2>"], Phase.PLAY, 2, t=EN).startswith(
        "🔔 <@1> <@2>: your turn to play"
    )


def test_hand_message_has_the_note_on_top_and_the_expiry_below() -> None:
    state = new_game(["ann", "bob", "cy"], Options(), seed=2)
    while state.phase is not Phase.BID:
        state = apply(state, legal_actions(state)[0])
    text = hand_message(view(state, 0), note="✅ You bid 1.", t=EN)
    lines = text.splitlines()
    assert lines[0] == "✅ You bid 1."
    assert lines[-1] == "-# " + HAND_EXPIRY_NOTE.format(button="Show my hand")
    away = hand_message(view(state, 0), away=True, t=EN)
    assert "A computer player is playing your seat" in away
    assert len(text) < 2000


def test_hand_shows_the_bids_so_far_only_when_they_are_public() -> None:
    for bidding in (Bidding.OPEN, Bidding.HIDDEN):
        state = new_game(["ann", "bob", "cy"], Options(bidding=bidding), seed=4)
        while state.phase is not Phase.BID:
            state = apply(state, legal_actions(state)[0])
        first = state.turn if state.turn is not None else 0
        state = apply(state, next(a for a in legal_actions(state, first)))
        waiting = state.turn if state.turn is not None else (first + 1) % 3
        text = hand_message(view(state, waiting), t=EN)
        if bidding is Bidding.OPEN:
            assert f"Bids so far: {state.players[first]} {state.bids[first]}" in text
        else:
            assert "Bids so far" not in text  # hidden bids stay hidden (R7.2)


def test_the_rules_fit_one_discord_embed_in_every_language_and_setting() -> None:
    """/wizard rules is one embed (a description of 4,096 characters at most, 6,000 in all,
    counted as Discord does, in UTF-16 units), with whichever language, deck, variants,
    players and timer; as plain text it came within a few characters of a message's 2,000,
    and one longer translation would have lost the reply."""
    import itertools

    from bot.i18n import LANGUAGES
    from wizard.errors import OptionsError
    from wizard.options import check_setup

    longest = 0
    for language, theme in itertools.product(LANGUAGES, Theme):
        t = texts(language)
        where = t("No open game in this channel; a new game starts with the server's defaults.")
        for bidding, *flags in itertools.product(Bidding, *[(False, True)] * 5):
            options = Options(
                bidding=bidding,
                **dict(
                    zip(
                        ("uneven_bids", "canadian", "clairvoyance", "magic_twos", "single_suit"),
                        flags,
                        strict=True,
                    )
                ),
            )
            for players in (None, 3, 4, 5, 6):
                try:
                    check_setup(options, players or 3)
                except OptionsError:
                    continue
                for seconds in (None, 300.0, 86_399.0):
                    text = rules_text(
                        options, players=players, turn_seconds=seconds, theme=theme, t=t
                    )
                    embed = rules_embed(text, where=where, t=t)
                    parts = (embed.title or "", embed.description or "", embed.footer.text or "")
                    sizes = [len(part.encode("utf-16-le")) // 2 for part in parts]
                    assert sizes[1] <= DESCRIPTION, (language, options, sizes)
                    longest = max(longest, sum(sizes))
    assert longest <= EMBED_TOTAL, longest
