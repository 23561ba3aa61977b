"""Whole games for 3, 4 and 6 people, played only by slash commands and clicks, from
``/wizard new`` to the final standings, with the secrecy of hands and bids checked after
every click and the final scores checked against a replay of the attached record."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.bot.conftest import Sim, buttons, record_file, simulation, verb_of
from wizard.cards import Card
from wizard.options import Bidding, Options
from wizard.record import GameRecord, load
from wizard.service import GameStatus, TableView

pytestmark = pytest.mark.usefixtures("fast_settle")

CARD = re.compile(r"(?:🟦|🟥|🟩|🟨)([BRGY](?:1[0-3]|[1-9]))(?![0-9])")
BID_CELL = re.compile(r"· bid\s([^·]+) ·")  # a no-break space


def stored_text(stored: Any) -> str:
    """Everything a stored message shows (content and embeds), as one string."""
    parts = [stored.content]
    for embed in stored.embeds:
        parts += [embed.get("title", ""), embed.get("description", "")]
        parts += [embed.get("footer", {}).get("text", "")]
        for f in embed.get("fields", []):
            parts += [f.get("name", ""), f.get("value", "")]
    return "\n".join(parts)


def revealed(table: TableView) -> bool:
    bidding = table.options.bidding
    if bidding is Bidding.OPEN:
        return True
    if bidding is Bidding.HIDDEN:
        return all(table.has_bid)
    return False  # secret bids are revealed only in the round summary


@dataclass
class Snapshot:
    round: int
    plays: int
    """Cards played so far in this round."""
    shown: set[str]


@dataclass
class Watch:
    """Checks, after every click, what the public channel shows."""

    sim: Sim
    game_id: int
    snapshots: list[Snapshot] = field(default_factory=list)
    marks_seen: set[str] = field(default_factory=set)
    bids_checked: int = 0

    async def __call__(self) -> None:
        info = await self.sim.service.get_game(self.game_id)
        table = info.table
        if table is None or info.status is not GameStatus.ACTIVE:
            return
        public = self.sim.raw()
        shown: set[str] = set()
        for stored in public:
            shown |= set(CARD.findall(stored_text(stored)))
        plays = sum(table.tricks) * len(table.players) + len(table.trick)
        self.snapshots.append(Snapshot(table.round, plays, shown))
        # No bid may show on the table before it is revealed (R7.2, R7.3).
        current = [m for m in public if m.id == info.table_message_id]
        assert len(current) == 1
        cells = BID_CELL.findall(stored_text(current[0]))
        assert len(cells) == len(table.players)
        if not revealed(table):
            self.bids_checked += 1
            for cell in cells:
                assert cell in ("—", "✔\u00a0hidden", "🔒\u00a0secret"), cells
                self.marks_seen.add(cell)

    def check_cards(self, record: GameRecord) -> None:
        """Every suited card ever shown publicly had been turned up or played by then."""
        assert self.snapshots
        for snap in self.snapshots:
            allowed: set[str] = set()
            for number, rnd in enumerate(record.rounds, start=1):
                if number > snap.round:
                    break
                if rnd.turned is not None:
                    allowed.add(rnd.turned)
                plays = rnd.plays if number < snap.round else rnd.plays[: snap.plays]
                allowed |= set(plays)
            leaked = snap.shown - allowed
            assert not leaked, f"round {snap.round}, {snap.plays} plays: {sorted(leaked)}"


def check_hands_are_private(sim: Sim) -> None:
    """Each hand message is visible to its owner only."""
    public = {m.id for m in sim.raw()}
    for member in sim.members:
        theirs = sim.all_hands.get(member.id, set())
        visible = {m.id for m in sim.raw(viewer=member)}
        assert theirs <= visible
        assert not theirs & public
        for other in sim.members:
            if other is not member:
                assert not sim.all_hands.get(other.id, set()) & visible


async def full_game(
    tmp_path: Path, players: int, options: dict[str, Any], rng_seed: int
) -> tuple[Sim, Watch, GameRecord, list[int]]:
    async with simulation(tmp_path, members=players) as sim:
        host, *others = sim.members
        info = await sim.lobby(host, others, **options)
        assert [s.user_id for s in info.seats] == [m.id for m in sim.members]
        watch = Watch(sim, info.id)
        await watch()
        end = await sim.play(info.id, random.Random(rng_seed), step=watch)
        assert end.status is GameStatus.FINISHED
        message, scores = await sim.final_standings(info.id)
        record = load((await record_file(message).read()).decode())
        watch.check_cards(record)
        check_hands_are_private(sim)
        # Every player opened their hand once: it then kept itself up to date.
        assert all(len(sim.all_hands[m.id]) == 1 for m in sim.members)
        assert not sim.env.errors
        return sim, watch, record, scores


async def test_three_players_open_bids_uneven_canadian_magic_twos(tmp_path: Path) -> None:
    options = {"uneven_bids": True, "canadian": True, "magic_twos": True, "bidding": "open"}
    _, watch, record, _ = await full_game(tmp_path, 3, options, rng_seed=3)
    assert record.options == Options(uneven_bids=True, canadian=True, magic_twos=True)
    assert len(record.rounds) == 20
    assert watch.bids_checked == 0  # open bids: nothing to hide


async def test_four_players_hidden_bids_and_clairvoyance(tmp_path: Path) -> None:
    options = {"bidding": "hidden", "clairvoyance": True}
    _, watch, record, _ = await full_game(tmp_path, 4, options, rng_seed=4)
    assert record.options == Options(bidding=Bidding.HIDDEN, clairvoyance=True)
    assert len(record.rounds) == 15
    assert watch.bids_checked > 0 and "✔\u00a0hidden" in watch.marks_seen


async def test_six_players_secret_bids(tmp_path: Path) -> None:
    _, watch, record, _ = await full_game(tmp_path, 6, {"bidding": "secret"}, rng_seed=6)
    assert record.options == Options(bidding=Bidding.SECRET)
    assert len(record.rounds) == 10
    assert watch.bids_checked > 0 and "🔒\u00a0secret" in watch.marks_seen


async def test_standings_without_a_picture_show_the_scorepad_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> bytes:
        raise OSError("no picture today")

    monkeypatch.setattr("bot.features.summaries.scorepad_png", broken)
    async with simulation(tmp_path, members=1) as sim:
        [ann] = sim.members
        info = await sim.lobby(ann, [], computers=2)
        end = await sim.play(info.id, random.Random(9))
        assert end.status is GameStatus.FINISHED
        [final] = [m for m in sim.public() if m.content.startswith(f"🏁 **Game {info.id} is over")]
        assert [a.filename for a in final.attachments] == [f"wizard-game-{info.id}.json"]
        load((await record_file(final).read()).decode())
        text = final.embeds[0].description or ""
        fives = "(?:[✅❌]{5} ){3}[✅❌]{5}"  # the rounds, as text, in groups of five
        assert "**Rounds**" in text and re.search(fives, text)
        assert not final.embeds[0].image


def test_card_pattern_reads_rendered_cards() -> None:
    from bot.i18n import card_text, texts

    cards = (Card.parse(c) for c in ("B1", "R13", "G10", "Y7"))
    text = " ".join(card_text(card, t=texts("en")) for card in cards) + " 🧙Z 🃏N"
    assert CARD.findall(text) == ["B1", "R13", "G10", "Y7"]
    assert buttons is not None and verb_of({"custom_id": "wiz:1:play:B7:3"}) == "play"
