"""Terminal play: ``python -m wizard play``, one human against computer players.

Everything shown to the human comes from their :class:`~wizard.view.PlayerView`
(RULES §8); the computer players see only theirs. Input is checked by the
engine, whose refusals name the rule broken.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from wizard.ai import LEVELS, ComputerPlayer, make_player
from wizard.cards import CARDS, SUIT_OF, SUITS, Card, Suit, Theme, card_label, suit_label
from wizard.errors import IllegalActionError, OptionsError
from wizard.names import clean_name
from wizard.options import MAX_PLAYERS, MIN_PLAYERS, Bidding, Options, check_setup
from wizard.record import dumps
from wizard.rules import apply, deal_next_round, legal_actions, to_act, trick_winner, winners
from wizard.rules import new_game as new_engine_game
from wizard.scorepad import format_scorepad
from wizard.state import Action, Bid, ChooseTrump, GameState, Phase, Play
from wizard.view import PlayerView, view

HUMAN = 0
"""The human's seat."""
BOT_NAMES = ("Ada", "Bruno", "Chiara", "Dario", "Elena")
VARIANTS = {
    "uneven": "uneven_bids",
    "canadian": "canadian",
    "clairvoyance": "clairvoyance",
    "magic": "magic_twos",
    "single": "single_suit",
}
"""Short names accepted for the variants (R7), and the option each switches on."""


SUIT_COLOURS = {Suit.HUMANS: "34", Suit.DWARVES: "31", Suit.ELVES: "32", Suit.GIANTS: "33"}
"""ANSI colour of each suit, in both themes: blue, red, green, yellow, as on the classic
cards (so the standard theme reads as a four-colour deck: ♠ blue, ♥ red, ♦ green, ♣ yellow)."""
WIZARD_STYLE = "1"
"""Wizards in bold."""
JESTER_STYLE = "2"
"""Jesters faint."""
COLOUR_CHOICES = ("auto", "always", "never")


def colour_wanted(
    choice: str = "auto", stream: TextIO | None = None, environ: Mapping[str, str] | None = None
) -> bool:
    """Whether to colour the suits: ``always``, ``never``, or ``auto``.

    ``auto`` colours only a terminal that shows colours: not when the output is piped or
    redirected, not when ``NO_COLOR`` is set to anything but the empty string
    (https://no-color.org), not on a ``TERM=dumb`` terminal.
    """
    if choice != "auto":
        return choice == "always"
    stream = sys.stdout if stream is None else stream
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR", ""):
        return False
    if environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, style: str) -> str:
    """``text`` in an ANSI ``style`` (SGR parameters), reset after it."""
    return f"\x1b[{style}m{text}\x1b[0m"


class Quit(Exception):
    """The human typed ``quit`` or the input ended."""


class Terminal:
    """Prompts and messages; ``ask`` and ``say`` are replaceable for tests."""

    def __init__(
        self,
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
        theme: Theme = Theme.CLASSIC,
        *,
        echo: bool = False,
        colour: bool = False,
    ) -> None:
        self.ask_raw = ask
        self.say = say
        self.theme = theme
        self.echo = echo
        """Repeat each answer: when input is piped in, the transcript then reads naturally."""
        self.colour = colour
        """Show suits in colour (ANSI); see :func:`colour_wanted`."""

    def ask(self, prompt: str) -> str:
        """One trimmed answer; :class:`Quit` on ``quit``/``q`` or at the end of input."""
        try:
            answer = self.ask_raw(prompt).strip()
        except EOFError:
            raise Quit from None
        if self.echo:
            self.say(answer)
        if answer.lower() in ("q", "quit", "exit"):
            raise Quit
        return answer

    def card(self, card: Card) -> str:
        """A card as the chosen theme shows it (R1.5), in its suit's colour if wanted."""
        label = card_label(card, self.theme)
        if not self.colour:
            return label
        suit = SUIT_OF[card]
        if suit is not None:
            return paint(label, SUIT_COLOURS[suit])
        return paint(label, WIZARD_STYLE if card.is_wizard else JESTER_STYLE)

    def cards(self, cards: Sequence[Card]) -> str:
        """Several cards, space-separated."""
        return " ".join(self.card(c) for c in cards) or "-"

    def suit(self, suit: Suit | None) -> str:
        """A suit as the chosen theme shows it (in its colour if wanted), or ``none``."""
        if suit is None:
            return "none"
        label = suit_label(suit, self.theme)
        return paint(label, SUIT_COLOURS[suit]) if self.colour else label


_SUIT_LETTERS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""Letters typed for the standard theme's suit symbols (R1.5)."""
_STANDARD_RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}


def _typed(text: str) -> str:
    """An answer with a trailing suit letter turned into its symbol: ``7S`` is ``7♠``."""
    code = text.strip().upper()
    if len(code) >= 2 and code[-1] in _SUIT_LETTERS and code[:-1] in _STANDARD_RANKS:
        return code[:-1] + _SUIT_LETTERS[code[-1]]
    return code


def parse_card(text: str, theme: Theme) -> Card:
    """A card from its code (``B7``, ``Z``, ``N``); in the standard theme also ``8♠``, ``8S``."""
    code = _typed(text) if theme is Theme.STANDARD else text.strip().upper()
    for card in CARDS:
        if code in (card.code, card_label(card, theme).upper()):
            return card
    raise ValueError(f"{text!r} is not a card: type its code as shown in your hand")


def _choice(term: Terminal, prompt: str, allowed: Sequence[str], default: str) -> str:
    while True:
        answer = term.ask(f"{prompt} [{default}]: ").lower() or default
        if answer in allowed:
            return answer
        term.say(f"Please answer one of: {', '.join(allowed)}.")


def setup(term: Terminal, args: argparse.Namespace) -> tuple[int, str, Options]:
    """Players, level and options: from the command line, or asked for when not given."""
    players = args.players
    while players is None:
        answer = term.ask(f"How many players, you included ({MIN_PLAYERS}-{MAX_PLAYERS}) [4]: ")
        if not answer:
            players = 4
        elif answer.isdigit() and MIN_PLAYERS <= int(answer) <= MAX_PLAYERS:
            players = int(answer)
        else:
            term.say(f"Please type a number from {MIN_PLAYERS} to {MAX_PLAYERS}.")
    level = args.level or _choice(term, f"Computer level ({'/'.join(LEVELS)})", LEVELS, "normal")
    variants = args.variant
    bidding = args.bidding
    while variants is None:
        answer = term.ask(
            "Variants, comma-separated (" + ", ".join(VARIANTS) + "; hidden or secret bids), "
            "or Enter for none: "
        )
        names = [a.strip().lower() for a in answer.split(",") if a.strip()]
        unknown = [a for a in names if a not in VARIANTS and a not in ("hidden", "secret")]
        if unknown:
            term.say(f"Unknown variant {unknown[0]!r}.")
            continue
        bidding = next((a for a in names if a in ("hidden", "secret")), bidding)
        variants = [a for a in names if a in VARIANTS]
        try:
            check_setup(_options(variants, bidding), players)
        except OptionsError as e:
            term.say(f"That combination cannot be played: {e.message}.")
            variants = None
    return players, level, _options(variants, bidding)


def _options(variants: Sequence[str], bidding: str) -> Options:
    return Options(bidding=Bidding(bidding), **{VARIANTS[v]: True for v in variants})


def show_table(term: Terminal, v: PlayerView) -> None:
    """The table as the human sees it: round, trump, bids, tricks, scores, trick, hand."""
    n = len(v.players)
    term.say("")
    term.say(
        f"Round {v.round} of {v.num_rounds} · dealer {v.players[v.dealer]} · "
        f"turned {term.card(v.turned) if v.turned is not None else '-'} · "
        f"trump {term.suit(v.trump)}"
    )
    width = max(len(p) for p in v.players)
    for s in range(n):
        bid = v.bids[s]
        shown = "?" if bid is None and v.has_bid[s] else "-" if bid is None else str(bid)
        hand = v.hands[s]
        extra = f"  cards: {term.cards(hand)}" if hand is not None and s != v.seat else ""
        marker = "→" if s in v.to_act else " "
        term.say(
            f" {marker} {v.players[s]:<{width}}  bid {shown:>2}  tricks {v.tricks[s]}  "
            f"score {v.scores[s]:>5}{extra}"
        )
    if v.last_trick:
        term.say(
            "Last trick: " + ", ".join(f"{v.players[s]} {term.card(c)}" for s, c in v.last_trick)
        )
    if v.phase is Phase.PLAY:
        shown_trick = ", ".join(f"{v.players[s]} {term.card(c)}" for s, c in v.trick)
        follow = f" (follow {term.suit(v.follow)})" if v.follow is not None else ""
        term.say(f"Trick: {shown_trick or 'nobody has played yet'}{follow}")
    hand = v.hand
    term.say(
        "Your hand: " + ("hidden this round (clairvoyance)" if hand is None else term.cards(hand))
    )


def _prompt_human(term: Terminal, state: GameState, v: PlayerView) -> Action:
    while True:
        try:
            return _read_action(term, state, v)
        except (ValueError, IllegalActionError) as e:
            term.say(f"Not allowed: {e.message if isinstance(e, IllegalActionError) else e}")


def _read_action(term: Terminal, state: GameState, v: PlayerView) -> Action:
    seat = v.seat
    if v.phase is Phase.CHOOSE_TRUMP:
        letters = "/".join(term.suit(s) for s in SUITS)
        answer = term.ask(f"A Wizard was turned up: choose trump ({letters}): ").upper()
        typed = _SUIT_LETTERS.get(answer, answer) if term.theme is Theme.STANDARD else answer
        for suit in SUITS:
            if typed in (suit.value, suit_label(suit, term.theme)):
                action: Action = ChooseTrump(seat, suit)
                apply(state, action)
                return action
        raise ValueError(f"{answer!r} is not a suit")
    if v.phase is Phase.BID:
        bids = [a.bid for a in v.legal if type(a) is Bid]
        banned = [b for b in range(v.round_tricks + 1) if b not in bids]
        note = f", not {banned[0]}" if banned else ""
        answer = term.ask(f"Your bid (0-{v.round_tricks}{note}): ")
        if not answer.lstrip("-").isdigit():
            raise ValueError(f"{answer!r} is not a whole number")
        action = Bid(seat, int(answer))
        apply(state, action)  # the engine says why a bid is refused
        return action
    playable = [a.card for a in v.legal if type(a) is Play]
    answer = term.ask(f"Your card ({term.cards(playable)}): ")
    card = parse_card(answer, term.theme)
    # Said here rather than by the engine, so that the cards show in the chosen theme.
    if card not in (v.hand or ()):
        raise ValueError(f"you do not hold {term.card(card)}")
    if card not in playable:
        raise ValueError(
            f"you must follow suit {term.suit(v.follow)} (R5.3), or play a Wizard or a Jester"
        )
    action = Play(seat, card)
    apply(state, action)
    return action


def _describe(term: Terminal, state: GameState, action: Action) -> str:
    name = state.players[getattr(action, "seat", 0)]
    if type(action) is Bid:
        if state.options.bidding is not Bidding.OPEN:
            return f"{name} has chosen a bid."
        return f"{name} bids {action.bid}."
    if type(action) is Play:
        return f"{name} plays {term.card(action.card)}."
    if type(action) is ChooseTrump:
        return f"{name} chooses trump {term.suit(action.suit)}."
    return ""


def play_game(
    term: Terminal, players: int, level: str, options: Options, *, seed: int, name: str
) -> tuple[GameState, bool]:
    """Play a game with the human in seat 0: the last state, and whether the game finished."""
    names = [name, *(f"{BOT_NAMES[i]} ({level})" for i in range(players - 1))]
    bots: dict[int, ComputerPlayer] = {
        s: make_player(level, seed=seed * 10 + s) for s in range(1, players)
    }
    state = new_engine_game(names, options, seed=seed)
    term.say(f"Game seed {seed}. Options: {', '.join(options.describe()) or 'standard rules'}.")
    if term.theme is Theme.STANDARD:
        term.say("Type a card to play it (7S for 7♠, AC for A♣, W, JE), or quit to stop.")
    else:
        term.say("Type a card's code to play it (e.g. B7, Z, N), or quit to stop.")
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state = deal_next_round(state)
            continue
        acting = to_act(state)
        seat = HUMAN if HUMAN in acting else acting[0]
        v = view(state, seat)
        if not v.legal:
            # Clairvoyance hides the own card in round-1 play (R7.4): it is played for them.
            action = legal_actions(state, seat)[0]
        elif seat == HUMAN:
            show_table(term, v)
            try:
                action = _prompt_human(term, state, v)
            except Quit:
                return state, False
        else:
            action = bots[seat].choose(v)
        before = state
        state = apply(state, action)
        if seat != HUMAN or not v.legal:
            term.say(_describe(term, before, action))
        if type(action) is Play and len(state.played) > len(before.played):
            trick = state.played[-1]
            won = trick_winner(
                trick,
                state.trump,
                magic_twos=options.magic_twos,
                single_suit=options.single_suit,
            )
            winner = (before.leader + won) % players
            who = "You win" if winner == HUMAN else f"{state.players[winner]} wins"
            term.say(f"{who} the trick with {term.card(trick[won])}.")
        if len(state.history) > len(before.history):
            result = state.history[-1]
            term.say(f"Round {result.round} scored:")
            for s in range(players):
                term.say(
                    f"  {state.players[s]}: bid {result.bids[s]}, won {result.tricks[s]}, "
                    f"{result.points[s]:+d} → {result.totals[s]}"
                )
    return state, True


PLAY_DESCRIPTION = (
    "Play a game of Wizard against computer players, in this terminal. Whatever is not "
    "given on the command line is asked for when the game starts. Type a card's code to "
    "play it, and quit to stop."
)
VARIANT_HELP = {
    "uneven": "the bids of a round may not add up to the number of tricks (open bids only)",
    "canadian": "in the last round, a sole leader who bids last may not make the bids "
    "add up (open bids only)",
    "clairvoyance": "in round 1 you see everyone's card but your own",
    "magic": "a 2 played into a trick of its own suit wins it, even over Wizards",
    "single": "each player draws from a deck of their own (one suit, a Wizard, a Jester): "
    "no trump, no suit to follow (3 or 4 players)",
}
"""What each variant does, in a sentence, for ``--help``."""
BIDDING_HELP = {
    "open": "one after the other, each bid seen by everyone at once",
    "hidden": "everyone chooses in private, and all bids are shown together once all have chosen",
    "secret": "everyone chooses in private, and the bids stay hidden until the round is scored",
}
THEME_HELP = {
    "classic": "the classic cards: suits B R G Y (blue, red, green, yellow) ranked "
    "1 to 13, Wizard Z, Jester N",
    "standard": "a standard deck: suits ♠ ♥ ♦ ♣ ranked 2 to 10, J, Q, K, A, Wizard W, Jester JE",
}
HELP_WIDTH = 54
"""Columns of an option's help: what argparse leaves beside the options in 80 columns."""


def _help(text: str, choices: Mapping[str, str] | None = None, default: str = "") -> str:
    """An option's help, wrapped by hand: a sentence, one line per choice, the default.

    argparse's raw formatter keeps these line breaks, so each choice reads on its own line.
    """
    lines = textwrap.wrap(text, HELP_WIDTH)
    for name, meaning in (choices or {}).items():
        lines += textwrap.wrap(
            f"{name}: {meaning}", HELP_WIDTH, initial_indent="  ", subsequent_indent="    "
        )
    if default:
        lines += textwrap.wrap(f"(default: {default})", HELP_WIDTH)
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``play`` command's arguments, each with its default and meaning in ``--help``."""
    parser.description = "\n".join(textwrap.wrap(PLAY_DESCRIPTION, 78))
    parser.formatter_class = argparse.RawTextHelpFormatter
    parser.add_argument(
        "--players",
        type=int,
        choices=range(MIN_PLAYERS, MAX_PLAYERS + 1),
        metavar="N",
        help=_help(
            f"players at the table, you included: {MIN_PLAYERS} to {MAX_PLAYERS}",
            default="asked; Enter there means 4",
        ),
    )
    parser.add_argument(
        "--level",
        choices=LEVELS,
        help=_help(
            "how well the computer players play: random plays any allowed card, easy "
            "follows rules of thumb, normal and hard think ahead (hard for longer)",
            default="asked; Enter there means normal",
        ),
    )
    parser.add_argument(
        "--variant",
        action="append",
        choices=list(VARIANTS),
        help=_help(
            "switch a variant on; repeat it for several:",
            VARIANT_HELP,
            default="asked; Enter there means none",
        ),
    )
    parser.add_argument(
        "--no-variants",
        dest="variant",
        action="store_const",
        const=[],
        help=_help("play the standard rules without being asked", default="asked"),
    )
    parser.add_argument(
        "--bidding",
        default=Bidding.OPEN.value,
        choices=[b.value for b in Bidding],
        help=_help("how bids are made:", BIDDING_HELP, default=Bidding.OPEN.value),
    )
    parser.add_argument(
        "--seed",
        type=int,
        help=_help(
            "a number that fixes the deals, to play the same cards again",
            default="random, printed when the game starts",
        ),
    )
    parser.add_argument(
        "--name", default="You", help=_help("your name at the table", default="You")
    )
    parser.add_argument(
        "--theme",
        default=Theme.CLASSIC.value,
        choices=[t.value for t in Theme],
        help=_help("how cards look and are typed:", THEME_HELP, default=Theme.CLASSIC.value),
    )
    parser.add_argument(
        "--colour",
        "--color",
        default="auto",
        choices=COLOUR_CHOICES,
        metavar="WHEN",
        help=_help(
            "suits in colour: always, never, or auto: in a terminal only, not in output "
            "that is piped or redirected, and not when the NO_COLOR environment variable "
            "is set",
            default="auto",
        ),
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help=_help(
            "save the game record (JSON) to FILE at the end, to check it later with "
            "python -m wizard replay FILE",
            default="not saved",
        ),
    )


def run(args: argparse.Namespace, term: Terminal | None = None) -> int:
    """Run ``python -m wizard play``; returns the exit status (0 played, 1 quit)."""
    term = term or Terminal(
        theme=Theme(args.theme),
        echo=not sys.stdin.isatty(),
        colour=colour_wanted(args.colour),
    )
    try:
        players, level, options = setup(term, args)
        check_setup(options, players)
    except Quit:
        term.say("Bye.")
        return 1
    except OptionsError as e:
        term.say(f"That combination cannot be played: {e.message}.")
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    name = clean_name(args.name)  # shown on every line of the table
    state, finished = play_game(term, players, level, options, seed=seed, name=name)
    if not finished:
        term.say("Game stopped.")
    term.say("")
    term.say(format_scorepad(state))
    won = winners(state)
    if won is not None:
        term.say("You win!" if HUMAN in won else "Better luck next time.")
    if args.record:
        args.record.write_text(dumps(state))
        term.say(f"Game record saved to {args.record}.")
    return 0 if finished else 1
