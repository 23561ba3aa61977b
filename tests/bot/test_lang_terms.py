"""One word for one thing, and words that fit, in every language, where a player reads it.

Found by playing whole games in each language through SimCord and reading every text the
bot sent (messages, embeds, buttons, selects, command localisations): a rating explained
under another word than the one the card and the board show (in Italian, Spanish and
Catalan the word for a score); "1 mani"; Catalan rules naming the cards in English;
"Spiel 2" and "Jogo 2" above lobbies titled "Partie 2" and "partida 2"; "ordenador" among
thirty "máquina"; seats named with a third word on the score chart; Portuguese switching
from "você" to "tu"; one player spoken to in the plural (Catalan open-bid ping, the Play
again invitation); "no turn limit" said two ways in German and Catalan.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.features.community.words import RATING_NOTE
from bot.features.lobby import invitation_text
from bot.features.pings import ping_text
from bot.i18n import LANGUAGES, LOCALES, texts
from tests.bot.conftest import buttons, simulation
from tests.bot.i18n_support import user_locales
from tests.bot.test_community import add_players
from wizard.state import Phase

pytestmark = pytest.mark.usefixtures("fast_settle")

TRANSLATED = [language for language in LANGUAGES if language != "en"]
DISCORD_LOCALE = {"de": "de", "it": "it", "es": "es-ES", "pt": "pt-BR", "ca": "es-ES"}
"""A member's Discord locale in each language's community (Discord has no Catalan)."""


@pytest.mark.parametrize("language", TRANSLATED)
async def test_the_rating_note_names_the_rating_as_the_card_and_board_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=3) as sim:
        ann, bob, cy = sim.members
        for member in sim.members:
            locales[member] = DISCORD_LOCALE[language]
        await sim.service.update_settings(sim.guild.id, language=language)
        add_players(sim, {ann.id: 31.0, bob.id: 28.0}, games=6)
        t = texts(language)
        rating = t("Rating")

        stats = await cy.slash(sim.channel, "wizard stats", member=ann)
        board = await cy.slash(sim.channel, "wizard leaderboard")
        assert stats.response is not None and board.response is not None
        card_fields = [f.name for f in stats.response.embeds[0].fields]
        assert rating in card_fields, card_fields
        note = t(RATING_NOTE)
        for shown in (stats.response, board.response):
            footer = (shown.embeds[0].footer.text or "").splitlines()
            assert note in footer, (note, footer)
        # The note explains the rating by the word the card's field and the board's button
        # use, not by another (in Italian, Spanish and Catalan: the word for a score).
        assert note.split(":", 1)[0] == rating, (note, rating)
        assert rating in [b.get("label") for b in buttons(board.response)]


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_count_of_one_round_reads_in_the_singular(language: str) -> None:
    """The statistics' bids line: "1 of 10 rounds" must not become "1 mani" in Italian."""
    t = texts(language)
    text = t(
        "{accuracy} made exactly ({exact} of {rounds} rounds they bid themselves)",
        accuracy="10%",
        exact=1,
        rounds=10,
    )
    many = {"de": "Runden", "it": "mani", "es": "rondas", "pt": "rodadas", "ca": "rondes"}
    assert not re.search(rf"\b1 {many[language]}\b", text), text


WIZARD_CARD = re.compile(r"🧙 Wizard|Wizards\b|\b(?:a|first) Wizard\b|Wizard highest")
"""English naming the Wizard card (not the game, as in "a game of Wizard")."""
JESTER_CARD = re.compile(r"Jester")
ENGLISH_CARDS = re.compile(r"🧙 Wizard|🃏 Jester|\bJesters?\b|\bWizards\b")


def names_the_cards_wrongly(english: str, translated: str, wizard: str, jester: str) -> bool:
    """Whether a translation of a text about the cards keeps their English names or does
    not name them by the words the table uses (compared by their stem: plurals differ)."""
    if ENGLISH_CARDS.search(translated):
        return True
    folded = translated.casefold()
    if JESTER_CARD.search(english) and jester[:3].casefold() not in folded:
        return True
    return bool(WIZARD_CARD.search(english)) and wizard[:3].casefold() not in folded


@pytest.mark.parametrize("language", TRANSLATED)
def test_texts_about_the_cards_name_them_as_the_table_does(language: str) -> None:
    """Rules, refusals and the single-suit variant name the Wizard and the Jester by the
    words the table and the hand show (``card_name``), never in English."""
    t = texts(language)
    wizard, jester = t.context("card", "Wizard"), t.context("card", "Jester")
    with (LOCALES / f"{language}.po").open("rb") as po:
        catalogue = read_po(po)
    wrong = []
    for message in catalogue:
        english = message.id if isinstance(message.id, str) else message.id[0]
        translated = message.string if isinstance(message.string, str) else message.string[0]
        if not english or not translated or message.context is not None:
            continue
        if (WIZARD_CARD.search(english) or JESTER_CARD.search(english)) and (
            names_the_cards_wrongly(english, translated, wizard, jester)
        ):
            wrong.append((english, translated))
    assert not wrong, "\n".join(f"{e!r}\n  -> {s!r}" for e, s in wrong)


@pytest.mark.parametrize("language", TRANSLATED)
def test_trump_is_one_word(language: str) -> None:
    """The hint names trump with the word of the table ("Trump: …" on the hand)."""
    t = texts(language)
    hint = t("{level} would choose {suit} as trump.", level="Normal", suit="X")
    table = t("Turned {card}: trump is {suit}.", card="c", suit="X").lower()
    word = {"de": "trumpf", "it": "briscola", "es": "triunfo", "pt": "trunfo", "ca": "triomf"}
    assert word[language] in table
    assert word[language] in hint.lower(), hint


def translations(language: str) -> list[tuple[str, str]]:
    """Every (English, translation) pair of a catalogue, plural forms included."""
    with (LOCALES / f"{language}.po").open("rb") as po:
        catalogue = read_po(po)
    pairs = []
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        pairs += [(ids[min(i, len(ids) - 1)], s) for i, s in enumerate(strings) if s]
    return pairs


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_game_by_its_number_is_named_as_the_table_names_it(language: str) -> None:
    """ "Game 2" is one word wherever a number follows it: the rematch note of Play again
    said "Spiel 2" (German) and "Jogo 2" (Portuguese) above a lobby titled "Partie 2" and
    "partida 2"."""
    title = texts(language)("Wizard · game {game}", game=987)
    word = re.search(r"(\w+)\W+987", title)
    assert word is not None, title
    wrong = []
    for english, translated in translations(language):
        for placeholder in re.findall(r"\b[Gg]ames? \{(\w+)\}", english):
            if not re.search(rf"{word[1]}\w*\W+(?:\w+\W+)?\{{{placeholder}\}}", translated, re.I):
                wrong.append((english, translated))
    assert not wrong, (word[1], wrong)


def named_otherwise(language: str, english: str, word: str) -> list[tuple[str, str]]:
    """The (English, translation) pairs of ``language`` whose English names a thing
    (``english``, a pattern, outside ``{placeholders}``) and whose translation does not say
    the language's ``word`` (a pattern) for it."""
    return [
        (source, translated)
        for source, translated in translations(language)
        if re.search(english, re.sub(r"\{\w+\}", "", source), re.I)
        and not re.search(word, translated, re.I)
    ]


COMPUTER = {
    "de": "computer",
    "it": "computer",
    "es": "máquina",
    "pt": "computador",
    "ca": "ordinador",
}
"""The word for a computer player in each language, as the lobby's button and list say."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_computer_players_are_one_word(language: str) -> None:
    """Spanish said "máquina" everywhere but in two texts ("ordenador")."""
    t = texts(language)
    assert COMPUTER[language] in t("Add computer player").casefold()
    wrong = named_otherwise(language, r"\bcomputers?\b", COMPUTER[language])
    assert not wrong, wrong


SEAT = {
    "de": "platz|plätze",
    "it": "post[oi]",
    "es": "puesto|sentarte",
    "pt": "lugar",
    "ca": "lloc",
}
"""The word for a seat at the table in each language."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_seat_is_one_word(language: str) -> None:
    """The score chart named seats "Asiento" (Spanish) and "Seient" (Catalan) where every
    other text says "puesto" and "lloc"; Spanish said "Recuperar mi sitio" beside "Ocupar un
    puesto"."""
    assert re.search(SEAT[language], texts(language)("Take a seat"), re.I)
    wrong = named_otherwise(language, r"\bseats?\b", SEAT[language])
    assert not wrong, wrong


TU_FORMS = re.compile(
    r"\b(tu|tua|teu|tuas|teus|ti|jogas|ganharás|ganhaste|ocupas|vosso|vossa|carreguem|"
    r"está a \w+r)\b",
    re.I,
)
"""European Portuguese forms of address and aspect ("tu", "vós", "está a jogar")."""


def test_portuguese_speaks_to_players_as_voce_throughout() -> None:
    """Discord's one Portuguese locale is Brazilian (``pt-BR``) and the catalogue speaks to
    the player as "você" ("Você jogou…", "Aperte…"); six texts switched to "tu" or "vós"
    ("a tua mão", "carreguem em Entrar … vosso lugar") or to "está a jogar"."""
    wrong = [(e, s) for e, s in translations("pt") if TU_FORMS.search(s)]
    assert not wrong, wrong


def test_portuguese_names_tricks_and_rounds_as_brazilian_players_do() -> None:
    """A trick is a "vaza" and a round a "rodada" in Brazil; the catalogue said "vasa" (no
    Portuguese word) and "ronda" (a patrol) in 63 texts."""
    wrong = [(e, s) for e, s in translations("pt") if re.search(r"\b(vasas?|rondas?)\b", s, re.I)]
    assert not wrong, wrong


def test_portuguese_words_are_brazilian() -> None:
    """Player QA (pt-BR): "sobe-o", "fá-lo", "devolva-me" (a pronoun after a conjugated
    verb, as Portugal writes it; Brazil writes "me devolva") and "falhada" (a missed bid:
    "não cumprida" in Brazil). After an infinitive ("retomá-lo", "vê-la") it is Brazilian."""
    after_verb = r"\b\w+-(me|te|se|lhes?|nos|o|a|os|as)\b|\bfá-l[oa]s?\b|\bfalhad[ao]s?\b"
    wrong = [(e, s) for e, s in translations("pt") if re.search(after_verb, s, re.I)]
    assert not wrong, wrong


PLURAL_ADDRESS = {
    "de": r"\b(ihr|euer|euren|eure|drückt)\b",
    "it": r"\b(vostro|vostra|premete|tocca a voi)\b",
    "es": r"\b(vuestro|vuestra|pulsad|os toca)\b",
    "pt": r"\b(vocês|apertem)\b",
    "ca": r"\b(vostre|vostra|premeu|us toca)\b",
}
"""Words that speak to several people at once."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_open_bid_ping_speaks_to_its_one_player(language: str) -> None:
    """An open bid is made by one player at a time, on the table: its ping (the one a new
    server's games send, open bidding being the default) names one player, and the Catalan
    one spoke to them in the plural ("és el vostre torn") where the play ping says "et toca"."""
    t = texts(language)
    ping = ping_text(["<@1>"], Phase.BID, 3, t=t, on_table=True)
    assert not re.search(PLURAL_ADDRESS[language], ping, re.I), ping
    for phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY, Phase.ROUND_OVER):
        one = ping_text(["<@1>"], phase, 3, t=t)
        assert not re.search(PLURAL_ADDRESS[language], one, re.I), (phase, one)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_rating_and_the_computer_level_are_two_words(language: str) -> None:
    """A player's rating and a computer player's level were both "Nivel" (es, pt), "Livello"
    (it) and "Nivell" (ca): "Nivel" on the board read as the computers' level. QA (es): the
    option of /wizard settings was still "nivel_máquina" (``computer_level``)."""
    rating = texts(language)("Rating").casefold()
    wrong = [
        (english, translated)
        for english, translated in translations(language)
        if re.search(r"(?:\b|_)levels?\b", english, re.I)
        and "rating" not in english.casefold()
        and rating in translated.casefold()
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_play_again_invitation_fits_one_player(language: str) -> None:
    """The line above a Play again lobby names the other players of the game, often one:
    it read "<@1>: Drückt Mitspielen, um euren Platz…" (and "pulsad … vuestro", "premete …
    vostro", "premeu … vostre"), speaking to one person as to several. The text has one form
    for any number of players, so it says it in words that fit one as well as many."""
    line = invitation_text(2, 1, ["<@1>"], t=texts(language)).splitlines()[-1]
    assert not re.search(PLURAL_ADDRESS[language], line, re.I), line


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_turn_limit_reads_alike_in_the_settings_and_the_lobby(language: str) -> None:
    """The settings panel said "keine Zeitgrenze" and the lobby "kein Zeitlimit" (German);
    Catalan "sense límit de temps" and "sense temps per torn"."""
    t = texts(language)
    settings_words, lobby_words = t("no time limit"), t("no turn timer")
    assert settings_words.casefold() in lobby_words.casefold(), (settings_words, lobby_words)


SINGULAR_ADDRESS = {
    "de": r"\b(du|dein|deine|drück)\b",
    "it": r"\b(tuo|tua|premi|tocca a te)\b",
    "es": r"\b(tu|te|pulsa)\b",
    "pt": r"\b(sua|seu|você|aperte)\b",
    "ca": r"\b(et|teu|teva|prem)\b",
}
"""Words that speak to one person."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_hidden_bid_ping_fits_one_player_and_several(language: str) -> None:
    """Under hidden and secret bidding (R7.2, R7.3) everyone bids at once and one ping names
    every player still to bid, one or several: the text has one form for any number, so it
    speaks to nobody in the singular ("Du bist mit der Ansage dran") or the plural."""
    t = texts(language)
    for mentions in (["<@1>"], ["<@1>", "<@2>", "<@3>"]):
        ping = ping_text(mentions, Phase.BID, 3, t=t)
        assert not re.search(SINGULAR_ADDRESS[language], ping, re.I), ping
        assert not re.search(PLURAL_ADDRESS[language], ping, re.I), ping


def test_the_history_picker_says_the_points_in_the_right_case_in_german() -> None:
    """German said "mit -400 Punkte" for "with -400 points" under each game of
    /wizard history; after "mit" the plural takes the dative ("Punkten"), so the points
    stand in parentheses and the plural stays as everywhere else."""
    t = texts("de")
    points = t.plural("{n} point", "{n} points", -400)
    line = t("Won by {names} with {points}", names="bruno", points=points)
    assert line == "Gewonnen von bruno (−400 Punkte)"


TRUTH = re.compile(r"verdad|verità|verdade|veritat", re.I)
"""The German box's "Block der Wahrheit" ("block of truth") carried word for word."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_scorepad_is_one_word_that_players_of_the_language_know(language: str) -> None:
    """QA: Spanish, Italian and Portuguese called the scorepad "tabla de la verdad", "blocco
    della verità" and "bloco da verdade" (in Spanish, a logic truth table), where Catalan said
    "llibreta de puntuació". Every text about scorepads names it by the word of the picture's
    title; only German keeps the box's name."""
    word = texts(language)("Scorepad").casefold().split()[-1]
    wrong = [
        (english, translated)
        for english, translated in translations(language)
        if "scorepad" in english.casefold()
        and (word not in translated.casefold() or (language != "de" and TRUTH.search(translated)))
    ]
    assert not wrong, (word, wrong)


SUIT = {
    "de": "farb|bedien",  # "Farbe bedienen": to follow suit
    "it": "seme|semi",
    "es": "palo",
    "pt": "naipe",
    "ca": "coll",
}
"""The word for a suit in each language, as the hand's "Suit to follow" says."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_suit_is_one_word(language: str) -> None:
    """QA (ca): "els botons de pal" when a Wizard was turned, where every other Catalan text
    says "coll" ("Coll a seguir", "Has de seguir el coll")."""
    wrong = named_otherwise(language, r"\bsuits?\b", SUIT[language])
    assert not wrong, wrong


@pytest.mark.parametrize(
    ("language", "passive"),
    [("de", "von einem computer gespielt"), ("pt", "jogado pelo computador")],
)
def test_a_seat_a_computer_plays_does_not_read_as_its_player_playing_one(
    language: str, passive: str
) -> None:
    """QA (de, pt): "**Clara** 🤖 spielt ein Computer" and "**Clara** 🤖 joga o computador"
    read as Clara playing a computer."""
    t = texts(language)
    for english in ("played by a computer ({level})", "removed, played by a computer ({level})"):
        assert passive in t(english, level="Normal").casefold()


SECRET = {"de": "geheim", "it": "segret", "es": "secret", "pt": "secret", "ca": "tancad"}
"""The word for secret bids (R7.3) in each language, as the variant menus say."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_secret_bids_are_one_word(language: str) -> None:
    """QA (ca): /wizard help said "les ocultes i secretes" where the variant menus, the
    choice and the refusal say "tancada"."""
    wrong = named_otherwise(language, r"\bsecret\b", SECRET[language])
    assert not wrong, wrong
