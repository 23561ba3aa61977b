"""Names at the boundary: what a player calls themselves, made safe to store and to show.

A name reaches the game from outside (a Discord display name, a record file, a terminal)
and is shown to others in embeds, pictures and terminals. :func:`clean_name` keeps what a
person can see, letters and emoji of every script, and drops what they cannot see but
that changes what they see: control characters, and format characters such as zero-width
spaces and joiners, bidi overrides and isolates that reverse the text around them.
:func:`printable` escapes what is left of those in text about to be written to a terminal.

>>> clean_name("  Ann\\u202e\\u200b  the\\tBrave ")
'Ann the Brave'
>>> clean_name("\\u200b\\u200d\\n")
'Player'
>>> clean_name("👩\\u200d💻 Eve") == "👩\\u200d💻 Eve"
True
>>> printable("\\x1b[31mRed\\x1b[0m")
'\\\\x1b[31mRed\\\\x1b[0m'
"""

from __future__ import annotations

import unicodedata
from typing import Final

FALLBACK_NAME: Final = "Player"
"""The name of a player whose name had nothing visible left (callers may pass another)."""

ZWJ: Final = "\u200d"
"""Zero-width joiner: kept between two emoji, where it makes one picture of several
("👩\u200d💻" is a woman technologist); dropped everywhere else, where it is invisible."""
EMOJI_MODIFIERS: Final = frozenset(["\ufe0e", "\ufe0f", *(chr(c) for c in range(0x1F3FB, 0x1F400))])
"""Variation selectors and skin tones, which may sit between an emoji and a joiner."""
BLACK_FLAG: Final = "\U0001f3f4"
TAGS: Final = range(0xE0020, 0xE007F)
CANCEL_TAG: Final = "\U000e007f"
"""A subdivision flag (🏴 England) is the black flag, tag characters, and a cancel tag:
format characters, kept only in that one well-formed shape."""
BLANK_LOOKING: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that print as nothing (Hangul fillers, the blank Braille pattern):
a name made only of them counts as empty."""
MAX_MARKS: Final = 6
"""Combining marks kept on one letter: enough for every script's stacked vowels and
accents, not for "Zalgo" text that spills over the lines above and below."""


def clean_name(name: str, *, fallback: str = FALLBACK_NAME) -> str:
    """``name`` without invisible trickery, its whitespace collapsed; never empty.

    Dropped: control characters (C0, C1, DEL), lone surrogates, and every format
    character (zero-width space, non-joiner and joiner U+200B-U+200D, word joiner,
    U+FEFF, soft hyphen, bidi marks U+200E/F and U+061C, overrides U+202A-U+202E and
    isolates U+2066-U+2069), except a joiner between two emoji and the tags of a
    subdivision flag, which belong to the picture. Line breaks, tabs and every kind of
    space become one plain space; runs of combining marks are cut at :data:`MAX_MARKS`.
    The result is in NFC. A name with nothing visible left is ``fallback``.
    """
    kept: list[str] = []
    marks = 0
    chars = _spaced(name)
    for i, char in enumerate(chars):
        category = unicodedata.category(char)
        dropped = category in ("Cc", "Cf", "Cs") or _noncharacter(char)
        if dropped and not _kept_format(chars, i):
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(char)
    cleaned = unicodedata.normalize("NFC", " ".join("".join(kept).split()))
    if not cleaned or all(c.isspace() or c in BLANK_LOOKING for c in cleaned):
        return fallback
    return cleaned


def printable(text: str) -> str:
    """``text`` safe to write to a terminal: what could act on it appears as an escape.

    Control characters other than line breaks and tabs (an ESC starts a terminal
    command), lone surrogates (which cannot be encoded) and format characters that
    :func:`clean_name` would drop are written as ``\\x1b``, ``\\ud800``, ``\\u202e``.
    """
    out: list[str] = []
    for i, char in enumerate(text):
        category = unicodedata.category(char)
        unsafe = (category == "Cc" and char not in "\n\t") or category == "Cs"
        if unsafe or (category == "Cf" and not _kept_format(text, i)):
            out.append(_escaped(char))
        else:
            out.append(char)
    return "".join(out)


def _spaced(name: str) -> str:
    """``name`` with every control that separates (tab, line feed, U+0085…) as a space."""
    return "".join(
        " " if unicodedata.category(char) == "Cc" and char.isspace() else char for char in name
    )


def _kept_format(text: str, i: int) -> bool:
    """Whether the format character at ``text[i]`` is part of an emoji and stays."""
    char = text[i]
    if char == ZWJ:
        before = i - 1
        while before >= 0 and text[before] in EMOJI_MODIFIERS:
            before -= 1
        after = i + 1
        return before >= 0 and after < len(text) and _emoji(text[before]) and _emoji(text[after])
    if ord(char) in TAGS or char == CANCEL_TAG:
        start = i
        while start > 0 and ord(text[start - 1]) in TAGS:
            start -= 1
        end = i if char == CANCEL_TAG else i + 1
        while end < len(text) and ord(text[end]) in TAGS:
            end += 1
        # 🏴, then at least one tag, then the cancel tag.
        return (
            0 < start < end < len(text)
            and text[start - 1] == BLACK_FLAG
            and text[end] == CANCEL_TAG
        )
    return False


def _emoji(char: str) -> bool:
    """Roughly Unicode's Extended_Pictographic: the symbols emoji sequences are made of."""
    return unicodedata.category(char) == "So"


def _noncharacter(char: str) -> bool:
    """U+FDD0-U+FDEF and the last two code points of every plane: never text."""
    code = ord(char)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def _escaped(char: str) -> str:
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"
