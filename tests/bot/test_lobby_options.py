"""The lobby's own controls of the options: the host changes the variants (RULES.md §7) and
the turn timer on the lobby message, before the game starts, instead of cancelling it and
typing ``/wizard new`` again. Only the host may; a combination the rules refuse (R7.8) is
refused with the reason, in the picker's language, and changes nothing."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.cogs.replies import refusal_text
from bot.features.lobby import lobby_view
from bot.i18n import VARIANT_ABOUT, texts
from bot.ui.buttons import MAX_ID
from tests.bot.conftest import simulation
from tests.bot.i18n_support import user_locales
from wizard.options import Bidding, Options, conflicts
from wizard.service import GameStatus, InvalidOptionsError, check_options

pytestmark = pytest.mark.usefixtures("fast_settle")

CALLBACK = "/interactions/*/*/callback"


def selects(message: Any) -> dict[str, dict[str, Any]]:
    """The lobby's selects by verb (``options``, ``timer``)."""
    return {
        str(c["custom_id"]).split(":")[2]: c
        for row in message.components
        for c in row["components"]
        if c.get("type") == 3
    }


def picked(select: dict[str, Any]) -> list[str]:
    """The values a select shows as chosen."""
    return [o["value"] for o in select["options"] if o.get("default")]


def lobby_text(message: Any) -> str:
    return message.embeds[0].description or ""


async def pick(member: Any, message: Any, verb: str, values: list[str]) -> Any:
    """``member`` picks ``values`` in the lobby's select ``verb``."""
    custom_id = selects(message)[verb]["custom_id"]
    return await member.select(message, values, custom_id=custom_id)


async def test_the_host_sets_variants_and_timer_in_the_lobby_and_the_game_has_them(
    tmp_path: Path,
) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.new_game(ann)
        lobby_id = sim.raw()[-1].id
        lobby = sim.message(lobby_id)
        shown = selects(lobby)
        # The server's defaults: no variant, 5 minutes a turn.
        assert picked(shown["options"]) == [] and picked(shown["timer"]) == ["300"]
        assert "**Variants:** none (the classic game)" in lobby_text(lobby)

        chose = await pick(ann, lobby, "options", ["secret", "magic_twos"])
        assert chose.acknowledged and not chose.ephemeral
        lobby = sim.message(lobby_id)
        assert "**Variants:** secret bids, magic twos" in lobby_text(lobby)
        assert sorted(picked(selects(lobby)["options"])) == ["magic_twos", "secret"]

        # The controls survive a restart, as the lobby's buttons do.
        await sim.restart()
        timed = await pick(ann, sim.message(lobby_id), "timer", ["120"])
        assert timed.acknowledged and not timed.ephemeral
        lobby = sim.message(lobby_id)
        assert "**Timer:** 2 minutes per turn" in lobby_text(lobby)
        assert picked(selects(lobby)["timer"]) == ["120"]

        await bob.click(lobby, label="Join")
        await ann.click(sim.message(lobby_id), label="Add computer player")
        started = await ann.click(sim.message(lobby_id), label="Start")
        assert started.acknowledged and not started.ephemeral
        game = await sim.service.get_game(info.id)
        assert game.status is GameStatus.ACTIVE
        assert game.options == Options(bidding=Bidding.SECRET, magic_twos=True)
        assert game.turn_seconds == 120.0
        # The table drawn from the lobby has no selects left.
        assert selects(sim.message(lobby_id)) == {}


async def test_only_the_host_changes_them(tmp_path: Path) -> None:
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.new_game(ann, uneven_bids=True, turn_timer=60)
        lobby_id = sim.raw()[-1].id
        await bob.click(sim.message(lobby_id), label="Join")
        before = lobby_text(sim.message(lobby_id))

        sent = len(sim.env.http_requests)
        refused = await pick(bob, sim.message(lobby_id), "options", ["magic_twos"])
        assert refused.ephemeral and refused.response is not None
        assert refused.response.content == "🚫 Only the host can change the options. Ask ann."
        # Discord would keep bob's pick in his select: the lobby is drawn again as stored.
        edits = [
            r
            for r in sim.env.http_requests[sent:]
            if r.method == "PATCH" and r.path.endswith(f"/messages/{lobby_id}")
        ]
        assert edits, [(r.method, r.path) for r in sim.env.http_requests[sent:]]
        refused = await pick(bob, sim.message(lobby_id), "timer", ["0"])
        assert refused.ephemeral and refused.response is not None
        assert refused.response.content == ("🚫 Only the host can change the turn timer. Ask ann.")

        game = await sim.service.get_game(info.id)
        assert (game.options, game.turn_seconds) == (Options(uneven_bids=True), 60.0)
        lobby = sim.message(lobby_id)
        assert lobby_text(lobby) == before
        assert picked(selects(lobby)["options"]) == ["uneven_bids"]
        assert picked(selects(lobby)["timer"]) == ["60"]


async def test_a_combination_the_rules_refuse_is_refused_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = user_locales(monkeypatch)
    async with simulation(tmp_path, members=2) as sim:
        ann, bob = sim.members
        info = await sim.new_game(ann)
        lobby_id = sim.raw()[-1].id

        clash = Options(uneven_bids=True, bidding=Bidding.HIDDEN)
        refused = await pick(ann, sim.message(lobby_id), "options", ["uneven_bids", "hidden"])
        assert refused.ephemeral and refused.response is not None
        reason = refusal_text(InvalidOptionsError.from_conflicts(conflicts(clash)), t=texts("en"))
        assert refused.response.content == reason
        assert "Uneven bids need open bidding" in reason

        # Both bidding modes at once: the select offers both, a game has one.
        refused = await pick(ann, sim.message(lobby_id), "options", ["hidden", "secret"])
        assert refused.ephemeral and refused.response is not None
        assert "either hidden or secret, not both" in refused.response.content

        # Single suit is for 3 or 4 players: not with five seated.
        await bob.click(sim.message(lobby_id), label="Join")
        for _ in range(3):
            await ann.click(sim.message(lobby_id), label="Add computer player")
        locales[ann] = "de"  # the refusal speaks the picker's language
        refused = await pick(ann, sim.message(lobby_id), "options", ["single_suit"])
        assert refused.ephemeral and refused.response is not None
        with pytest.raises(InvalidOptionsError) as service_said:
            check_options(Options(single_suit=True), 5)
        german = refusal_text(service_said.value, t=texts("de"))
        assert refused.response.content == german
        assert german != refusal_text(service_said.value, t=texts("en"))

        game = await sim.service.get_game(info.id)
        assert game.options == Options()
        lobby = sim.message(lobby_id)
        assert "**Variants:** none (the classic game)" in lobby_text(lobby)
        assert picked(selects(lobby)["options"]) == []


@pytest.mark.parametrize("language", ["en", "de", "it", "es", "pt", "ca"])
def test_a_full_lobby_with_its_selects_fits_discord_s_limits(language: str) -> None:
    """Six seats (five computers, each with its level button), the seat-taking switch and
    both selects: five rows at most, a select alone in its row, every label and custom id
    within Discord's limits, the selects in the server's language."""
    t = texts(language)
    options = Options(bidding=Bidding.SECRET, magic_twos=True, clairvoyance=True)
    view = lobby_view(
        MAX_ID,
        MAX_ID,
        t=t,
        players=6,
        computers=[(seat, f"Computer {seat}", "normal") for seat in range(1, 6)],
        seat_taking=True,
        options=options,
        turn_seconds=45,
    )
    rows = [row["components"] for row in view.to_components()]
    assert len(rows) <= 5
    for row in rows:
        assert len(row) == 1 if any(c["type"] == 3 for c in row) else len(row) <= 5
        assert all(len(c["custom_id"]) <= 100 for c in row)
    shown = selects(SimpleNamespace(components=view.to_components()))
    variants, timer = shown["options"], shown["timer"]
    assert sorted(picked(variants)) == ["clairvoyance", "magic_twos", "secret"]
    assert variants["max_values"] == len(variants["options"]) and variants["min_values"] == 0
    assert picked(timer) == ["45"]  # a limit of the command's own is offered too
    for select in (variants, timer):
        assert len(select["options"]) <= 25
        assert all(0 < len(o["label"]) <= 100 for o in select["options"])
    labels = {o["value"]: o["label"] for o in [*variants["options"], *timer["options"]]}
    assert labels["secret"] == t("secret bids") and labels["0"] == t("no turn timer")
    if language != "en":
        assert labels["magic_twos"] != "magic twos" and labels["0"] != "no turn timer"
    # Each variant says what it does under its name (variants QA: "Canadian rule" and
    # "clairvoyance" alone meant nothing to a player who had not read /wizard rules).
    about = {o["value"]: o.get("description", "") for o in variants["options"]}
    assert all(0 < len(text) <= 100 for text in about.values()), about
    assert len(set(about.values())) == len(about)
    if language == "en":
        assert about["canadian"] == (
            "Last round: the only top scorer, bidding last, may not make the bids add up"
        )
    else:
        assert about["canadian"] != texts("en")(VARIANT_ABOUT["canadian"].message)


@pytest.mark.parametrize("computers", [0, 1, 5])
def test_the_two_selects_are_the_lobby_s_last_rows_whatever_it_holds(computers: int) -> None:
    """QA: discord.py placed the selects itself (a select wrapped in a restart-proof item
    lost its row), so the two menus were split by a row of buttons and jumped down once a
    computer was added. They are the last two rows, variants above the timer."""
    view = lobby_view(
        7,
        3,
        t=texts("en"),
        players=1 + computers,
        computers=[(seat, f"Computer {seat}", "normal") for seat in range(1, 1 + computers)],
        seat_taking=False,
        options=Options(),
        turn_seconds=300,
    )
    rows = view.to_components()
    kinds = [[str(c["custom_id"]).split(":")[2] for c in row["components"]] for row in rows]
    assert kinds[-2:] == [["options"], ["timer"]], kinds
    assert all(c["type"] == 2 for row in rows[:-2] for c in row["components"]), kinds


def test_a_select_s_id_stays_the_same_as_the_lobby_changes() -> None:
    """QA: a join while the host was picking variants changed the menus' ids, and Discord
    answers a pick from a menu no longer on the message with "This interaction failed". A
    pick is the whole choice, so the menus' ids do not follow the lobby's version."""

    def ids(version: int) -> dict[str, str]:
        view = lobby_view(7, version, t=texts("en"), players=2, options=Options())
        return {verb: str(s["custom_id"]) for verb, s in selects(view_message(view)).items()}

    assert ids(3) == ids(4)


def view_message(view: Any) -> Any:
    return SimpleNamespace(components=view.to_components())


async def test_a_pick_whose_answer_discord_refuses_says_what_it_saved(
    tmp_path: Path,
) -> None:
    """QA: when Discord refused the lobby's redraw, a menu pick was told a bare "✅"; a
    button says what it did. The pick says what is saved now."""
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        await sim.new_game(ann)
        lobby_id = sim.raw()[-1].id
        sim.env.inject_error("POST", CALLBACK, status=500, times=1)
        chose = await pick(ann, sim.message(lobby_id), "options", ["magic_twos"])
        assert chose.response is not None
        assert chose.response.content == "✅ **Variants:** magic twos"
        sim.env.inject_error("POST", CALLBACK, status=500, times=1)
        timed = await pick(ann, sim.message(lobby_id), "timer", ["60"])
        assert timed.response is not None
        assert timed.response.content == "✅ **Timer:** 1 minute per turn"
