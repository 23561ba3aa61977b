"""Lobby life: joining, leaving, hosts, computers, kicks, settings, message ids."""

from __future__ import annotations

from pathlib import Path

import pytest

from wizard.options import Options
from wizard.service import (
    ChannelBusyError,
    GameService,
    GameStatus,
    InvalidSettingsError,
    LobbyFullError,
    MakeBid,
    NotHostError,
    NotSeatedError,
    SeatTakenBack,
    ServiceConfig,
    TurnChanged,
    VirtualClock,
)

from .conftest import CHANNEL, GUILD, new_game


async def test_join_leave_and_the_host_role(service: GameService) -> None:
    game_id = await new_game(service, 1, 0)
    assert (await service.game_in_channel(CHANNEL)).id == game_id  # type: ignore[union-attr]
    info = await service.join(game_id, 2, "Ann")
    info = await service.join(game_id, 3, "Ann")  # same display name: told apart
    assert [s.name for s in info.seats] == ["P1", "Ann", "Ann (2)"]
    v = info.version
    info = await service.leave(game_id, 2)
    assert [(s.seat, s.user_id) for s in info.seats] == [(0, 1), (1, 3)]
    assert info.version == v + 1
    info = await service.leave(game_id, 1)  # the host leaves: the next player hosts
    assert info.host_id == 3 and [s.user_id for s in info.seats] == [3]
    info = await service.add_computer(game_id, 3)
    info = await service.leave(game_id, 3)  # the last person leaves: the lobby closes
    assert info.status is GameStatus.CANCELLED
    assert await service.game_in_channel(CHANNEL) is None


async def test_computers_kicks_and_removals(service: GameService) -> None:
    game_id = await new_game(service, 3, 2)
    info = await service.get_game(game_id)
    assert [s.name for s in info.seats][3:] == ["Merlin", "Morgana"]
    assert all(s.is_computer and s.level == "normal" for s in info.seats[3:])
    info = await service.remove_seat(game_id, 1, 3)
    assert [s.name for s in info.seats] == ["P1", "P2", "P3", "Morgana"]
    info = await service.kick(game_id, 2, 3, is_manager=True)
    assert [s.user_id for s in info.seats] == [1, 2, None]
    with pytest.raises(NotSeatedError, match="removed from this lobby"):
        await service.join(game_id, 3, "P3")
    await service.join(game_id, 4, "P4")
    await service.start(game_id, 1)
    # In a running game a kick hands the seat to a computer for good.
    info = await service.kick(game_id, 1, 2)
    assert info.seats[1].away and info.seats[1].kicked
    with pytest.raises(NotSeatedError, match="removed"):
        await service.take_back(game_id, 2)
    with pytest.raises(NotSeatedError, match="removed"):
        await service.act(game_id, 2, MakeBid(0), None)
    with pytest.raises(NotSeatedError, match="removed"):  # the seat's cards are not theirs
        await service.seat_view(game_id, 2)


async def test_a_person_joining_a_full_lobby_takes_a_computer_s_seat_if_the_host_lets_them(
    service: GameService,
) -> None:
    # QA: a lobby the host had filled with computers told a friend who came to play "This
    # game is full". Where the host lets people take computer seats, the friend takes the
    # last computer's seat, and nobody else's seat moves; else the lobby is full (review:
    # "me against five computers" must not lose one to a passer-by).
    game_id = await new_game(service, 2, 4)
    info = await service.get_game(game_id)
    assert [s.name for s in info.seats] == ["P1", "P2", "Merlin", "Morgana", "Nimue", "Taliesin"]
    with pytest.raises(LobbyFullError, match="6 players"):
        await service.join(game_id, 3, "P3")
    await service.set_seat_taking(game_id, 1, True)
    info = await service.join(game_id, 3, "P3")
    assert [s.name for s in info.seats] == ["P1", "P2", "Merlin", "Morgana", "Nimue", "P3"]
    assert [s.seat for s in info.seats] == list(range(6))
    for user in (4, 5, 6):
        info = await service.join(game_id, user, f"P{user}")
    assert [s.user_id for s in info.seats] == [1, 2, 6, 5, 4, 3]
    with pytest.raises(LobbyFullError, match="6 players"):  # people only: full
        await service.join(game_id, 7, "P7")


async def test_leaving_a_running_game_and_coming_back(service: GameService) -> None:
    game_id = await new_game(service, 3, 0, seed=51)
    await service.start(game_id, 1)
    info = await service.leave(game_id, 2)
    assert info.seats[1].away and not info.seats[1].kicked and info.seats[1].level == "normal"
    assert info.status is GameStatus.ACTIVE
    # The computer plays the seat whenever it is its turn.
    moved = False
    for _ in range(10):
        updates = await service.run_computer_turns(game_id)
        moved = moved or any(u.seat == 1 for u in updates)
        table = (await service.get_game(game_id)).table
        assert table is not None and 1 not in table.to_act
        seat = table.to_act[0]
        sv = await service.seat_view(game_id, seat + 1)
        await service.act(game_id, seat + 1, sv.view.legal[0], sv.version)
    assert moved
    back = await service.take_back(game_id, 2)
    assert back.events[0] == SeatTakenBack(1)
    assert isinstance(back.events[-1], TurnChanged)
    assert not (await service.get_game(game_id)).seats[1].away


async def test_acting_while_away_takes_the_seat_back(service: GameService) -> None:
    game_id = await new_game(service, 3, 0, seed=52)
    await service.start(game_id, 1)
    table = (await service.get_game(game_id)).table
    assert table is not None
    seat = table.to_act[0]
    info = await service.leave(game_id, seat + 1)
    sv = await service.seat_view(game_id, seat + 1)
    assert sv.away
    update = await service.act(game_id, seat + 1, sv.view.legal[0], sv.version)
    assert update.events[0] == SeatTakenBack(seat)
    assert not (await service.get_game(game_id)).seats[seat].away
    assert info.seats[seat].away


async def test_settings_persist_and_apply(db_path: Path) -> None:
    clock = VirtualClock()
    svc = await GameService.open(db_path, clock=clock, config=ServiceConfig(computer_delay=0))
    try:
        assert (await svc.get_settings(GUILD)).games_per_channel == 1
        settings = await svc.update_settings(
            GUILD,
            games_per_channel=2,
            turn_seconds=45,
            default_options=Options(magic_twos=True),
        )
        assert settings.turn_seconds == 45
        first = await new_game(svc, 3, 0, seed=1)
        second = await new_game(svc, 3, 0, seed=2)  # two games allowed in the channel now
        with pytest.raises(ChannelBusyError, match="2 open games"):
            await new_game(svc, 3, 0, seed=3)
        info = await svc.get_game(second)
        assert info.options.magic_twos and info.turn_seconds == 45
        started = await svc.start(first, 1)
        turn = started.events[-1]
        assert isinstance(turn, TurnChanged) and turn.deadline == clock.now() + 45
        await svc.set_message_ids(first, lobby_message_id=111, table_message_id=222)
        assert (await svc.get_game(first)).version == started.version
        assert [g.id for g in await svc.games_in_channel(CHANNEL)] == [first, second]
    finally:
        await svc.close()
    svc = await GameService.open(db_path, clock=clock)
    try:
        assert (await svc.get_settings(GUILD)).games_per_channel == 2
        info = await svc.get_game(first)
        assert (info.lobby_message_id, info.table_message_id) == (111, 222)
        assert info.deadline == clock.now() + 45
    finally:
        await svc.close()


async def test_the_host_sets_the_turn_timer_of_a_lobby(db_path: Path) -> None:
    """set_turn_timer stores the limit (a new version) for the game the lobby starts."""
    service = await GameService.open(db_path, clock=VirtualClock())
    try:
        game_id = await new_game(service, 3, 0)
        before = await service.get_game(game_id)
        with pytest.raises(NotHostError):
            await service.set_turn_timer(game_id, 2, 30)
        info = await service.set_turn_timer(game_id, 1, 30)
        assert (info.turn_seconds, info.version) == (30.0, before.version + 1)
        await service.start(game_id, 1)
        info = await service.get_game(game_id)
        assert info.turn_seconds == 30.0 and info.deadline is not None  # the turns are timed
    finally:
        await service.close()
    again = await GameService.open(db_path, clock=VirtualClock())
    try:
        assert (await again.get_game(game_id)).turn_seconds == 30.0  # stored, not just in memory
    finally:
        await again.close()


async def test_a_server_speaks_its_discord_language_until_it_saves_one(db_path: Path) -> None:
    """A server's public language follows the one it speaks on Discord (its preferred locale)
    until a manager saves settings; a saved language stays, whatever Discord says later."""
    svc = await GameService.open(db_path, clock=VirtualClock())
    try:
        assert (await svc.get_settings(GUILD)).language == "en"
        svc.set_home_language(GUILD, "de")
        assert (await svc.get_settings(GUILD)).language == "de"  # the cached default follows
        svc.set_home_language(GUILD, "xx")  # a language without a catalogue is ignored
        assert (await svc.get_settings(GUILD)).language == "de"
        saved = await svc.update_settings(GUILD, turn_seconds=60)
        assert saved.language == "de"  # what the manager saw is what is saved
        svc.set_home_language(GUILD, "it")
        assert (await svc.get_settings(GUILD)).language == "de"
    finally:
        await svc.close()
    svc = await GameService.open(db_path, clock=VirtualClock())
    try:
        svc.set_home_language(GUILD, "es")
        assert (await svc.get_settings(GUILD)).language == "de"
    finally:
        await svc.close()


async def test_a_player_removed_from_a_lobby_cannot_join_it_again(
    service: GameService, db_path: Path
) -> None:
    """QA: a player the host removed pressed Join at once and was seated again; the host had
    to remove them a second time. A removal holds for that lobby, also across a restart;
    one who left by themself may come back, and other lobbies are open to them."""
    game_id = await new_game(service, 2, 0)
    await service.kick(game_id, 1, 2)
    with pytest.raises(NotSeatedError) as refused:
        await service.join(game_id, 2, "P2")
    assert refused.value.params["reason"] == "removed_from_lobby"
    assert "removed from this lobby" in refused.value.message
    await service.join(game_id, 3, "P3")
    await service.leave(game_id, 3)  # leaving is no removal
    await service.join(game_id, 3, "P3")
    await service.close()
    again = await GameService.open(db_path, config=ServiceConfig(computer_delay=0.0))
    try:
        with pytest.raises(NotSeatedError):
            await again.join(game_id, 2, "P2")
        await again.cancel(game_id, 1)
        other = (
            await again.create_game(guild_id=GUILD, channel_id=CHANNEL, host_id=3, host_name="P3")
        ).id
        info = await again.join(other, 2, "P2")
        assert [s.user_id for s in info.seats] == [3, 2]
    finally:
        await again.close()


async def test_a_lobby_can_open_with_its_computers_seated_in_one_write(
    service: GameService,
) -> None:
    """A rematch's lobby: its computers were added one call after the other, and a player
    joining in between took a seat among them (seen on a loaded CI machine)."""
    info = await service.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=1,
        host_name="P1",
        computers=["easy", "hard"],
    )
    assert [(s.user_id, s.name, s.level) for s in info.seats] == [
        (1, "P1", None),
        (None, "Merlin", "easy"),
        (None, "Morgana", "hard"),
    ]
    assert info.version == 1
    info = await service.join(info.id, 2, "P2")
    assert [s.user_id for s in info.seats] == [1, None, None, 2]
    with pytest.raises(InvalidSettingsError):
        await service.create_game(
            guild_id=GUILD, channel_id=CHANNEL + 1, host_id=1, host_name="P1", computers=["wise"]
        )
    with pytest.raises(LobbyFullError):
        await service.create_game(
            guild_id=GUILD,
            channel_id=CHANNEL + 1,
            host_id=1,
            host_name="P1",
            computers=["easy"] * 6,
        )
    assert await service.game_in_channel(CHANNEL + 1) is None


async def test_a_rematch_keeps_its_computers_names(service: GameService) -> None:
    """QA: game 1 ended with the computer Morgana (someone had taken Merlin's seat over); its
    rematch, "same options and computers", seated a Merlin."""
    info = await service.create_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=1,
        host_name="Nimue",
        computers=["easy", "normal", "hard"],
        computer_names=["Morgana", "Nimue", ""],
    )
    # A name the host has, or none, is given as a new computer's would be.
    assert [(s.name, s.level) for s in info.seats] == [
        ("Nimue", None),
        ("Morgana", "easy"),
        ("Merlin", "normal"),
        ("Taliesin", "hard"),
    ]


async def test_the_host_removes_the_last_computer_once_per_click(service: GameService) -> None:
    # QA: a host who added one computer too many could not remove it from Discord: the
    # lobby's button removes the last one, and carries the count it leaves (a double click,
    # or two hosts' clicks at once, remove one).
    game_id = await new_game(service, 1, 2)
    await service.join(game_id, 2, "P2")  # a person seated after the computers stays
    info = await service.remove_computer(game_id, 1, keep=1)
    assert [s.name for s in info.seats] == ["P1", "Merlin", "P2"]
    again = await service.remove_computer(game_id, 1, keep=1)
    assert [s.name for s in again.seats] == ["P1", "Merlin", "P2"]
    assert again.version == info.version  # nothing changed, nothing redrawn
    with pytest.raises(NotHostError):
        await service.remove_computer(game_id, 2, keep=0)
    info = await service.remove_computer(game_id, 2, keep=0, is_manager=True)
    assert [s.name for s in info.seats] == ["P1", "P2"]


async def test_a_name_too_long_is_cut_with_an_ellipsis(service: GameService) -> None:
    """QA (es): a 50-character nickname was stored cut at 32 characters with nothing to say
    so, and read on the boards as another person than the whole name on /wizard stats."""
    game_id = await new_game(service, 1, 0)
    long = "Zauberlehrling der Großen Dracheninsel 🐉"
    info = await service.join(game_id, 2, long)
    name = info.seats[1].name
    assert name == "Zauberlehrling der Großen Drach…" and len(name) == 32
    exact = "x" * 32  # exactly the limit: kept whole
    info = await service.join(game_id, 3, exact)
    assert info.seats[2].name == exact
    info = await service.join(game_id, 4, "Someone with a name ending in a space  here and on")
    assert info.seats[3].name == "Someone with a name ending in a…"
