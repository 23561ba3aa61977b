"""Settings and the entry point: defaults, validation, .env, a missing token, a hidden token."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import (
    ENV_FILE_VARIABLE,
    ENV_NAMES,
    Settings,
    SettingsError,
    misspelt_environment,
    repeated_settings,
)

ROOT = Path(__file__).resolve().parents[2]
FAKE_TOKEN = "MTAxNzQ5ODc2NTQzMjEwOTg3Ng.GhIjKl.FaKeTokenFaKeTokenFaKeToken_12345"
TOKEN_LIKE = re.compile(r"[\w-]{20,}\.[\w-]{6,}\.[\w-]{20,}")


def run_bot(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in a clean environment (no inherited DISCORD_* variables)."""
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ENV_NAMES.values() and k != ENV_FILE_VARIABLE
    }
    base["PYTHONPATH"] = str(ROOT)
    base[ENV_FILE_VARIABLE] = ""  # never read a developer's real .env here
    base.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=base,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_defaults_load_without_a_token() -> None:
    settings = Settings.from_mapping({})
    assert settings.discord_token is None
    assert settings.token_value() is None
    assert settings.database_path == Path("data/wizard.db")
    assert settings.log_level == "INFO"
    assert settings.dev_guild_id is None
    assert settings.shard_count is None
    assert settings.shard_ids is None
    assert settings.computer_delay_seconds == 1.0


def test_values_are_parsed() -> None:
    settings = Settings.from_mapping(
        {
            "DISCORD_TOKEN": FAKE_TOKEN,
            "DATABASE_PATH": "/var/lib/wizard/w.db",
            "LOG_LEVEL": "debug",
            "DEV_GUILD_ID": "123456789012345678",
            "SHARD_COUNT": "4",
            "SHARD_IDS": "1, 3",
            "COMPUTER_DELAY_SECONDS": "0.5",
        }
    )
    assert settings.token_value() == FAKE_TOKEN
    assert settings.database_path == Path("/var/lib/wizard/w.db")
    assert settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 123456789012345678
    assert settings.shard_count == 4
    assert settings.shard_ids == (1, 3)
    assert settings.computer_delay_seconds == 0.5


def test_empty_values_count_as_unset() -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "  ", "DEV_GUILD_ID": "", "SHARD_IDS": ""})
    assert settings.discord_token is None
    assert settings.dev_guild_id is None


def test_token_is_hidden_everywhere_but_token_value() -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": FAKE_TOKEN})
    for text in (
        repr(settings),
        str(settings),
        settings.model_dump_json(),
        str(settings.model_dump()),
        "\n".join(settings.describe()),
    ):
        assert FAKE_TOKEN not in text
    assert "DISCORD_TOKEN = (set, hidden)" in settings.describe()


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"SHARD_COUNT": "several"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "200000"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "99999999999999999999999"}, "SHARD_COUNT"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS must be between 0"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "SHARD_IDS must not repeat"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "zero"}, "SHARD_IDS"),
        # Operator QA: a shard number left out was read as the shards around it.
        ({"SHARD_COUNT": "3", "SHARD_IDS": "0,,1"}, "SHARD_IDS: must be shard numbers"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "0,1,"}, "SHARD_IDS: must be shard numbers"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "0,²"}, "SHARD_IDS: must be shard numbers"),
        # Operator QA: -1 is a number, only not a shard; it was told to write numbers.
        ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, "SHARD_IDS must be between 0"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0, -1"}, "SHARD_IDS must be between 0"),
        ({"LOG_LEVEL": "chatty"}, "LOG_LEVEL"),
        ({"DEV_GUILD_ID": "-4"}, "DEV_GUILD_ID"),
        ({"DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID"),
        ({"DEV_GUILD_ID": "0"}, "DEV_GUILD_ID"),
        ({"DEV_GUILD_ID": str(2**64)}, "DEV_GUILD_ID"),  # beyond a snowflake's 64 bits
        ({"COMPUTER_DELAY_SECONDS": "-1"}, "COMPUTER_DELAY_SECONDS"),
        ({"COMPUTER_DELAY_SECONDS": "soon"}, "COMPUTER_DELAY_SECONDS"),
        # Operator QA: Python's digit separators were read as digits: "2_0" as 20 shards.
        ({"SHARD_COUNT": "2_0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "2.0"}, "SHARD_COUNT"),
        ({"DEV_GUILD_ID": "1_000"}, "DEV_GUILD_ID"),
        ({"COMPUTER_DELAY_SECONDS": "1_0"}, "COMPUTER_DELAY_SECONDS"),
    ],
)
def test_bad_values_are_refused_by_name(values: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_mapping({"DISCORD_TOKEN": FAKE_TOKEN, **values})
    message = str(caught.value)
    assert named in message
    assert FAKE_TOKEN not in message
    for value in values.values():
        if len(value) > 3:  # the offending input is not echoed back
            assert value not in message


@pytest.mark.parametrize("value", ["-4", "0", str(2**64), "my server"])
def test_a_dev_guild_id_that_is_no_server_id_says_what_one_is(value: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_mapping({"DEV_GUILD_ID": value})
    assert "DEV_GUILD_ID: must be a Discord server ID" in str(caught.value)
    assert "Copy Server ID" in str(caught.value)


@pytest.mark.parametrize("value", [f"Bot {FAKE_TOKEN}", f"{FAKE_TOKEN} {FAKE_TOKEN}"])
def test_a_token_with_a_space_inside_is_refused_without_showing_it(value: str) -> None:
    """A token holds no space: "Bot …" or two things pasted together are refused at once
    (rather than a login that Discord refuses), and the value is not echoed."""
    with pytest.raises(SettingsError) as caught:
        Settings.from_mapping({"DISCORD_TOKEN": value})
    message = str(caught.value)
    assert "DISCORD_TOKEN: a token holds no space" in message
    assert FAKE_TOKEN not in message


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DATABASE_PATH", '"/data/wizard.db"'),
        ("DATABASE_PATH", "'/data/wizard.db'"),
        ("DISCORD_TOKEN", f'"{FAKE_TOKEN}"'),
        ("LOG_LEVEL", '"INFO"'),
        ("SHARD_COUNT", '"2"'),
    ],
)
def test_a_value_in_quotes_from_the_environment_is_refused_naming_the_quotes(
    name: str, value: str
) -> None:
    # QA: Docker's --env-file passes DATABASE_PATH="/data/wizard.db" on with its quotes, and
    # the bot started on a new, empty database in a folder named '"' (all games seemingly
    # gone); a quoted token failed only at login, a quoted LOG_LEVEL with no word of quotes.
    with pytest.raises(SettingsError) as caught:
        Settings.from_mapping({name: value})
    message = str(caught.value)
    assert f"{name}: the value is in quotes" in message, message
    assert "docker run --env-file" in message and "systemd" not in message
    assert FAKE_TOKEN not in message and value not in message


def test_quotes_in_dotenv_are_the_file_s_own_and_read_away(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DATABASE_PATH=\"data/my games.db\"\nLOG_LEVEL='debug'\n", encoding="utf-8")
    settings = Settings.load({}, dotenv_path=dotenv)
    assert settings.database_path == Path("data/my games.db")
    assert settings.log_level == "DEBUG"


def test_the_largest_snowflake_is_a_dev_guild_id() -> None:
    assert Settings.from_mapping({"DEV_GUILD_ID": str(2**64 - 1)}).dev_guild_id == 2**64 - 1


def test_a_dev_guild_id_beyond_a_snowflake_stops_config_with_status_2(tmp_path: Path) -> None:
    result = run_bot(
        "config", env={"DISCORD_TOKEN": FAKE_TOKEN, "DEV_GUILD_ID": str(2**64)}, cwd=tmp_path
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert "invalid settings: DEV_GUILD_ID: must be a Discord server ID" in lines[0]


def test_dotenv_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        f"DISCORD_TOKEN={FAKE_TOKEN}\nLOG_LEVEL=WARNING\nDATABASE_PATH=file.db\n", encoding="utf-8"
    )
    settings = Settings.load({"LOG_LEVEL": "ERROR"}, dotenv_path=dotenv)
    assert settings.token_value() == FAKE_TOKEN
    assert settings.log_level == "ERROR"
    assert settings.database_path == Path("file.db")


def test_a_bad_value_says_whether_the_environment_or_the_file_set_it(tmp_path: Path) -> None:
    """Operator QA: LOG_LEVEL=warn set by a systemd unit was refused as "LOG_LEVEL: …", and
    the operator went to edit a .env that was right: the environment wins over the file."""
    dotenv = tmp_path / ".env"
    dotenv.write_text("LOG_LEVEL=INFO\nSHARD_COUNT=zero\n", encoding="utf-8")
    with pytest.raises(SettingsError) as caught:
        Settings.load({"LOG_LEVEL": "warn"}, dotenv_path=dotenv)
    message = str(caught.value)
    assert re.search(r"LOG_LEVEL: [^;]* \(set in the environment\)", message), message
    assert re.search(rf"SHARD_COUNT: [^;]* \(set in {re.escape(str(dotenv))}\)", message), message


def test_env_file_variable_chooses_or_disables_the_file(tmp_path: Path) -> None:
    dotenv = tmp_path / "custom.env"
    dotenv.write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\n", encoding="utf-8")
    assert Settings.load({ENV_FILE_VARIABLE: str(dotenv)}).token_value() == FAKE_TOKEN
    assert Settings.load({ENV_FILE_VARIABLE: ""}).discord_token is None
    with pytest.raises(SettingsError, match=ENV_FILE_VARIABLE):
        Settings.load({ENV_FILE_VARIABLE: str(tmp_path / "missing.env")})


def test_without_token_the_bot_exits_at_once_and_says_where_to_get_one(tmp_path: Path) -> None:
    if (ROOT / ".env").exists():
        pytest.skip("this checkout has a .env of its own, which the bot would read")
    env = {k: v for k, v in os.environ.items() if k not in (*ENV_NAMES.values(), ENV_FILE_VARIABLE)}
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    message = result.stderr
    assert "DISCORD_TOKEN is not set" in message
    assert "Developer Portal" in message
    assert "Bot → Reset Token" in message
    assert "Put it in a file named .env" in message
    assert ".env.example" in message
    assert not TOKEN_LIKE.search(message)


def test_without_token_where_no_env_file_is_read_the_advice_is_the_environment(
    tmp_path: Path,
) -> None:
    # QA: the Docker image reads no .env (WIZARD_ENV_FILE is empty); the advice to put the
    # token in a .env file sent the operator to a file the bot never reads.
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\n", encoding="utf-8")
    result = run_bot(env={}, cwd=tmp_path)
    assert result.returncode == 2
    message = result.stderr
    assert "DISCORD_TOKEN is not set" in message and "Developer Portal" in message
    assert f"No .env file is read here ({ENV_FILE_VARIABLE} is empty" in message
    assert "--env-file" in message
    assert "Put it in a file named .env" not in message
    assert not TOKEN_LIKE.search(message)


def test_without_token_in_the_env_file_read_the_advice_names_that_file(tmp_path: Path) -> None:
    chosen = tmp_path / "wizard.env"
    chosen.write_text("LOG_LEVEL=DEBUG\n", encoding="utf-8")
    result = run_bot(env={ENV_FILE_VARIABLE: str(chosen)}, cwd=tmp_path)
    assert result.returncode == 2
    assert f"{chosen} gives DISCORD_TOKEN no value: fill in (or add) the line" in result.stderr


def test_without_token_the_run_command_exits_too(tmp_path: Path) -> None:
    result = run_bot("run", env={"DISCORD_TOKEN": ""}, cwd=tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr


def test_a_token_in_dotenv_of_the_working_directory_is_found(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != ENV_FILE_VARIABLE}
    result = subprocess.run(
        [sys.executable, "-m", "bot", "config"],
        cwd=tmp_path,
        env={
            **{k: v for k, v in env.items() if k not in ENV_NAMES.values()},
            "PYTHONPATH": str(ROOT),
        },
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "DISCORD_TOKEN = (set, hidden)" in result.stdout
    assert FAKE_TOKEN not in result.stdout + result.stderr


def test_fake_token_never_appears_in_output(tmp_path: Path) -> None:
    shown = run_bot("config", env={"DISCORD_TOKEN": FAKE_TOKEN}, cwd=tmp_path)
    assert shown.returncode == 0
    assert "DISCORD_TOKEN = (set, hidden)" in shown.stdout
    refused = run_bot(
        env={"DISCORD_TOKEN": FAKE_TOKEN, "SHARD_IDS": "5", "SHARD_COUNT": "2"}, cwd=tmp_path
    )
    assert refused.returncode == 2
    assert "SHARD_IDS" in refused.stderr
    for result in (shown, refused):
        output = result.stdout + result.stderr
        assert FAKE_TOKEN not in output
        assert "FaKeToken" not in output
        assert not TOKEN_LIKE.search(output)


def test_help_lists_the_commands(tmp_path: Path) -> None:
    result = run_bot("--help", env={}, cwd=tmp_path)
    assert result.returncode == 0
    assert "config" in result.stdout
    assert "run" in result.stdout


def test_settings_built_in_code_read_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # The demo builds its Settings in code: a developer's token or shards must not leak in.
    monkeypatch.setenv("DISCORD_TOKEN", FAKE_TOKEN)
    monkeypatch.setenv("SHARD_IDS", "3")
    settings = Settings(database_path=Path("demo.db"), shard_count=1)
    assert settings.discord_token is None
    assert settings.shard_ids is None


def test_load_reads_the_process_environment_over_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("LOG_LEVEL=warning\nSHARD_COUNT=2\nUNRELATED=1\n", encoding="utf-8")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", " 2,3 ")
    monkeypatch.setenv("DEV_GUILD_ID", "")
    settings = Settings.load(dotenv_path=dotenv)
    assert settings.log_level == "WARNING"
    assert settings.shard_count == 4
    assert settings.shard_ids == (2, 3)
    assert settings.dev_guild_id is None


def test_a_bad_value_in_dotenv_is_one_line_naming_the_variable(tmp_path: Path) -> None:
    (tmp_path / "bad.env").write_text(
        f"DISCORD_TOKEN={FAKE_TOKEN}\nCOMPUTER_DELAY_SECONDS=forever\nLOG_LEVEL=loud\n",
        encoding="utf-8",
    )
    result = run_bot("config", env={ENV_FILE_VARIABLE: str(tmp_path / "bad.env")}, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "COMPUTER_DELAY_SECONDS" in lines[0]
    assert "LOG_LEVEL" in lines[0]
    assert "forever" not in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("case", ["not UTF-8", "unreadable"])
def test_a_dotenv_that_cannot_be_read_is_one_line_with_status_2(tmp_path: Path, case: str) -> None:
    env_file = tmp_path / ".env"
    if case == "not UTF-8":
        env_file.write_bytes(b"\xff\xfeD\x00I\x00S\x00C\x00O\x00R\x00D\x00")  # saved as UTF-16
    else:
        if os.geteuid() == 0:
            pytest.skip("root reads any file")
        env_file.write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\n", encoding="utf-8")
        env_file.chmod(0o000)
    for command in ("config", "run"):
        result = run_bot(command, env={ENV_FILE_VARIABLE: str(env_file)}, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
        assert f"cannot read {env_file}" in lines[0]
        if case == "not UTF-8":
            assert "UTF-8" in lines[0]


def test_an_env_file_variable_naming_a_folder_says_it_is_one(tmp_path: Path) -> None:
    result = run_bot("config", env={ENV_FILE_VARIABLE: str(tmp_path)}, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"{ENV_FILE_VARIABLE} names a folder, not a file: {tmp_path}" in lines[0]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (f'DISCORD_TOKEN="{FAKE_TOKEN}\nLOG_LEVEL=DEBUG\n', "1"),  # no closing quote
        (f"DISCORD_TOKEN={FAKE_TOKEN}\nCOMPUTER_DELAY_SECONDS='2\n", "2"),
    ],
)
def test_a_dotenv_line_that_is_no_setting_is_refused_naming_the_line(
    tmp_path: Path, text: str, line: str
) -> None:
    """python-dotenv skips such a line with a warning and the default stays in force: an
    unclosed quote around the token read as "DISCORD_TOKEN is not set"."""
    env_file = tmp_path / ".env"
    env_file.write_text(text, encoding="utf-8")
    result = run_bot("config", env={ENV_FILE_VARIABLE: str(env_file)}, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"cannot read {env_file}: line {line}" in lines[0]
    assert FAKE_TOKEN not in result.stdout + result.stderr


def test_the_example_env_file_reads_without_a_malformed_line() -> None:
    settings = Settings.load({}, dotenv_path=ROOT / ".env.example")
    assert settings.database_path == Path("data/wizard.db")


def test_config_points_out_a_misspelt_setting_in_the_environment(tmp_path: Path) -> None:
    """Docker passes settings only as environment variables, where a typo such as
    DATABSE_PATH left the default in force without a word (only .env names were checked)."""
    result = run_bot(
        "config",
        env={"DISCORD_TOKEN": FAKE_TOKEN, "DATABSE_PATH": "/srv/wizard.db", "HOSTNAME": "box"},
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout + result.stderr
    assert "DATABSE_PATH" in out and "did you mean DATABASE_PATH?" in out
    assert "HOSTNAME" not in out and "/srv/wizard.db" not in out  # values are never shown


def test_config_does_not_call_a_setting_in_lower_case_ignored(tmp_path: Path) -> None:
    """QA operator: ``database_path=…`` was read (names are read in any case) while config
    said it was "no setting of the bot and is ignored"."""
    result = run_bot(
        "config",
        env={"DISCORD_TOKEN": FAKE_TOKEN, "database_path": str(tmp_path / "y.db")},
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout + result.stderr
    assert f"DATABASE_PATH = {tmp_path / 'y.db'}" in out, out
    assert "ignored" not in out, out


def test_a_delay_that_is_no_number_is_called_so() -> None:
    # QA: "nan" was refused as "Input should be less than or equal to 30".
    for value in ("nan", "inf"):
        with pytest.raises(SettingsError, match="COMPUTER_DELAY_SECONDS: Input should be a finite"):
            Settings.from_mapping({"DISCORD_TOKEN": FAKE_TOKEN, "COMPUTER_DELAY_SECONDS": value})


def test_config_says_where_the_settings_come_from(tmp_path: Path) -> None:
    """QA operator: config named neither the .env it read nor the file a relative
    DATABASE_PATH means from here (a service started elsewhere uses another)."""
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={FAKE_TOKEN}\nDATABASE_PATH=data/x.db\n")
    result = run_bot("config", env={ENV_FILE_VARIABLE: str(tmp_path / ".env")}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"note: the settings come from the environment and {tmp_path / '.env'}" in (
        result.stdout
    ), result.stdout
    assert f"from here it is {tmp_path / 'data' / 'x.db'}" in result.stdout


def test_another_bot_s_token_name_is_asked_about() -> None:
    """QA operator: BOT_TOKEN=… (what many bots read) got no "did you mean DISCORD_TOKEN?",
    being too far from the name to look like a typo."""
    found = misspelt_environment({"BOT_TOKEN": "x", "token": "y", "DISCORD_TOKN": "z"})
    assert found == [
        ("BOT_TOKEN", "DISCORD_TOKEN"),
        ("DISCORD_TOKN", "DISCORD_TOKEN"),
        ("token", "DISCORD_TOKEN"),
    ]


def test_config_names_a_setting_set_twice_and_one_the_environment_overrides(
    tmp_path: Path,
) -> None:
    """Operator QA: a .env that set DATABASE_PATH twice used the last without a word, and an
    exported LOG_LEVEL overrode the file's silently: config showed a value the file the
    operator was editing did not hold, and named that file as a source."""
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        f"DISCORD_TOKEN={FAKE_TOKEN}\nDATABASE_PATH={tmp_path / 'a.db'}\n# the new one\n"
        f"LOG_LEVEL=DEBUG\ndatabase_path={tmp_path / 'b.db'}\nDISCORD_TOKEN=x{FAKE_TOKEN}\n"
    )
    env = {
        ENV_FILE_VARIABLE: str(dotenv),
        "LOG_LEVEL": "WARNING",
        "DISCORD_TOKEN": f"x{FAKE_TOKEN}",  # the same value as the file's last: no note
    }
    result = run_bot("config", env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"DATABASE_PATH = {tmp_path / 'b.db'}" in out, out
    assert f"note: {dotenv} sets DATABASE_PATH on lines 2 and 5: the last is used" in out, out
    assert f"note: {dotenv} sets DISCORD_TOKEN on lines 1 and 6: the last is used" in out, out
    assert (
        f"note: the environment sets LOG_LEVEL, which {dotenv} sets too: the environment's is used"
    ) in out, out
    assert "DISCORD_TOKEN, which" not in out, out
    assert FAKE_TOKEN not in out + result.stderr


def test_a_setting_set_twice_is_found_by_its_lines_as_python_dotenv_reads_them(
    tmp_path: Path,
) -> None:
    """Lines that set a setting, with ``export``, quotes and spaces around ``=`` too, in any
    case (pydantic-settings reads ``database_path`` as DATABASE_PATH), after a byte order
    mark; a bare name, which python-dotenv reads as no value and which wipes a value set
    before it (review: the bot then used its default without a word). A comment and a quoted
    value set nothing. No parser of python-dotenv's is used: its module is not its public
    API."""
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "\ufeffLOG_LEVEL=DEBUG\n"
        "# DATABASE_PATH=old.db\n"
        "export DATABASE_PATH = a.db\r\n"
        'COMPUTER_DELAY_SECONDS="DATABASE_PATH=b.db"\n'
        "  'database_path'=c.db\n"
        "LOG_LEVEL=INFO\n"
        "DATABASE_PATH # no value\n",
        encoding="utf-8",
    )
    assert repeated_settings(dotenv) == [("LOG_LEVEL", [1, 6]), ("DATABASE_PATH", [3, 5, 7])]


def test_a_refused_setting_comes_with_the_notes_on_the_env_file(tmp_path: Path) -> None:
    """Operator QA: a .env that set SHARD_COUNT twice (2, then 3) and a misspelt
    DATABSE_PATH, with SHARD_IDS=3, was refused with "SHARD_IDS must be between 0 and
    SHARD_COUNT - 1 = 2" alone: the file said 2, and nothing named the repeated line or the
    typo, which config says only once the settings are valid. The refusal comes with them,
    and a typo in the file gets the same "did you mean" as one in the environment."""
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        f"DISCORD_TOKEN={FAKE_TOKEN}\nDATABSE_PATH={tmp_path / 'a.db'}\n"
        "SHARD_COUNT=2\nSHARD_COUNT=3\nSHARD_IDS=3\n"
    )
    result = run_bot("config", env={ENV_FILE_VARIABLE: str(dotenv)}, cwd=tmp_path)
    assert result.returncode == 2, result
    err = result.stderr
    assert f"note: {dotenv} sets SHARD_COUNT on lines 3 and 4: the last is used" in err, err
    assert (
        f"note: {dotenv} sets DATABSE_PATH, which is no setting of the bot and is ignored "
        "(did you mean DATABASE_PATH?)"
    ) in err, err
    # The refusal itself comes last, where the eye lands.
    assert "SHARD_IDS must be between 0" in err.strip().splitlines()[-1], err
    assert FAKE_TOKEN not in result.stdout + err


def test_a_refusal_of_the_shards_says_where_each_was_set(tmp_path: Path) -> None:
    """Operator QA: every refused setting ends "(set in the environment)" or "(set in
    …/.env)", but not SHARD_IDS against SHARD_COUNT, whose values may come from two
    places."""
    dotenv = tmp_path / ".env"
    dotenv.write_text("SHARD_IDS=5\n")
    env = {ENV_FILE_VARIABLE: str(dotenv), "SHARD_COUNT": "2"}
    with pytest.raises(SettingsError) as caught:
        Settings.load({"DISCORD_TOKEN": FAKE_TOKEN, **env})
    assert str(caught.value) == (
        "invalid settings: SHARD_IDS must be between 0 and SHARD_COUNT - 1 = 1 (SHARD_IDS "
        f"set in {dotenv}, SHARD_COUNT set in the environment)"
    )
