"""Custom ids ``wiz:{game}:{verb}:{arg}:{version}``: round trips, limits, refusals, templates."""

from __future__ import annotations

import re

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ui.buttons import (
    ARG_PATTERNS,
    DYNAMIC_ITEMS,
    FAMILY_TEMPLATE,
    MAX_ID,
    MAX_LENGTH,
    CustomId,
    CustomIdError,
    GameButton,
    Verb,
    button,
    template,
)
from wizard.cards import CARDS, SUITS, Card, Suit

SAMPLE_ARGS: dict[Verb, list[str]] = {
    Verb.BID: ["0", "1", "9", "10", "20", "99"],
    Verb.PLAY: ["B1", "R7", "G10", "Y13", "Z", "N"],
    Verb.TRUMP: ["B", "R", "G", "Y"],
    Verb.LEVEL: ["0e", "3n", "5h"],
    Verb.SEATTAKING: ["0", "1"],
    Verb.DROPBOT: ["0", "4"],
    Verb.TAKESEAT: ["", "0", "5"],
}


def valid_ids() -> list[CustomId]:
    """A few ids of every verb, with small and largest game ids and versions."""
    out = []
    for verb in Verb:
        for arg in SAMPLE_ARGS.get(verb, [""]):
            for game, version in ((1, 0), (42, 7), (MAX_ID, MAX_ID)):
                out.append(CustomId(game, verb, arg, version))
    return out


@pytest.mark.parametrize("cid", valid_ids(), ids=str)
def test_round_trip_and_length(cid: CustomId) -> None:
    text = cid.format()
    assert text.startswith("wiz:")
    assert len(text) <= MAX_LENGTH
    assert CustomId.parse(text) == cid
    assert str(cid) == text


def test_format_is_the_documented_scheme() -> None:
    assert CustomId(12, Verb.PLAY, "B7", 40).format() == "wiz:12:play:B7:40"
    assert CustomId(3, Verb.HAND, "", 0).format() == "wiz:3:hand::0"
    assert CustomId(3, Verb.PLAYHIDDEN).format() == "wiz:3:playhidden::0"


def test_longest_possible_id_fits_discord_limit() -> None:
    longest = max((c.format() for c in valid_ids()), key=len)
    assert len(longest) <= 60 < MAX_LENGTH


@given(
    game=st.integers(1, MAX_ID),
    version=st.integers(0, MAX_ID),
    data=st.data(),
)
def test_round_trip_property(game: int, version: int, data: st.DataObject) -> None:
    verb = data.draw(st.sampled_from(list(Verb)))
    if verb is Verb.BID:
        cid = CustomId.for_bid(game, data.draw(st.integers(0, 99)), version)
    elif verb is Verb.PLAY:
        cid = CustomId.for_play(game, data.draw(st.sampled_from(CARDS)), version)
    elif verb is Verb.TRUMP:
        cid = CustomId.for_trump(game, data.draw(st.sampled_from(SUITS)), version)
    elif verb is Verb.LEVEL:
        level = data.draw(st.sampled_from(["easy", "normal", "hard"]))
        cid = CustomId.for_level(game, data.draw(st.integers(0, 5)), level, version)
        assert cid.seat_level[1] == level
    elif verb is Verb.SEATTAKING:
        cid = CustomId(game, verb, data.draw(st.sampled_from(["0", "1"])), version)
    elif verb is Verb.DROPBOT:
        keep = data.draw(st.integers(0, 5))
        cid = CustomId(game, verb, str(keep), version)
        assert cid.keep == keep
    else:
        cid = CustomId(game, verb, "", version)
    assert CustomId.parse(cid.format()) == cid
    assert len(cid.format()) <= MAX_LENGTH


def test_typed_arguments() -> None:
    assert CustomId.parse("wiz:5:bid:3:9").bid == 3
    assert CustomId.parse("wiz:5:play:Y13:9").card == Card.parse("Y13")
    assert CustomId.parse("wiz:5:play:Z:9").card.is_wizard
    assert CustomId.parse("wiz:5:trump:G:9").suit is Suit.ELVES
    with pytest.raises(CustomIdError):
        _ = CustomId.parse("wiz:5:bid:3:9").card
    with pytest.raises(CustomIdError):
        _ = CustomId.parse("wiz:5:join::9").bid


@pytest.mark.parametrize(
    "text",
    [
        "",
        "wiz",
        "wiz:1:join:",
        "wiz:1:join::",
        "wiz:1:join::1:2",
        "wix:1:join::1",
        "WIZ:1:join::1",
        "wiz:0:join::1",
        "wiz:01:join::1",
        "wiz:-1:join::1",
        "wiz:1:join::01",
        "wiz:1:join::-1",
        "wiz:1:JOIN::1",
        "wiz:1:fold::1",
        "wiz:1:join:x:1",
        "wiz:1:hand:B7:1",
        "wiz:1:bid::1",
        "wiz:1:bid:01:1",
        "wiz:1:bid:100:1",
        "wiz:1:bid:-1:1",
        "wiz:1:play::1",
        "wiz:1:play:B0:1",
        "wiz:1:play:B14:1",
        "wiz:1:play:X1:1",
        "wiz:1:play:b7:1",
        "wiz:1:play:ZZ:1",
        "wiz:1:trump:Z:1",
        "wiz:1:trump:BR:1",
        "wiz:1:playhidden:B7:1",
        f"wiz:{MAX_ID + 1}:join::1",
        f"wiz:1:join::{MAX_ID + 1}",
        " wiz:1:join::1",
        "wiz:1:join::1 ",
        "wiz:1:join::1\n",
        "wiz:1:join::" + "1" * 200,
    ],
)
def test_parse_refuses(text: str) -> None:
    with pytest.raises(CustomIdError):
        CustomId.parse(text)


def test_parse_refuses_non_strings() -> None:
    with pytest.raises(CustomIdError):
        CustomId.parse(12)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "verb", "arg", "version"),
    [
        (0, Verb.JOIN, "", 0),
        (-5, Verb.JOIN, "", 0),
        (MAX_ID + 1, Verb.JOIN, "", 0),
        (True, Verb.JOIN, "", 0),
        ("7", Verb.JOIN, "", 0),
        (1, Verb.JOIN, "", -1),
        (1, Verb.JOIN, "", MAX_ID + 1),
        (1, Verb.JOIN, "", 1.5),
        (1, "fold", "", 0),
        (1, Verb.JOIN, "x", 0),
        (1, Verb.BID, "", 0),
        (1, Verb.PLAY, "B14", 0),
        (1, Verb.TRUMP, "N", 0),
        (1, Verb.TRUMP, 3, 0),
    ],
)
def test_constructor_refuses(game: object, verb: object, arg: object, version: object) -> None:
    with pytest.raises(CustomIdError):
        CustomId(game, verb, arg, version)  # type: ignore[arg-type]


def test_verb_given_as_text_becomes_a_verb() -> None:
    assert CustomId(1, "join").verb is Verb.JOIN  # type: ignore[arg-type]


def test_for_bid_limits() -> None:
    assert CustomId.for_bid(1, 0, 0).arg == "0"
    assert CustomId.for_bid(1, 99, 0).arg == "99"
    for bad in (-1, 100, True):
        with pytest.raises(CustomIdError):
            CustomId.for_bid(1, bad, 0)


def test_every_verb_has_an_argument_rule_and_one_button_class_serves_them_all() -> None:
    assert set(ARG_PATTERNS) == set(Verb)
    assert (GameButton,) == DYNAMIC_ITEMS


@pytest.mark.parametrize("cid", valid_ids(), ids=str)
def test_the_one_template_matches_every_id(cid: CustomId) -> None:
    text = cid.format()
    assert button(cid).template.fullmatch(text)
    assert re.fullmatch(template(), text)


def test_templates_have_the_named_groups() -> None:
    match = re.fullmatch(template(Verb.PLAY), "wiz:9:play:G12:33")
    assert match is not None
    assert match.groupdict() == {"game": "9", "verb": "play", "arg": "G12", "version": "33"}


def test_button_carries_the_custom_id() -> None:
    cid = CustomId.for_bid(7, 2, 11)
    item = button(cid, label="2", disabled=True)
    assert isinstance(item, GameButton)
    assert item.custom_id == "wiz:7:bid:2:11"
    assert item.cid == cid
    data = item.to_component_dict()
    assert data["custom_id"] == "wiz:7:bid:2:11"
    assert data["disabled"] is True
    assert data["label"] == "2"


async def test_from_custom_id_rebuilds_the_button() -> None:
    cid = CustomId.for_play(3, Card.parse("R7"), 5)
    original = discord.ui.Button(
        label="R7",
        emoji="🟥",
        disabled=False,
        custom_id=cid.format(),
        style=discord.ButtonStyle.primary,
    )
    match = re.fullmatch(FAMILY_TEMPLATE, cid.format())
    rebuilt = await GameButton.from_custom_id(None, original, match)  # type: ignore[arg-type]
    assert isinstance(rebuilt, GameButton)
    assert rebuilt.cid == cid
    assert rebuilt.item.label == "R7"
    assert str(rebuilt.item.emoji) == "🟥"
    assert rebuilt.item.style is discord.ButtonStyle.primary


async def test_an_id_no_verb_understands_is_still_a_game_button_without_a_custom_id() -> None:
    old = discord.ui.Button(label="Fold", custom_id="wiz:3:fold::1")
    match = re.fullmatch(FAMILY_TEMPLATE, "wiz:3:fold::1")
    rebuilt = await GameButton.from_custom_id(None, old, match)  # type: ignore[arg-type]
    assert rebuilt.cid is None
    assert rebuilt.custom_id == "wiz:3:fold::1"
