"""What an operator meets following the README: every refusal says what is wrong and what
to do, names the right file, and never sends them in a circle.

Real ``python -m bot`` processes on real files under ``tmp_path``.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.exits import EXIT_DAMAGED_GAMES, EXIT_DATABASE, EXIT_OK, EXIT_SETTINGS
from tests.ops_support import (
    FAKE_TOKEN,
    PROCESS_TIMEOUT,
    assert_one_line_failure,
    clean_env,
    damage_games_table,
    free_port,
    log_left_at,
    make_database,
    make_future_schema,
    run_bot,
    run_bot_against,
    sqlite_file,
)


def _verdict(stdout: str) -> str:
    """The last line of ``check``'s report."""
    return stdout.strip().splitlines()[-1]


def test_check_of_an_empty_file_says_why_it_is_not_healthy_and_what_to_do(
    tmp_path: Path,
) -> None:
    db = tmp_path / "wizard.db"
    db.touch()  # e.g. a failed copy, or `touch` of the wrong name
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DATABASE, result.stderr
    verdict = _verdict(result.stdout)
    assert verdict.startswith("NOT healthy: ")
    assert "no database of this bot" in verdict
    assert "python -m bot restore" in verdict
    # Not the start-up log's "python -m bot check tries every one", to one running it.
    assert "damaged games: none (no database of this bot)" in result.stdout.splitlines()


def test_check_of_a_sqlite_file_with_no_tables_asks_whether_the_path_is_right(
    tmp_path: Path,
) -> None:
    db = tmp_path / "wrong.db"
    sqlite_file(db)
    assert db.stat().st_size > 0
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DATABASE, result.stdout + result.stderr
    verdict = _verdict(result.stdout)
    assert verdict.startswith("NOT healthy: the file holds no tables, so no database of this")
    assert "is DATABASE_PATH (or --db) right?" in verdict


def test_check_of_another_programs_database_names_its_tables(tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    sqlite_file(db, "notes", "tags")
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DATABASE, result.stdout + result.stderr
    verdict = _verdict(result.stdout)
    assert "holds tables (notes, tags) but no database of this bot" in verdict
    assert "is DATABASE_PATH (or --db) right?" in verdict
    # Operator QA: it offered a restore over this file, which restore refuses.
    assert "restore" not in verdict, verdict
    assert "a path of its own" in verdict, verdict


def test_check_of_another_programs_database_with_a_games_table_asks_about_the_path(
    tmp_path: Path,
) -> None:
    # Operator QA: its own "games" table made check fail on "no such column: status" and
    # send the operator to check.
    db = tmp_path / "other.db"
    sqlite_file(db, "games", "users")
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DATABASE, result.stdout + result.stderr
    verdict = _verdict(result.stdout)
    assert "holds tables (games, users) but no database of this bot" in verdict, verdict
    assert "is DATABASE_PATH (or --db) right?" in verdict


def test_check_of_a_newer_schema_says_what_to_do(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db)
    make_future_schema(db)
    verdict = _verdict(run_bot("check", "--db", str(db), cwd=tmp_path).stdout)
    assert "newer version" in verdict
    assert "python -m bot restore" in verdict


def test_check_of_a_file_that_is_no_database_does_not_send_back_to_check(
    tmp_path: Path,
) -> None:
    db = tmp_path / "wizard.db"
    db.write_text("hello " * 1000, encoding="utf-8")
    line = assert_one_line_failure(run_bot("check", "--db", str(db), cwd=tmp_path), EXIT_DATABASE)
    assert "python -m bot check" not in line
    assert "python -m bot restore" in line


@pytest.mark.parametrize("command", ["check", "backup", "restore"])
def test_a_database_path_that_is_a_folder_is_said_to_be_one(tmp_path: Path, command: str) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    copy = tmp_path / "copy.db"
    make_database(copy)
    args = {"check": [], "backup": [str(tmp_path / "new.db")], "restore": [str(copy)]}[command]
    line = assert_one_line_failure(
        run_bot(command, "--db", str(folder), *args, cwd=tmp_path), EXIT_DATABASE
    )
    assert "is a folder" in line and str(folder / "wizard.db") in line


def test_backup_into_a_folder_that_does_not_exist_is_a_command_line_fault(
    tmp_path: Path,
) -> None:
    # A typo in the folder is refused at once, creating nothing: not a new folder that the
    # next backups go astray into.
    db = tmp_path / "wizard.db"
    make_database(db)
    before = sorted(tmp_path.iterdir())
    for target in (tmp_path / "no" / "such" / "x.db", Path("bakups") / "x.db"):
        result = run_bot("backup", "--db", str(db), str(target), cwd=tmp_path)
        line = assert_one_line_failure(result, EXIT_SETTINGS)
        assert f"the folder {target.parent} does not exist" in line, line
        assert str(target) in line and f"mkdir -p {target.parent})" in line
    # QA: "(mkdir -p sp ace/no such)" made three folders when pasted into a shell.
    target = Path("sp ace") / "no such" / "x.db"
    result = run_bot("backup", "--db", str(db), str(target), cwd=tmp_path)
    line = assert_one_line_failure(result, EXIT_SETTINGS)
    assert "(mkdir -p 'sp ace/no such')" in line, line
    assert sorted(tmp_path.iterdir()) == before


def test_backup_below_a_file_is_a_command_line_fault(tmp_path: Path) -> None:
    """Operator QA: "backup /etc/passwd/x.db" said "[Errno 17] File exists" and to choose a
    folder this user may write to, exit 3, where a missing folder is a clear exit 2."""
    db = tmp_path / "wizard.db"
    make_database(db)
    notes = tmp_path / "notes.txt"
    notes.write_text("keep", encoding="utf-8")
    for target in (notes / "x.db", notes / "deeper" / "x.db"):
        result = run_bot("backup", "--db", str(db), str(target), cwd=tmp_path)
        line = assert_one_line_failure(result, EXIT_SETTINGS)
        assert f"cannot write the backup {target}: {notes} is a file, not a folder" in line
        assert "Errno" not in line and "mkdir" not in line, line
        assert "cannot use the database" not in line  # the database is fine
    assert notes.read_text(encoding="utf-8") == "keep"


def test_restore_from_a_folder_asks_for_the_backup_file(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db)
    backups = tmp_path / "backups"
    backups.mkdir()
    result = run_bot("restore", "--db", str(db), str(backups), cwd=tmp_path)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert f"{backups} is a folder" in line, line
    assert "Give the backup file in it." in line, line


def test_backup_into_a_folder_asks_for_a_file_name(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db)
    folder = tmp_path / "backups"
    folder.mkdir()
    # Named with a trailing slash or without, the same folder gets the same answer.
    for name in (str(folder), f"{folder}{os.sep}"):
        for extra in ([], ["--force"]):
            result = run_bot("backup", "--db", str(db), name, *extra, cwd=tmp_path)
            line = assert_one_line_failure(result, EXIT_DATABASE)
            assert f"{folder} is a folder" in line, line
    assert folder.is_dir()
    assert list(folder.iterdir()) == []


def test_backup_of_a_file_that_holds_no_bot_database_is_refused(tmp_path: Path) -> None:
    # A backup that restore would refuse is no backup: say so now, not on the bad day.
    db = tmp_path / "wizard.db"
    db.touch()
    target = tmp_path / "backup.db"
    line = assert_one_line_failure(
        run_bot("backup", "--db", str(db), str(target), cwd=tmp_path), EXIT_DATABASE
    )
    assert "no database of this bot" in line
    assert not target.exists()


def test_a_database_path_below_a_file_gets_a_real_hint(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder", encoding="utf-8")
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(blocker / "wizard.db"))
    # QA: config passed it, and the bot said "[Errno 17] File exists": now both name the file.
    for args in ([], ["config"]):
        line = assert_one_line_failure(run_bot(*args, cwd=tmp_path, env=env), EXIT_DATABASE)
        assert "see the log above" not in line.lower()
        assert "DATABASE_PATH" in line
        assert f"{blocker} is a file, not a folder" in line, line
        assert "Errno" not in line


def test_a_database_path_that_is_a_folder_exits_3_without_traceback(tmp_path: Path) -> None:
    # DATABASE_PATH=/data instead of /data/wizard.db: a folder, not a file.
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(tmp_path))
    # `config`, asked whether the settings will do, says so too (it printed them first).
    for args in ([], ["demo", "--db", str(tmp_path)], ["config"]):
        line = assert_one_line_failure(run_bot(*args, cwd=tmp_path, env=env), EXIT_DATABASE)
        assert "is a folder" in line, line


def test_a_newer_schema_tells_how_to_restore_as_the_readme_shows(tmp_path: Path) -> None:
    db = tmp_path / "old-copy.db"
    make_database(db)
    make_future_schema(db)
    line = assert_one_line_failure(run_bot("demo", "--db", str(db), cwd=tmp_path), EXIT_DATABASE)
    # The demo's file, named: "restore BACKUP" alone restores DATABASE_PATH's (QA operator).
    assert f"python -m bot restore --db {db} BACKUP" in line


def test_restore_over_a_damaged_database_keeps_it_aside(tmp_path: Path) -> None:
    backup = tmp_path / "backup.db"
    make_database(backup, games=2)
    db = tmp_path / "wizard.db"
    make_database(db, games=40)
    damage_games_table(db)
    damaged = db.read_bytes()
    result = run_bot("restore", "--db", str(db), str(backup), cwd=tmp_path)
    assert result.returncode == EXIT_OK, result.stderr
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("wizard.db.damaged-")]
    assert [p.read_bytes() for p in kept] == [damaged]
    assert kept[0].name in result.stdout  # the operator is told where it went


def test_config_points_out_a_name_in_env_that_the_bot_does_not_read(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        f"DISCORD_TOKEN={FAKE_TOKEN}\nDATABSE_PATH=/srv/wizard.db\n", encoding="utf-8"
    )
    result = run_bot("config", cwd=tmp_path, env=clean_env(WIZARD_ENV_FILE=str(env_file)))
    assert result.returncode == EXIT_OK, result.stderr
    assert "DATABSE_PATH" in result.stdout + result.stderr
    assert "/srv/wizard.db" not in result.stdout + result.stderr  # values are never shown
    assert FAKE_TOKEN not in result.stdout + result.stderr


def test_a_folder_named_env_is_passed_over_with_a_note_by_config_and_at_start(
    tmp_path: Path,
) -> None:
    # A virtual environment is often named .env; Docker makes a folder of a .env it mounts
    # and cannot find. Neither holds settings: the bot reads the environment, and says so.
    folder = tmp_path / ".env"
    folder.mkdir()
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN)
    del env["WIZARD_ENV_FILE"]  # the usual search for .env
    config = run_bot("config", cwd=tmp_path, env=env)
    assert config.returncode == EXIT_OK, config.stderr
    assert "Traceback" not in config.stderr
    note = f"note: {folder} is a folder, not a settings file, and is not read"
    assert note in config.stdout
    started = run_bot_against(f"http://127.0.0.1:{free_port()}/api/v10", tmp_path, env=env)
    assert started.returncode == 4, started.stderr  # on to Discord, out of reach here
    assert "Traceback" not in started.stderr
    assert note in started.stderr  # in the log at start
    del env["DISCORD_TOKEN"]  # told to put it in .env, they are told theirs is a folder
    line = assert_one_line_failure(run_bot(cwd=tmp_path, env=env), EXIT_SETTINGS)
    assert "DISCORD_TOKEN is not set" in line and f"{folder} is a folder" in line


@pytest.mark.parametrize("where", ["environment", ".env"])
def test_no_token_names_a_misspelt_token_variable(tmp_path: Path, where: str) -> None:
    """QA: ``DISCORD_TOKN=abc python -m bot`` said only "DISCORD_TOKEN is not set … set
    DISCORD_TOKEN"; only config's notes asked "did you mean DISCORD_TOKEN?"."""
    if where == ".env":
        (tmp_path / ".env").write_text(f"DISCORD_TOKN={FAKE_TOKEN}\n")
        env = clean_env(WIZARD_ENV_FILE=str(tmp_path / ".env"))
        said = f"{tmp_path / '.env'} sets DISCORD_TOKN"
    else:
        env = clean_env(DISCORD_TOKN=FAKE_TOKEN)
        said = "the environment sets DISCORD_TOKN"
    for args in ([], ["config"]):
        line = assert_one_line_failure(run_bot(*args, cwd=tmp_path, env=env), EXIT_SETTINGS)
        assert "DISCORD_TOKEN is not set" in line, line
        assert f"{said}: did you mean DISCORD_TOKEN?" in line, line
        assert FAKE_TOKEN not in line


def test_check_finds_games_the_bot_could_not_load_without_changing_the_file(
    tmp_path: Path,
) -> None:
    # A game is loaded from its log only when first used: check must not wait for a player
    # to find a damaged one.
    db = tmp_path / "wizard.db"
    make_database(db, games=4)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET options = '{\"bad' WHERE id = 1")
    conn.execute("DELETE FROM seats WHERE game_id = 3")
    conn.execute("UPDATE games SET guild_id = 'abc' WHERE id = 4")  # recovery skips it
    conn.commit()
    conn.close()
    before = db.read_bytes()
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DAMAGED_GAMES, result.stdout + result.stderr
    assert "damaged games: 3" in result.stdout
    assert "game 1: " in result.stdout and "game 3: " in result.stdout
    assert "game 4: " in result.stdout
    assert "game 2: " not in result.stdout
    assert _verdict(result.stdout).startswith("NOT healthy: 3 game")
    assert db.read_bytes() == before


def test_check_lists_damaged_player_rows(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db, games=1)
    conn = sqlite3.connect(db)
    insert = (
        "INSERT INTO players VALUES (1000, ?, 'Ann', 25.0, ?, 0.0, 3, 1, 40, 60, NULL, 9, 4, 0)"
    )
    conn.execute(insert, (1, 8.3))
    conn.execute(insert, (2, -1.0))  # a sigma that is no uncertainty
    conn.commit()
    conn.close()
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DAMAGED_GAMES, result.stdout + result.stderr
    assert "damaged games: 0" in result.stdout
    assert "damaged player rows: 1" in result.stdout
    assert "server 1000, user 2: sigma" in result.stdout
    assert "user 1:" not in result.stdout
    assert _verdict(result.stdout).startswith("NOT healthy: 1 player row")


def test_check_lists_damaged_server_settings(tmp_path: Path) -> None:
    """QA: a server's stored settings that fail validation were ignored at every read (the
    server plays with the defaults) while check said healthy."""
    db = tmp_path / "wizard.db"
    make_database(db, games=1)
    conn = sqlite3.connect(db)
    insert = "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, 0)"
    conn.execute(insert, (1000, '{"turn_seconds": "x"'))  # cut short
    conn.execute(insert, (2000, "{}"))  # every setting at its default: fine
    not_utf8 = "INSERT INTO guild_settings VALUES (3000, CAST(? AS TEXT), 0)"
    conn.execute(not_utf8, (b'{"language": "\xff"}',))  # text, but not UTF-8
    # Operator QA: a setting a newer version saved is kept for it, not damage.
    conn.execute(insert, (4000, '{"turn_seconds": 60, "future_feature": true}'))
    conn.execute(insert, (5000, '{"turn_seconds": 99999, "language": "de", "newer": 1}'))
    conn.commit()
    conn.close()
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DAMAGED_GAMES, result.stdout + result.stderr
    assert "damaged server settings: 3" in result.stdout
    assert "  server 1000: " in result.stdout and "  server 3000: " in result.stdout
    assert "server 2000" not in result.stdout and "server 4000" not in result.stdout
    (line,) = (x for x in result.stdout.splitlines() if "server 5000" in x)
    assert "turn_seconds" in line and "newer" not in line, line
    verdict = _verdict(result.stdout)
    assert verdict.startswith("NOT healthy: 3 servers' settings damaged"), verdict
    # QA: "plays with the default settings" was wrong: the valid ones are kept.
    assert "each damaged setting is read as its default" in verdict, verdict
    assert "/wizard settings" in verdict


def test_check_lists_at_most_twenty_damaged_rows_of_a_kind(tmp_path: Path) -> None:
    # Operator QA: 150,000 damaged settings rows printed 150,009 lines.
    db = tmp_path / "wizard.db"
    make_database(db, games=1)
    conn = sqlite3.connect(db)
    conn.executemany(
        "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, 'x', 0)",
        [(1000 + i,) for i in range(25)],
    )
    conn.commit()
    conn.close()
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DAMAGED_GAMES, result.stdout + result.stderr
    assert "damaged server settings: 25" in result.stdout
    assert sum(line.startswith("  server ") for line in result.stdout.splitlines()) == 20
    assert "  … and 5 more" in result.stdout


def test_check_says_each_hint_once_however_many_games_and_rows_are_damaged(
    tmp_path: Path,
) -> None:
    db = tmp_path / "wizard.db"
    make_database(db, games=4)
    conn = sqlite3.connect(db)
    for game in (1, 2, 3):
        conn.execute("DELETE FROM seats WHERE game_id = ?", (game,))  # cannot be loaded
    insert = (
        "INSERT INTO players VALUES (1000, ?, 'Ann', 25.0, -1.0, 0.0, 3, 1, 40, 60, NULL, 9, 4, 0)"
    )
    for user in (1, 2):
        conn.execute(insert, (user,))
    conn.commit()
    conn.close()
    result = run_bot("check", "--db", str(db), cwd=tmp_path)
    assert result.returncode == EXIT_DAMAGED_GAMES, result.stdout + result.stderr
    out = result.stdout
    assert "damaged games: 3" in out and "damaged player rows: 2" in out
    for game in (1, 2, 3):
        assert f"game {game}: cannot be loaded: " in out
    assert out.count("set aside when a player first uses it") == 1, out
    assert out.count("python -m bot restore") == 1, out
    verdict = _verdict(out)
    # Both kinds of damage get their advice, once each, in the one verdict.
    assert verdict.startswith("NOT healthy: 3 game(s) damaged")
    assert "2 player row(s) damaged" in verdict


def test_help_tells_the_exit_statuses_and_where_settings_come_from(tmp_path: Path) -> None:
    top = run_bot("--help", cwd=tmp_path).stdout
    for status in ("0 ", "1 ", "2 ", "3 ", "4 ", "5 ", "6 ", "129, 130, 143 "):
        assert f"\n  {status}" in top, top
    config = run_bot("config", "--help", cwd=tmp_path).stdout
    assert "WIZARD_ENV_FILE" in config and ".env" in config
    check = run_bot("check", "--help", cwd=tmp_path).stdout
    assert "5" in check and "copy" in check


def test_backup_onto_a_name_ending_in_a_slash_writes_no_file_of_that_name(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db)
    result = run_bot("backup", "--db", str(db), "backups/", cwd=tmp_path)
    assert result.returncode == EXIT_SETTINGS, result.stderr
    assert "backups/wizard.db" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "backups").exists()


def test_backup_onto_the_database_itself_is_refused_even_with_force(tmp_path: Path) -> None:
    db = tmp_path / "wizard.db"
    make_database(db, games=2)
    before = db.read_bytes()
    # Nor its -journal (QA operator): SQLite deletes it at the next start as a stale journal.
    journal = tmp_path / "wizard.db-journal"
    for target in (db, tmp_path / "." / "wizard.db", journal):
        result = run_bot("backup", "--db", str(db), str(target), "--force", cwd=tmp_path)
        line = assert_one_line_failure(result, EXIT_DATABASE)
        assert "is the database itself" in line
    assert db.read_bytes() == before
    assert not journal.exists()


def test_restore_of_the_database_onto_itself_is_refused_at_once(tmp_path: Path) -> None:
    # It used to wait forever: its own exclusive lock kept it from reading the backup.
    db = tmp_path / "wizard.db"
    make_database(db, games=2)
    line = assert_one_line_failure(
        run_bot("restore", "--db", str(db), str(db), cwd=tmp_path), EXIT_DATABASE
    )
    assert "is the database itself" in line


def test_restore_says_where_it_wrote_and_that_no_database_was_there(tmp_path: Path) -> None:
    # Run from another folder than the bot's, the default data/wizard.db is another file.
    backup = tmp_path / "backup.db"
    make_database(backup, games=1)
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    result = run_bot("restore", str(backup), cwd=elsewhere)
    assert result.returncode == EXIT_OK, result.stderr
    assert str(elsewhere / "data" / "wizard.db") in result.stdout
    # QA: said in brackets only, where a typo in the path deserves a line of its own.
    notes = [line for line in result.stdout.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "no database was there" in notes[0], result.stdout
    assert "DATABASE_PATH or --db" in notes[0]


def test_a_missing_database_is_named_by_its_full_path(tmp_path: Path) -> None:
    line = assert_one_line_failure(run_bot("backup", "copy.db", cwd=tmp_path), EXIT_DATABASE)
    assert str(tmp_path / "data" / "wizard.db") in line


def test_demo_on_a_port_in_use_says_so_with_the_settings_status(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_bot("demo", "--port", str(port), cwd=tmp_path)
    line = assert_one_line_failure(result, EXIT_SETTINGS)
    assert str(port) in line and "--port" in line


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_demo_on_a_port_that_is_no_port_is_a_command_line_fault(tmp_path: Path, port: str) -> None:
    result = run_bot("demo", "--port", port, cwd=tmp_path)
    assert result.returncode == EXIT_SETTINGS, result.stderr
    assert "Traceback" not in result.stderr
    assert "--port" in result.stderr.splitlines()[-1]


def test_backup_of_a_database_another_process_holds_exclusively_gives_up(
    tmp_path: Path,
) -> None:
    # Not the bot (in WAL mode it never keeps readers out), but e.g. a sqlite3 shell in
    # exclusive locking mode: backup used to wait for as long as that lasted.
    db = tmp_path / "wizard.db"
    make_database(db, games=1)
    holder = subprocess.Popen(
        [sys.executable, "-c", _EXCLUSIVE, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "holding"
        result = run_bot("backup", "--db", str(db), str(tmp_path / "b.db"), cwd=tmp_path)
    finally:
        holder.communicate("", timeout=PROCESS_TIMEOUT)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert "locked" in line


_EXCLUSIVE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA locking_mode = EXCLUSIVE")
conn.execute("BEGIN EXCLUSIVE")
conn.execute("UPDATE games SET version = version")
print("holding", flush=True)
sys.stdin.read()
"""


def _as_another_user() -> list[str] | None:
    """A command prefix that runs a process as a user without root's powers (for whom a
    read-only folder is read-only), or ``None`` when this machine cannot arrange it."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", "import bot, wizard"],
        env=clean_env(),
        capture_output=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )
    return prefix if probe.returncode == 0 else None


@pytest.fixture
def other_user() -> Iterator[tuple[list[str], Path]]:
    """The command prefix of another user (see ``_as_another_user``) and a folder both may
    enter; the test is skipped where no such user can be arranged."""
    prefix = _as_another_user()
    if prefix is None:
        pytest.skip("cannot run a process as a user whom permissions hold")
    # Not under tmp_path: pytest makes its folders for the current user alone.
    top = Path(tempfile.mkdtemp(prefix="wizard-perm-"))
    top.chmod(0o777)
    try:
        yield prefix, top
    finally:
        for path in (top, *top.rglob("*")):
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(top)


def test_check_and_backup_read_a_database_in_a_read_only_folder(
    other_user: tuple[list[str], Path],
) -> None:
    """A snapshot or a read-only mount: SQLite cannot make the WAL index beside the file, and
    check and backup refused it ("the bot must be able to create and write …")."""
    prefix, top = other_user
    folder = top / "snapshot"
    folder.mkdir()
    db = folder / "wizard.db"
    make_database(db, games=2)
    db.chmod(0o444)
    folder.chmod(0o555)
    checked = run_bot("check", "--db", str(db), cwd=top, as_user=prefix)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "healthy" in checked.stdout
    copy = top / "backup.db"
    copied = run_bot("backup", "--db", str(db), str(copy), cwd=top, as_user=prefix)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    conn = sqlite3.connect(copy)
    try:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
    finally:
        conn.close()
    assert sorted(p.name for p in folder.iterdir()) == ["wizard.db"]  # nothing left beside


def test_restore_of_a_backup_this_user_may_not_read_says_so(
    other_user: tuple[list[str], Path],
) -> None:
    """It said the backup was "not a usable database (unable to open database file)"."""
    prefix, top = other_user
    backup = top / "backup.db"
    make_database(backup, games=1)
    # Root's file the other user may not read, or this user's own made unreadable.
    backup.chmod(0o600 if prefix else 0o000)
    result = run_bot("restore", "--db", str(top / "w.db"), str(backup), cwd=top, as_user=prefix)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert f"cannot read {backup}: permission denied" in line, line


@pytest.mark.parametrize("existing", [True, False], ids=["over a database", "a new file"])
def test_restore_into_a_folder_this_user_may_not_write_says_so(
    other_user: tuple[list[str], Path], existing: bool
) -> None:
    """QA: it said to free space on the disk, and that "the database there is untouched"
    where there was none; over a database, it said "disk I/O error", to check the disk and
    to run check, which then found the database healthy."""
    prefix, top = other_user
    backup = top / "backup.db"
    make_database(backup, games=1)
    folder = top / "locked"
    folder.mkdir()
    db = folder / "wizard.db"
    if existing:
        make_database(db, games=2)
    folder.chmod(0o555)
    result = run_bot("restore", "--db", str(db), str(backup), cwd=top, as_user=prefix)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert "free space" not in line.lower() and "disk" not in line.lower(), line
    assert f"write in {folder}" in line, line
    if existing:
        assert f"cannot restore over {db}" in line, line
        assert "the database there is untouched" in line, line
        return
    assert f"cannot write the restored database beside {db}" in line, line
    assert "nothing was written" in line and "untouched" not in line, line


@pytest.mark.parametrize("written", ["~/wizard.db", "$HOME/wizard.db", "${DATA}/wizard.db"])
def test_a_database_path_with_a_home_or_variable_is_refused_not_made_literally(
    tmp_path: Path, written: str
) -> None:
    """QA: DATABASE_PATH=~/wizard.db (docker --env-file and systemd pass it on as written) made
    a folder named "~" beside the bot, which ``rm -r ~`` would clear the home folder for."""
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=written)
    for args in ([], ["config"]):
        line = assert_one_line_failure(run_bot(*args, cwd=tmp_path, env=env), EXIT_SETTINGS)
        assert "DATABASE_PATH" in line and "full path" in line, line
    assert list(tmp_path.iterdir()) == []  # no "~" or "$HOME" folder, no lock file


@pytest.mark.parametrize("name", ["DATABASE_PATH", "DISCORD_TOKEN", "LOG_LEVEL"])
def test_a_comment_after_a_value_in_the_environment_is_refused_not_made_part_of_it(
    tmp_path: Path, name: str
) -> None:
    """QA: ``DATABASE_PATH=/data/wizard.db  # on the volume``: python-dotenv drops the comment
    from .env, but docker run --env-file and systemd pass it on, and the bot made a file
    named "wizard.db  # on the volume"; the token was told not to start with "Bot "."""
    values = {"DISCORD_TOKEN": FAKE_TOKEN, "DATABASE_PATH": str(tmp_path / "wizard.db")}
    values[name] = values.get(name, "INFO") + "  # from the old server"
    env = clean_env(**values)
    for args in (["config"], []):
        line = assert_one_line_failure(run_bot(*args, cwd=tmp_path, env=env), EXIT_SETTINGS)
        assert f"{name}: the value holds a comment" in line, line
        assert "on a line of its own" in line, line
        assert "Bot " not in line and FAKE_TOKEN not in line, line
    assert list(tmp_path.iterdir()) == []


def test_a_comment_after_a_value_in_dotenv_is_the_file_s_own(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={FAKE_TOKEN}  # the bot's\nDATABASE_PATH=wizard.db  # beside it\n"
    )
    env = clean_env(WIZARD_ENV_FILE=str(tmp_path / ".env"))
    result = run_bot("config", cwd=tmp_path, env=env)
    assert result.returncode == EXIT_OK, result.stdout + result.stderr
    assert "DATABASE_PATH = wizard.db" in result.stdout
    # In quotes it is the value's own, and a token holds none.
    (tmp_path / ".env").write_text(f'DISCORD_TOKEN="{FAKE_TOKEN}  # the bot\'s"\n')
    line = assert_one_line_failure(run_bot("config", cwd=tmp_path, env=env), EXIT_SETTINGS)
    assert "DISCORD_TOKEN: a token holds no space: the # after one begins a comment" in line
    assert "Bot " not in line and FAKE_TOKEN not in line, line


def test_config_says_when_the_bot_could_not_write_the_database(
    other_user: tuple[list[str], Path],
) -> None:
    """QA: config passed a database in a read-only folder (or one this user may not write),
    and only the bot's start refused it. Nothing is left behind by the test of it."""
    prefix, top = other_user
    locked = top / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    theirs = top / "theirs.db"
    make_database(theirs, games=1)
    theirs.chmod(0o444)
    for db, named in ((locked / "wizard.db", locked), (locked / "deep" / "w.db", locked)):
        env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(db))
        line = assert_one_line_failure(
            run_bot("config", cwd=top, env=env, as_user=prefix), EXIT_DATABASE
        )
        assert f"cannot use the database {db}: this user may not write in {named}" in line, line
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(theirs))
    line = assert_one_line_failure(
        run_bot("config", cwd=top, env=env, as_user=prefix), EXIT_DATABASE
    )
    assert f"cannot use the database {theirs}: this user may not write it" in line, line
    assert sorted(p.name for p in top.iterdir()) == ["locked", "theirs.db"]
    assert list(locked.iterdir()) == []
    # Below a folder this user may not even enter (review: a traceback from config, and
    # "cannot reach Discord" from the bot's start).
    closed = top / "closed"
    (closed / "sub").mkdir(parents=True)
    closed.chmod(0o700)
    db = closed / "sub" / "wizard.db"
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(db))
    for args in (["config"], []):
        result = run_bot(*args, cwd=top, env=env, as_user=prefix)
        line = assert_one_line_failure(result, EXIT_DATABASE)
        assert f"cannot use the database {db}: this user may not enter {closed}" in line, line
    closed.chmod(0o755)
    # A folder still to be made, below one the user may write, is fine (the bot makes it).
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(top / "new" / "w.db"))
    fine = run_bot("config", cwd=top, env=env, as_user=prefix)
    assert fine.returncode == EXIT_OK, fine.stdout + fine.stderr


@pytest.mark.parametrize("command", ["demo", "check", "backup", "restore"])
def test_a_blank_db_name_is_a_command_line_fault(tmp_path: Path, command: str) -> None:
    # Operator QA: demo --db "  " made a file named two spaces.
    extra = {"backup": ["copy.db"], "restore": ["copy.db"]}.get(command, [])
    result = run_bot(command, "--db", "  ", *extra, cwd=tmp_path)
    assert result.returncode == EXIT_SETTINGS, result.stdout + result.stderr
    assert "the name is blank" in result.stderr
    assert list(tmp_path.iterdir()) == []


def _closed_folder(top: Path) -> Path:
    """A folder below ``top`` with a sub-folder, that only its owner may enter (this user, if
    it is the other user's prefix that runs the bot): a backup and a .env file are below it."""
    closed = top / "closed"
    (closed / "sub").mkdir(parents=True)
    make_database(closed / "backup.db", games=1)
    (closed / "x.env").write_text("LOG_LEVEL=INFO\n")
    closed.chmod(0o700)
    return closed


@pytest.mark.parametrize("where", ["closed/sub/b.db", "closed/b.db", "closed/sub/"])
def test_a_backup_into_a_folder_this_user_may_not_enter_is_a_command_line_fault(
    other_user: tuple[list[str], Path], where: str
) -> None:
    """QA: a traceback (exit 1): looking at the backup's path raised PermissionError."""
    prefix, top = other_user
    closed = _closed_folder(top)
    db = top / "wizard.db"
    make_database(db, games=1)
    target = top / where
    result = run_bot("backup", "--db", str(db), f"{top}/{where}", cwd=top, as_user=prefix)
    line = assert_one_line_failure(result, EXIT_SETTINGS)
    assert f"cannot write the backup {target}: this user may not enter {closed}" in line, line


def test_a_settings_file_in_a_folder_this_user_may_not_enter_is_a_settings_fault(
    other_user: tuple[list[str], Path],
) -> None:
    """QA: ``WIZARD_ENV_FILE=/unenterable/x.env python -m bot config`` ended in a traceback."""
    prefix, top = other_user
    closed = _closed_folder(top)
    env = clean_env(WIZARD_ENV_FILE=str(closed / "x.env"))
    for args in (["config"], []):
        result = run_bot(*args, cwd=top, env=env, as_user=prefix)
        line = assert_one_line_failure(result, EXIT_SETTINGS)
        assert f"WIZARD_ENV_FILE names {closed / 'x.env'}" in line, line
        assert f"this user may not enter {closed}" in line, line


def test_restore_of_a_backup_in_a_folder_this_user_may_not_enter_blames_the_backup(
    other_user: tuple[list[str], Path],
) -> None:
    """QA: it said "cannot use the database …: Permission denied: '…/backup.db'", and that
    the bot must be able to create and write the database."""
    prefix, top = other_user
    closed = _closed_folder(top)
    db = top / "wizard.db"
    make_database(db, games=2)
    before = db.read_bytes()
    backup = closed / "backup.db"
    result = run_bot("restore", "--db", str(db), str(backup), cwd=top, as_user=prefix)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert f"cannot read the backup {backup}: this user may not enter {closed}" in line, line
    assert "cannot use the database" not in line and "write" not in line, line
    assert db.read_bytes() == before


def test_restore_into_a_folder_this_user_may_not_enter_says_so(
    other_user: tuple[list[str], Path],
) -> None:
    prefix, top = other_user
    closed = _closed_folder(top)
    backup = top / "backup.db"
    make_database(backup, games=1)
    db = closed / "sub" / "wizard.db"
    result = run_bot("restore", "--db", str(db), str(backup), cwd=top, as_user=prefix)
    line = assert_one_line_failure(result, EXIT_DATABASE)
    assert f"cannot use the database {db}: this user may not enter {closed}" in line, line


def test_a_bot_started_in_a_folder_this_user_may_not_enter_says_so(
    other_user: tuple[list[str], Path],
) -> None:
    """QA: ``sudo -u wizard python -m bot config`` typed in /root ended in a traceback and
    exit 1 (looking for ./.env there raised PermissionError)."""
    prefix, top = other_user
    closed = _closed_folder(top)
    env = {k: v for k, v in clean_env().items() if k != "WIZARD_ENV_FILE"}  # ./.env is read
    for args in (["config"], []):
        result = run_bot(*args, cwd=closed, env=env, as_user=prefix)
        line = assert_one_line_failure(result, EXIT_SETTINGS)
        assert f"cannot look for .env in {closed}: this user may not enter it" in line, line
        assert "WIZARD_ENV_FILE" in line, line


@pytest.mark.parametrize("kind", ["text", "another_program", "newer_schema", "log_alone"])
def test_config_refuses_a_database_file_as_the_bot_would_at_start(
    tmp_path: Path, kind: str
) -> None:
    """Operator QA: config passed a DATABASE_PATH naming a text file, another program's
    database, a database of a newer bot or a log left without its database, which the bot's
    start then refused. Config says the start's words, and changes nothing in the file."""
    db = tmp_path / "wizard.db"
    if kind == "text":
        db.write_text("hello " * 1000, encoding="utf-8")
    elif kind == "another_program":
        sqlite_file(db, "photos")
    elif kind == "newer_schema":
        make_database(db)
        make_future_schema(db)
    else:
        log_left_at(db)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(db))
    config = assert_one_line_failure(run_bot("config", cwd=tmp_path, env=env), EXIT_DATABASE)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    start = assert_one_line_failure(run_bot(cwd=tmp_path, env=env), EXIT_DATABASE)
    assert config == start


@pytest.mark.parametrize("command", ["check", "config"])
def test_a_file_name_that_is_not_utf8_is_printed_not_a_traceback(
    tmp_path: Path, command: str
) -> None:
    """Operator QA: a database whose name is not UTF-8 (café in Latin-1) ended check in a
    traceback where standard output encodes strictly (PYTHONIOENCODING=utf-8, or a locale
    other than C): the name is printed with the byte escaped, as Python's standard error
    prints it."""
    db = tmp_path / os.fsdecode(b"caf\xe9.db")
    sqlite_file(db, "photos")
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(db), PYTHONIOENCODING="utf-8")
    result = run_bot(command, cwd=tmp_path, env=env)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    assert result.returncode == EXIT_DATABASE, result.stdout + result.stderr
    assert "caf\\udce9.db" in result.stdout + result.stderr


@pytest.mark.parametrize("command", ["check", "backup"])
def test_output_into_a_closed_pipe_ends_quietly(tmp_path: Path, command: str) -> None:
    """Operator QA: check | head -1 (or backup … | true) ended in a BrokenPipeError
    traceback once the reader was gone, exit 1, a complete backup too. It stops as the
    shell's own tools do: nothing on standard error, the status of SIGPIPE (141)."""
    db = tmp_path / "wizard.db"
    make_database(db, games=2)
    extra = [str(tmp_path / "copy.db")] if command == "backup" else []
    child = subprocess.Popen(
        [sys.executable, "-m", "bot", command, "--db", str(db), *extra],
        cwd=tmp_path,
        env=clean_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    child.stdout.close()  # the reader is gone before a line is written
    _, err = child.communicate(timeout=PROCESS_TIMEOUT)
    assert err == "", err
    assert child.returncode == 128 + 13
    if command == "backup":
        assert (tmp_path / "copy.db").is_file()


def test_a_database_path_ending_in_a_slash_is_refused_not_made_a_file(tmp_path: Path) -> None:
    """Operator QA: DATABASE_PATH=/srv/wizard/data/ (a folder still to be made) made a
    database file named "data", and config showed the path without its slash; demo --db
    did the same. A path that ends in a slash names a folder: refused, nothing made."""
    folder = f"{tmp_path / 'data'}/"
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=folder)
    for args in ([], ["config"]):
        line = assert_one_line_failure(run_bot(*args, cwd=tmp_path, env=env), EXIT_SETTINGS)
        assert f"DATABASE_PATH: {folder} ends in /" in line, line
        assert f"{folder}wizard.db" in line, line
    demo = run_bot("demo", "--db", folder, cwd=tmp_path)
    assert demo.returncode == EXIT_SETTINGS, demo.stderr
    assert f"{folder}wizard.db" in demo.stderr, demo.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_bot_that_makes_a_new_database_from_a_relative_path_says_where(tmp_path: Path) -> None:
    """Operator QA: the bot started from another folder than usual made a new, empty
    data/wizard.db there and said only "database data/wizard.db migrated to schema version
    13": to the operator every game looked lost. Making a database from a relative
    DATABASE_PATH is a warning naming the full path and what to do; opening one is not."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH="data/wizard.db")
    first = run_bot(cwd=elsewhere, env=env)
    made = elsewhere / "data" / "wizard.db"
    assert made.is_file()
    warning = [line for line in first.stderr.splitlines() if "[WARNING ]" in line]
    assert any(
        f"a new, empty database made at {made}" in line
        and "relative to the folder the bot started in" in line
        for line in warning
    ), first.stderr
    again = run_bot(cwd=elsewhere, env=env)
    assert "a new, empty database" not in again.stderr, again.stderr


def test_a_log_another_user_left_is_named_when_the_bot_cannot_write_it(
    other_user: tuple[list[str], Path],
) -> None:
    """Operator QA: check run by another account than the bot's left the -wal and -shm
    beside a stopped bot's database, owned by that account; the bot then refused to start
    with "cannot open for writing (attempt to write a readonly database)" and advice on the
    folder's permissions, which were fine. Config and the start name the file and why."""
    prefix, top = other_user
    if not prefix:  # not root: the files left would be the bot's own
        pytest.skip("needs another user than the owner of the files left")
    db = top / "wizard.db"
    make_database(db, games=1)
    os.chown(db, 65534, 65534)  # the bot's
    left = {suffix: Path(f"{db}{suffix}") for suffix in ("-wal", "-shm")}
    for path in left.values():  # check's, run by root (any other account alike)
        path.write_bytes(b"")
        path.chmod(0o644)
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(db))
    for args in (["config"], []):
        line = assert_one_line_failure(run_bot(*args, cwd=top, env=env, as_user=prefix), 3)
        assert f"this user may not write {left['-wal']}" in line, line
        assert "another user" in line and "chown" in line, line


@pytest.mark.parametrize("command", ["config", "check", "demo", "start"])
def test_a_database_name_too_long_for_the_disk_is_said_to_be(tmp_path: Path, command: str) -> None:
    """Operator QA: a DATABASE_PATH (or --db) whose file name is longer than the disk allows
    ended config, check and the demo in a traceback (File name too long), and the bot's start
    in "cannot reach Discord", exit 4, which a supervisor restarts for ever; a name that just
    fit made the database, then failed on the longer name of a lock file beside it."""
    db = tmp_path / ("w" * 240 + ".db")  # fits alone, not with ".shard-count-1.lock"
    env = clean_env(DISCORD_TOKEN=FAKE_TOKEN, DATABASE_PATH=str(db))
    args = {"config": ["config"], "check": ["check"], "demo": ["demo", "--db", str(db)]}
    line = assert_one_line_failure(
        run_bot(*args.get(command, []), cwd=tmp_path, env=env), EXIT_DATABASE
    )
    assert f"cannot use the database {db}: its file name is too long" in line, line
    assert list(tmp_path.iterdir()) == []


def test_a_backup_name_too_long_for_the_disk_is_said_to_be(tmp_path: Path) -> None:
    """Operator QA: backup onto a name longer than the disk allows blamed the database
    ("cannot use the database …/base.db: … File name too long: …-journal")."""
    db = tmp_path / "wizard.db"
    make_database(db)
    target = tmp_path / ("b" * 250 + ".db")
    line = assert_one_line_failure(
        run_bot("backup", "--db", str(db), str(target), cwd=tmp_path), EXIT_SETTINGS
    )
    assert f"cannot write the backup {target}: its file name is too long" in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wizard.db"]
