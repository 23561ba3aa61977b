"""Names at the boundary: :func:`wizard.names.clean_name` keeps what a person sees (letters
and emoji of every script) and drops what changes it unseen (controls, zero-width and bidi
format characters); :func:`wizard.names.printable` makes terminal output harmless."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wizard.names import FALLBACK_NAME, MAX_MARKS, clean_name, printable

ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Ann", "Ann"),
        # Whitespace of every kind, collapsed and trimmed.
        ("  Ann \t\n Bob  ", "Ann Bob"),
        ("Ann\u00a0\u3000\u2028Bob", "Ann Bob"),
        ("Ann\x85Bob", "Ann Bob"),
        # Control characters: C0, DEL, C1, and a terminal escape.
        ("A\x00n\x07n\x7f\x9b", "Ann"),
        ("\x1b[31mRed\x1b[0m", "[31mRed[0m"),
        # Zero-width and format characters.
        ("A\u200bn\u200cn\u200d", "Ann"),
        ("\ufeffAnn\u2060", "Ann"),
        ("An\u00adna", "Anna"),
        # Bidi marks, overrides, isolates: "evil" names that turn text around.
        ("\u202eAnn\u202c", "Ann"),
        ("\u202a\u202b\u202d\u202eX\u2066\u2067\u2068\u2069", "X"),
        ("\u200eAnn\u200f\u061c", "Ann"),
        # Lone surrogates (from JSON's "\ud800"), and noncharacters.
        ("Ann\ud800\udfff", "Ann"),
        ("Ann\ufffe\uffff\ufdd0", "Ann"),
        # Letters of every script stay, in NFC.
        ("José", "José"),
        ("Jose\u0301", "José"),
        ("Zoë Ødegård", "Zoë Ødegård"),
        ("Мария", "Мария"),
        ("محمد", "محمد"),
        ("שָׁלוֹם", unicodedata.normalize("NFC", "שָׁלוֹם")),
        ("देवनागरी", "देवनागरी"),
        ("བསྒྲུབས", "བསྒྲུབས"),
        ("山田太郎", "山田太郎"),
        ("김민지", "김민지"),
        ("ไทย", "ไทย"),
        # Emoji, with skin tones, variation selectors, ZWJ sequences and flags, stay whole.
        ("Sam 🎲", "Sam 🎲"),
        ("👍🏽 Ann", "👍🏽 Ann"),
        ("👩\u200d💻 Eve", "👩\u200d💻 Eve"),
        ("👨\u200d👩\u200d👧\u200d👦", "👨\u200d👩\u200d👧\u200d👦"),
        ("🏳️\u200d🌈", "🏳️\u200d🌈"),
        ("🧑🏿\u200d🚀", "🧑🏿\u200d🚀"),
        ("🇮🇹 Luca", "🇮🇹 Luca"),
        (ENGLAND + " fan", ENGLAND + " fan"),
        # A joiner that joins no emoji is invisible: dropped.
        ("Ann\u200dBob", "AnnBob"),
        ("🎲\u200dAnn", "🎲Ann"),
        # Tags outside a well-formed flag are invisible: dropped.
        ("Ann\U000e0067\U000e007f", "Ann"),
        ("\U0001f3f4\U000e007f", "\U0001f3f4"),
    ],
)
def test_clean_name(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize(
    "raw",
    ["", "   ", "\n\t", "\u200b\u200d", "\u202e", "\x1b", "\ud800", "\u3164", "\u2800 \u115f"],
)
def test_a_name_with_nothing_visible_gets_the_fallback(raw: str) -> None:
    assert clean_name(raw) == FALLBACK_NAME == "Player"
    assert clean_name(raw, fallback="Seat 3") == "Seat 3"


def test_combining_marks_are_bounded() -> None:
    """ "Zalgo" text keeps its letters; the marks that spill over other lines are cut."""
    zalgo = "Z" + "\u0336\u0322\u031b\u0317\u0347\u0316\u0349\u032b\u0330\u0329" * 3 + "a"
    cleaned = clean_name(zalgo)
    assert cleaned[0] == "Z" and cleaned[-1] == "a"
    assert sum(unicodedata.category(c) == "Mn" for c in cleaned) <= MAX_MARKS


NAMES = st.text(
    st.characters(codec=None, exclude_categories=()), max_size=40
)  # every code point, lone surrogates included


@given(NAMES)
def test_clean_names_are_never_empty_and_hold_nothing_invisible(raw: str) -> None:
    cleaned = clean_name(raw)
    assert cleaned and cleaned == cleaned.strip()
    assert "  " not in cleaned
    for char in cleaned:
        category = unicodedata.category(char)
        assert category not in ("Cc", "Cs", "Zl", "Zp")
        if category == "Cf":  # only the joiners and tags of emoji
            assert char == "\u200d" or 0xE0020 <= ord(char) <= 0xE007F, hex(ord(char))
    assert clean_name(cleaned) == cleaned  # cleaning twice changes nothing
    cleaned.encode("utf-8")  # storable and sendable: no lone surrogates


@given(NAMES)
def test_printable_text_has_no_controls(raw: str) -> None:
    shown = printable(raw)
    shown.encode("utf-8")
    for char in shown:
        category = unicodedata.category(char)
        assert category != "Cs"
        assert category != "Cc" or char in "\n\t"
        assert char not in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"


def test_printable_escapes_what_would_act_on_a_terminal() -> None:
    assert printable("\x1b]0;owned\x07Ann") == "\\x1b]0;owned\\x07Ann"
    assert printable("a\ud800b") == "a\\ud800b"
    assert printable("\u202eAnn") == "\\u202eAnn"
    assert printable("round 1\n\tAnn") == "round 1\n\tAnn"
    assert printable("👩\u200d💻 " + ENGLAND) == "👩\u200d💻 " + ENGLAND
