"""Refusals read in the player's language, from code and params alone (``bot.cogs.replies``).

Every code of the engine (``wizard.errors.MESSAGES``) and of the game service has a text;
every text is translated (the made-up fullwidth language of ``test_render_i18n`` shows any
word built outside the translation layer); the params the engine gives fill every detail;
missing, unknown or malformed params never crash a reply and never bring English into
another language; an unknown code reads as a generic sentence, translated.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import bot.i18n
from bot.cogs.replies import (
    BY_PARAM,
    GENERIC,
    REFUSALS,
    SERVICE_CODES,
    STALE,
    refusal_of,
    refusal_reason,
    refusal_text,
)
from bot.features.settings import NOT_SAVED, VARIANT_KEYS, NotSaved, options_of
from bot.i18n import Texts, texts
from tests.bot.test_render_i18n import GREEK, Fullwidth, untranslated
from tests.engine.test_refusal_codes import CASES
from wizard.cards import Theme
from wizard.errors import MESSAGES, ForbiddenBidError, MustFollowSuitError, RuleError
from wizard.errors import NotYourTurnError as EngineNotYourTurn
from wizard.options import Bidding, Options, conflicts
from wizard.service import (
    GameNotFoundError,
    GameStatusError,
    IllegalMoveError,
    InvalidOptionsError,
    NotHostError,
    NotSeatedError,
    ServiceError,
    StaleVersionError,
)
from wizard.service import errors as service_errors

EN = texts("en")
DE = texts("de")

CONTRACT_SERVICE_CODES = {
    "game_not_found", "game_status", "not_seated", "already_seated", "lobby_full", "not_host",
    "channel_busy", "seat_not_found", "not_enough_players", "invalid_settings", "stale",
    "not_away", "storage", "busy", "game_damaged", "invalid_options", "illegal_move",
    "not_your_turn", "seat_taking_off", "seat_held", "hints_off", "last_person",
}  # fmt: skip
"""The service's codes as the contract with the service names them."""

SAMPLE: dict[str, object] = {
    "suit": "G",
    "card": "G7",
    "bidding": "secret",
    "player": GREEK[0],
    "waiting_for": GREEK[1],
    "dealer": GREEK[2],
    "name": GREEK[3],
    "host": GREEK[0],
    "bid": 2,
    "tricks": 3,
    "round": 3,
    "max": 4,
    "limit": 6,
    "min": 3,
    "players": 7,
    "count": 1,
    "game_id": 12,
}
"""A value for every placeholder a refusal text may name."""


@pytest.fixture
def fullwidth() -> Texts:
    """The made-up language whose every word is fullwidth (see ``test_render_i18n``)."""
    return Texts("fw", Fullwidth())


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def service_codes() -> set[str]:
    """Every ``code`` of the service's refusal classes (and its registry, once it has one)."""
    # The registry's keys are ``code`` or ``code.variant``: the code is the first part.
    found = {key.split(".")[0] for key in getattr(service_errors, "MESSAGES", {})}
    pending: list[type[ServiceError]] = [ServiceError]
    while pending:
        kind = pending.pop()
        found.add(kind.code)
        pending.extend(kind.__subclasses__())
    return found - {"error"}  # the base class's code: a refusal of no kind in particular


# --- every code has a text, in every language ------------------------------------------------


def test_every_engine_and_service_code_has_a_bot_text() -> None:
    known = {code.split(".")[0] for code in REFUSALS}
    assert set(MESSAGES) <= known, set(MESSAGES) - known
    assert known >= CONTRACT_SERVICE_CODES, CONTRACT_SERVICE_CODES - known
    assert set(SERVICE_CODES) == CONTRACT_SERVICE_CODES
    assert service_codes() <= known, service_codes() - known


def key_params(key: str) -> tuple[str, dict[str, object]]:
    """The code and params of a refusal that :data:`REFUSALS`' ``key`` answers: in
    ``code.value`` the value of the code's :data:`BY_PARAM` param, in ``code.value.action``
    the refused action too.

    >>> key_params("game_status.active.join")
    ('game_status', {'status': 'active', 'action': 'join'})
    """
    code, *rest = key.split(".")
    params: dict[str, object] = {}
    if rest:
        params[BY_PARAM[code]] = rest[0]
    if len(rest) > 1:
        params["action"] = rest[1]
    return code, params


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_every_refusal_is_translated(key: str, fullwidth: Texts) -> None:
    """In the fullwidth language no Latin word is left: every word went through ``t``, the
    params too (suit names, variants); only card codes and suit letters stay as they are."""
    code, reaching = key_params(key)
    params = {**SAMPLE, **reaching}
    for theme in Theme:
        text = refusal_reason(code, params, t=fullwidth, theme=theme)
        assert not untranslated(text), (key, text)
        detail = REFUSALS[key].detail
        if detail is not None:
            # Every placeholder was filled: the detail shows, not the gist alone.
            assert text != fullwidth(REFUSALS[key].gist), (key, text)


def test_no_rule_id_in_any_refusal_text_or_translation() -> None:
    rule_id = re.compile(r"\bR\d+\.\d+\b")
    for language in bot.i18n.LANGUAGES:
        t = texts(language)
        for refusal in REFUSALS.values():
            for text in (refusal.gist, refusal.detail):
                if text is not None:
                    assert not rule_id.search(t(text, **dict.fromkeys(placeholders(text), "x")))


# --- the engine's params fill the details -------------------------------------------------------


def engine_refusals() -> Iterator[RuleError]:
    for case in CASES:
        call: Callable[[], object] = case.values[4]
        try:
            call()
        except RuleError as error:
            yield error


def test_the_engines_params_fill_every_detail() -> None:
    """Rendered from a real engine refusal, each text shows its detail (the engine gives every
    param the text names)."""
    seen = 0
    for error in engine_refusals():
        refusal = REFUSALS[error.code]
        text = refusal_text(error, t=EN)
        assert text.startswith(f"{refusal.emoji} {refusal.gist}"), (error.code, text)
        if error.code == "already_bid" and "waiting_for" not in error.params:
            # Hidden and secret bids (R7.2, R7.3) have no one turn to name: the gist alone.
            assert text == f"{refusal.emoji} {refusal.gist}", text
        elif refusal.detail is not None:
            assert placeholders(refusal.detail) <= set(error.params), error.code
            assert text != f"{refusal.emoji} {refusal.gist}", (error.code, text)
            seen += 1
    assert seen >= 10


def test_a_wrapped_engine_refusal_reads_as_the_engines() -> None:
    """A service refusal made from the engine's (``from_engine``, raised ``… from None``)
    reads by the engine's code and params."""
    engine = ForbiddenBidError("R7.1", "bid_forbidden", bid=1, tricks=1, kind="uneven_bids")
    try:
        try:
            raise engine
        except RuleError as error:
            raise IllegalMoveError.from_engine(error) from None  # type: ignore[arg-type]
    except ServiceError as wrapped:
        assert refusal_of(wrapped) == ("bid_forbidden", engine.params)
        assert refusal_text(wrapped, t=DE) == (
            "⛔ Diese Ansage ist nicht erlaubt. Bei Plus-Minus-Eins darf der Geber nicht 1 "
            "ansagen: Die Ansagen ergäben zusammen 1, die Stichzahl dieser Runde."
        )
    options = conflicts(Options(canadian=True, bidding=Bidding.HIDDEN))[0]
    try:
        try:
            raise options
        except RuleError as error:
            raise InvalidOptionsError.from_engine(error) from None
    except ServiceError as wrapped:
        assert refusal_text(wrapped, t=DE) == (
            "⚠️ Diese Optionen lassen sich nicht zusammen spielen. Die kanadische Regel braucht "
            "offene Ansagen: Mit der Variante „verdeckte Ansagen“ kann der Letzte die Summe nicht "
            "kennen."
        )


# --- German, as a German member reads it --------------------------------------------------------


def test_german_refusals_are_wholly_german() -> None:
    turn = EngineNotYourTurn(
        "R4.2", "not_your_turn_to_bid", player="Bo", waiting_for="Ann", seat=1, turn=0
    )
    assert refusal_text(turn, t=DE) == "⏳ Du bist nicht dran. Ann ist mit der Ansage dran."
    follow = MustFollowSuitError(
        "R5.3", "must_follow_suit", player="Bo", seat=1, suit="B", card="B7"
    )
    assert refusal_text(follow, t=DE) == (
        "⛔ Du musst Farbe bedienen. Du hast eine Karte in 🟦 Menschen (B): Spiel eine davon, "
        "einen 🧙 Zauberer oder einen 🃏 Narren."
    )
    assert refusal_text(follow, t=DE, theme=Theme.STANDARD) == (
        "⛔ Du musst Farbe bedienen. Du hast eine Karte in ♠\ufe0e Pik: Spiel eine davon, "
        "einen 🧙 Zauberer oder einen 🃏 Narren."
    )
    assert refusal_text(StaleVersionError(3, 5), t=DE) == DE(STALE)
    assert refusal_text(StaleVersionError(3, 5), t=DE).startswith("🔄 Seit dieser Anzeige")
    assert refusal_text(NotSeatedError(), t=DE) == (
        "🚫 Du spielst in dieser Partie nicht mit. Du kannst sie am Tisch verfolgen. Um "
        "mitzuspielen, nimm dort einen Platz, wenn der Tisch einen anbietet, oder spiel bei der "
        "nächsten Partie mit."
    )
    cancelled = GameStatusError("cancelled", "This game was cancelled")
    assert refusal_text(cancelled, t=DE) == "🛑 Diese Partie wurde abgebrochen."


# --- never a crash, never English in another language --------------------------------------


class Odd(Exception):
    """A refusal from somewhere else: its own code, params and English."""

    def __init__(self, code: str, params: dict[str, Any] | None = None) -> None:
        super().__init__("Some English sentence nobody should read")
        self.code = code
        self.message = "Some English sentence nobody should read"
        if params is not None:
            self.params = params


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_missing_or_malformed_params_show_the_gist(key: str) -> None:
    code, base = key_params(key)
    refusal = REFUSALS[key]
    gist = DE(refusal.gist)
    expected = f"{refusal.emoji} {gist}" if refusal.emoji else gist
    for params in (
        {},
        {"suit": "Q", "card": "X99", "bidding": "sideways", "bid": "lots", "tricks": None},
        {"player": None, "waiting_for": True, "max": "many", "min": "-", "round": 1.5},
    ):
        text = refusal_text(Odd(code, {**base, **params}), t=DE)
        if refusal.detail is not None and not placeholders(refusal.detail):
            assert text == f"{expected} {DE(refusal.detail)}"  # a detail without params
        else:
            assert text == expected, (key, params, text)


def test_whole_floats_read_as_numbers_other_floats_not() -> None:
    timer = Odd("invalid_settings", {"setting": "turn_seconds", "min": 10.0, "max": 86400.0})
    assert refusal_text(timer, t=DE) == (
        "⚠️ Dieses Zeitlimit pro Zug ist nicht möglich. Erlaubt sind 10 Sekunden bis "
        "24 Stunden; 0 heißt ohne Limit."
    )
    odd = Odd("invalid_settings", {"setting": "turn_seconds", "min": 0.5, "max": 86400.0})
    assert refusal_text(odd, t=DE) == "⚠️ Dieses Zeitlimit pro Zug ist nicht möglich."


def test_an_unknown_code_reads_as_a_generic_translated_sentence() -> None:
    generic = f"⚠️ {DE(GENERIC)}"
    assert generic == "⚠️ Das geht gerade nicht."
    assert refusal_text(Odd("brand_new_refusal"), t=DE) == generic
    assert refusal_text(Odd("brand_new_refusal", {"x": 1}), t=DE) == generic
    assert refusal_text(ServiceError("Something went wrong"), t=DE) == generic
    assert refusal_text(Odd("game_status", {"status": "sideways"}), t=DE) == (
        "ℹ️ Das geht in dieser Partie gerade nicht."
    )
    # A service refusal that has no params yet reads by its code, in German.
    assert refusal_text(GameNotFoundError(1), t=DE) == "❓ Diese Partie gibt es nicht mehr."


# --- the settings panel asks the engine which variants conflict ---------------------------------


def test_the_panel_refuses_exactly_the_engines_conflicts_in_the_managers_language() -> None:
    keys = list(VARIANT_KEYS)
    for i, first in enumerate(keys):
        for second in keys[i + 1 :]:
            chosen = {first, second}
            if chosen == {"hidden", "secret"}:
                with pytest.raises(NotSaved) as both:
                    options_of(DE, chosen)
                assert (
                    both.value.reason == "Ansagen sind entweder verdeckt oder geheim, nicht beides."
                )
                continue
            bidding = Bidding(next(iter(chosen & {"hidden", "secret"}), "open"))
            options = Options(bidding=bidding, **dict.fromkeys(chosen - {"hidden", "secret"}, True))
            found = conflicts(options)
            if not found:
                assert options_of(DE, chosen) == options
                continue
            with pytest.raises(NotSaved) as refused:
                options_of(DE, chosen)
            reason = refused.value.reason
            assert reason == refusal_reason(found[0].code, found[0].params, t=DE)
            assert reason.startswith("Diese Optionen lassen sich nicht zusammen spielen. ")
            assert not re.search(r"\bR\d\.\d", reason)


def test_large_numbers_in_refusals_are_grouped_as_the_language_writes_them() -> None:
    """QA (de, es): "Ein Zug dauert 10 bis 86400 Sekunden", where the boards write 1.228."""
    params = {"setting": "rated_min_games", "min": 1, "max": 86400.0}
    german = refusal_reason("invalid_settings", params, t=texts("de"))
    assert "1 und 86.400" in german, german
    english = refusal_reason("invalid_settings", params, t=texts("en"))
    assert "1 to 86,400" in english, english


def test_the_range_of_a_turn_limit_reads_as_durations() -> None:
    """Player QA (de): "Ein Zug dauert 10 bis 86.400 Sekunden" said how long a turn takes,
    not what limit may be set, and in seconds a day has."""
    params = {"setting": "turn_seconds", "min": 10, "max": 86400.0}
    german = refusal_reason("invalid_settings", params, t=texts("de"))
    assert german == (
        "Dieses Zeitlimit pro Zug ist nicht möglich. Erlaubt sind 10 Sekunden bis "
        "24 Stunden; 0 heißt ohne Limit."
    ), german
    english = refusal_reason("invalid_settings", params, t=EN)
    assert english.endswith("It can be from 10 seconds to 24 hours; 0 means no limit.")
    # A range that starts at no limit would read "from no time limit": the detail is left out.
    zero = refusal_reason("invalid_settings", {**params, "min": 0}, t=EN)
    assert zero == "That turn timer is not possible.", zero


@pytest.mark.parametrize(
    ("reason", "says"),
    [
        ("not_in_game", "🚫 You are not playing in this game. You can watch it on the table."),
        ("away", "A computer is playing your seat: take it back with **Take my seat back**"),
        ("not_in_lobby", "🚫 You are not in this lobby."),
    ],
)
def test_each_reason_for_not_being_seated_says_what_it_is(reason: str, says: str) -> None:
    """QA: a spectator was told "You are not playing in this game." and nothing of what they
    could do; a player whose seat a computer plays, asking for a hint, was told the same,
    and so was someone leaving a lobby they were not in."""
    text = refusal_text(NotSeatedError(reason=reason), t=EN)
    assert says in text, text


@pytest.mark.parametrize(
    ("language", "starts"),
    [
        ("es", "La variante “más o menos una” requiere"),
        ("it", "La variante “più o meno uno” richiede"),
        ("pt", "A variante “mais ou menos uma” exige"),
        ("ca", "La variant “més o menys una” requereix"),
    ],
)
def test_a_conflict_names_a_variant_as_a_name(language: str, starts: str) -> None:
    """QA (es): "Más o menos una requiere predicciones abiertas" read as a sentence that
    lost its subject: the variant's name, like "La regla canadiense", is named as one."""
    [conflict] = conflicts(Options(uneven_bids=True, bidding=Bidding.HIDDEN))
    reason = refusal_reason(conflict.code, conflict.params, t=texts(language))
    assert reason.startswith(starts) or f". {starts}" in reason, reason


def test_not_saved_stands_as_a_sentence_before_its_reason() -> None:
    """Player QA (it, es): "Non salvato: Questo tempo per turno non è possibile." put a
    capital after a colon, where Italian and Spanish write lower case. The reason, a sentence
    of its own, follows "Nothing was saved." in every language."""
    for language in bot.i18n.LANGUAGES:
        said = texts(language)(NOT_SAVED, reason="Xyz.")
        assert said.endswith(". Xyz."), (language, said)


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "🚫 Only the host can start the game. Ask **Anna** \\*."),
        ("de", "🚫 Nur der Gastgeber kann die Partie starten. Frag **Anna** \\*."),
        ("pt", "🚫 Só quem organiza pode começar a partida. Fale com **Anna** \\*."),
        # QA (it): "Chiedi a Anna", where Italian writes "ad Anna" (but "a Bruno").
        ("it", "🚫 Solo l'host può avviare la partita. Chiedi all'host, **Anna** \\*."),
    ],
)
def test_a_host_only_refusal_names_whom_to_ask(language: str, says: str) -> None:
    """QA (de, pt): "Nur der Gastgeber kann die Partie starten." left the player to find out
    who the host is."""
    refused = NotHostError(None, host="**Anna** *", action="start")
    assert refusal_text(refused, t=texts(language)) == says.replace("**Anna**", "\\*\\*Anna\\*\\*")
    # A host the service cannot name (no seat of theirs): the gist alone, in every language.
    nameless = NotHostError(None, host=None, action="add_computer")
    assert refusal_text(nameless, t=texts(language)).endswith(".")
    assert "None" not in refusal_text(nameless, t=texts(language))
    assert "None" not in nameless.message and "{" not in nameless.message
