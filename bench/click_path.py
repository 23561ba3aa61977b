"""Which files of ``bot/`` and ``wizard/service/`` one Bid click passes through.

    python bench/click_path.py           # a bid on the private hand (hidden bids)
    python bench/click_path.py --table   # an open bid on the table (open bidding)

A 3-player game of people under hidden bidding (so the bid is clicked on the private hand)
runs in SimCord with the real bot and service (SQLite in a temporary directory). ann opens
her hand and clicks a bid; every Python function called from the interaction's arrival to
the moment SimCord has settled (the click's response, the table edit and the other hands'
redraws: the last REST call) is recorded with ``sys.setprofile``, and the files they live in
are printed, with the service reads the bot makes after the service's answer. With
``--table`` the game is under open bidding and the first bidder clicks a bid on the table
(every player has their hand open, so the other hands' redraws are traced too).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if sys.path and Path(sys.path[0]).resolve() == ROOT / "bench":
    sys.path[0] = str(ROOT)

from tests.bot.conftest import buttons, is_bid_button, simulation  # noqa: E402

READS = ("get_game", "seat_view", "get_settings", "game_in_channel", "player_view")


async def main(on_table: bool) -> None:
    """Play to the first bid, trace that click, print the files."""
    with tempfile.TemporaryDirectory() as tmp:
        async with simulation(Path(tmp), members=3) as sim:
            ann, bob, cy = sim.members
            info = await sim.lobby(ann, [bob, cy], bidding="open" if on_table else "hidden")
            if on_table:
                for member in sim.members:
                    await sim.open_hand(member)
                [clicker] = await sim.to_act(info.id)
                clicked = sim.table_of(info)
                where = "on the table (3 people, open bids, every hand open)"
            else:
                clicker, clicked = ann, await sim.open_hand(ann)
                where = "on a hand (3 people, hidden bids)"
            bids = [b for b in buttons(clicked) if is_bid_button(b) and not b.get("disabled")]
            assert bids, f"{clicker.name} is offered no bid"
            files: Counter[str] = Counter()
            reads: list[str] = []
            acted = False

            def profile(frame: FrameType, event: str, arg: Any) -> None:
                nonlocal acted
                if event != "call":
                    return
                path = Path(frame.f_code.co_filename)
                try:
                    rel = path.resolve().relative_to(ROOT)
                except ValueError:
                    return
                top = rel.parts[0]
                if top == "bot" or rel.parts[:2] == ("wizard", "service"):
                    files[str(rel)] += 1
                name = frame.f_code.co_name
                if rel.parts[:2] == ("wizard", "service") and name == "act":
                    acted = True
                elif acted and rel.parts[:2] == ("wizard", "service") and name in READS:
                    # A read by the bot (the service reading its own settings while it
                    # makes the update is no re-read of what the update carries).
                    caller = frame.f_back
                    if caller is not None and "/bot/" in caller.f_code.co_filename:
                        reads.append(name)

            sys.setprofile(profile)
            try:
                result = await clicker.click(clicked, custom_id=bids[0]["custom_id"])
            finally:
                sys.setprofile(None)
            assert result.acknowledged
            bot_files = sorted(f for f in files if f.startswith("bot/"))
            service_files = sorted(f for f in files if f.startswith("wizard/"))
            print(f"game {info.id}: one Bid click {where}")
            print(f"bot/ files: {len(bot_files)}")
            for f in bot_files:
                print(f"    {f}")
            print(f"wizard/service/ files: {len(service_files)}")
            for f in service_files:
                print(f"    {f}")
            print(f"in all: {len(bot_files) + len(service_files)}")
            counted = f"{len(reads)} {Counter(reads)}"
            print(f"service reads by the bot after the service's answer: {counted}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="store_true", help="an open bid on the table")
    asyncio.run(main(parser.parse_args().table))
