"""Computer levels (issue 11): ``normal`` by default, the stored old default ``random``
migrated to ``normal`` (migration 7), a lobby's own level and a computer's level in a lobby."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from wizard.service import (
    GameService,
    GuildSettings,
    InvalidSettingsError,
    ServiceConfig,
    VirtualClock,
)
from wizard.store import LATEST

from .conftest import CHANNEL, GUILD


def test_new_servers_get_normal() -> None:
    assert GuildSettings().computer_level == "normal"
    assert "random" not in GuildSettings.USER_LEVELS
    assert GuildSettings(computer_level="random").computer_level == "random"  # tests, benches


async def test_migration_moves_stored_random_to_normal_and_keeps_chosen_levels(
    db_path: Path,
) -> None:
    clock = VirtualClock()
    config = ServiceConfig(computer_delay=0.0)
    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        await svc.update_settings(GUILD, computer_level="random", max_timeouts=3)
        await svc.update_settings(GUILD + 1, computer_level="easy")
        await svc.update_settings(GUILD + 2, computer_level="hard")
        game = await svc.create_game(
            guild_id=GUILD, channel_id=CHANNEL, host_id=1, host_name="P1", seed=3
        )
    finally:
        await svc.close()
    # The schema and rows as migration 6 left them.
    conn = sqlite3.connect(db_path)
    try:
        conn.executescript(
            # Migrations 13 (an index of seat_holders, dropped with it), 12, 11 (open hands),
            # 10 (lobby removals), 9 (the reminder) and 8 (seat taking and hints) undone
            # first, then 7.
            "ALTER TABLE games DROP COLUMN announced;"
            " DROP TABLE open_hands;"
            " DROP TABLE lobby_removals;"
            " ALTER TABLE games DROP COLUMN ping_message_id;"
            " DROP TABLE seat_holders;"
            " ALTER TABLE games DROP COLUMN allow_seat_taking;"
            " ALTER TABLE games DROP COLUMN hints_used;"
            " ALTER TABLE games DROP COLUMN computer_level;"
            " DELETE FROM schema_migrations WHERE version >= 7;"
        )
        conn.commit()
    finally:
        conn.close()
    assert LATEST == 13

    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        moved = await svc.get_settings(GUILD)
        assert moved.computer_level == "normal"
        assert moved.max_timeouts == 3  # the rest of the server's choices stay
        assert (await svc.get_settings(GUILD + 1)).computer_level == "easy"
        assert (await svc.get_settings(GUILD + 2)).computer_level == "hard"
        assert (await svc.get_settings(GUILD + 3)).computer_level == "normal"  # never stored
        info = await svc.get_game(game.id)
        assert info.computer_level is None  # the lobby follows the server
        added = await svc.add_computer(game.id, 1)
        assert added.seats[1].level == "normal"
    finally:
        await svc.close()


async def test_lobby_level_is_stored_and_used_by_add_computer(
    db_path: Path, clock: VirtualClock
) -> None:
    config = ServiceConfig(computer_delay=0.0)
    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        await svc.update_settings(GUILD, computer_level="easy")
        info = await svc.create_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host_id=1,
            host_name="P1",
            seed=5,
            computer_level="hard",
        )
        assert info.computer_level == "hard"
        info = await svc.add_computer(info.id, 1)
        assert info.seats[1].level == "hard"
        info = await svc.set_computer_level(info.id, 1, "normal")
        info = await svc.add_computer(info.id, 1)
        assert [s.level for s in info.seats] == [None, "hard", "normal"]
        info = await svc.set_computer_level(info.id, 1, "easy", seat=1)
        assert [s.level for s in info.seats] == [None, "easy", "normal"]
    finally:
        await svc.close()
    svc = await GameService.open(db_path, clock=clock, config=config)
    try:
        again = await svc.get_game(info.id)
        assert again.computer_level == "normal"
        assert [s.level for s in again.seats] == [None, "easy", "normal"]
    finally:
        await svc.close()


async def test_level_changes_are_refused_when_wrong(service: GameService) -> None:
    info = await service.create_game(guild_id=GUILD, channel_id=CHANNEL, host_id=1, host_name="P1")
    await service.join(info.id, 2, "P2")
    with pytest.raises(InvalidSettingsError):
        await service.set_computer_level(info.id, 1, "genius")
    with pytest.raises(InvalidSettingsError):
        await service.create_game(
            guild_id=GUILD, channel_id=CHANNEL + 1, host_id=1, host_name="P1", computer_level="x"
        )
    with pytest.raises(Exception) as not_host:
        await service.set_computer_level(info.id, 2, "easy")
    assert getattr(not_host.value, "code", "") == "not_host"
    with pytest.raises(Exception) as not_computer:
        await service.set_computer_level(info.id, 1, "easy", seat=1)  # a person's seat
    assert getattr(not_computer.value, "code", "") == "seat_not_found"


def test_the_store_checks_levels_without_loading_the_computer_players() -> None:
    """Stored rows are validated against :mod:`wizard.levels`; the store does not import the
    players (:mod:`wizard.ai`) to learn their names."""
    check = "import sys, wizard.store.models; sys.exit('wizard.ai' in sys.modules)"
    root = Path(__file__).parents[2]
    assert subprocess.run([sys.executable, "-c", check], check=False, cwd=root).returncode == 0
