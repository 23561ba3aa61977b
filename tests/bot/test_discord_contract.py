"""Discord's own contract: the check that every REST request of the bot tests is valid by
Discord's OpenAPI description (``tests/bot/conftest.py``) finds what it must.

The check itself runs after every bot test; these tests prove that it catches a request
Discord would refuse (an embed title over 256 characters, sent by the real bot code path
through SimCord), matches paths as Discord does, forgives only the one known difference,
and fails loudly in CI when the description is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

from bot.app import create_bot
from bot.settings import Settings
from tests.bot.conftest import INVALID_REST
from tests.bot.simtools import OPENAPI_ENV, DiscordContract, find_openapi
from tests.ops_support import PROCESS_TIMEOUT

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def contract() -> DiscordContract:
    path = find_openapi(ROOT)
    if path is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("Discord's OpenAPI description is missing")
        pytest.skip("Discord's OpenAPI description is not beside the repository")
    return DiscordContract.load(path)


def message(**fields: Any) -> dict[str, Any]:
    return {"content": "hello", **fields}


@pytest.mark.invalid_rest_requests
async def test_the_check_catches_an_embed_title_over_256_characters(
    contract: DiscordContract,
) -> None:
    """Sent by the bot through discord.py and logged by SimCord, as every request is."""
    bot = create_bot(Settings(shard_count=1))

    @app_commands.command(name="longtitle", description="test only: an embed too long")
    async def longtitle(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=discord.Embed(title="W" * 257))

    bot.wizard_group.add_command(longtitle)
    async with simcord.run(bot, shard_count=1, check_errors=False) as env:
        channel = env.create_guild("Wizard server").create_text_channel("wizard")
        member = channel.guild.add_member(env.create_user("ann"))  # type: ignore[union-attr]
        await member.slash(channel, "wizard longtitle")
    problems = contract.check(env.http_requests)
    assert any(
        "callback" in p and "embeds[0].title" in p and "is too long" in p for p in problems
    ), problems
    # The same message with a title of 256 characters is fine.
    ok = {"type": 4, "data": {"embeds": [{"title": "W" * 256, "type": "rich"}]}}
    assert contract.problems("POST", "/interactions/1/tok/callback", {}, ok) == []


def test_a_marked_test_is_not_checked(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker(INVALID_REST) is None  # this one is checked


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        (message(content="x" * 4001), "is too long"),
        (message(embeds=[{"title": "t", "description": "d" * 4097}]), "is too long"),
        (message(embeds=[{"fields": [{"name": "n", "value": "v"}] * 26}]), "is too long"),
        (
            message(components=[{"type": 1, "components": [{"type": 2, "style": 1}] * 6}]),
            "components",
        ),
        (
            message(
                components=[
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "Go", "custom_id": "x" * 101}
                        ],
                    }
                ]
            ),
            "components",
        ),
        (message(allowed_mentions={"parse": ["nobody"]}), "allowed_mentions"),
        (message(flags="ephemeral"), "flags"),
    ],
    ids=[
        "content",
        "embed-description",
        "embed-fields",
        "row-of-6",
        "custom-id",
        "mentions",
        "flags",
    ],
)
def test_what_discord_refuses_is_found(
    contract: DiscordContract, body: dict[str, Any], complaint: str
) -> None:
    problems = contract.problems("POST", "/channels/123/messages", {}, body)
    assert problems and all(p.startswith("POST /channels/{channel_id}/messages") for p in problems)
    assert any(complaint in p for p in problems), problems


def test_a_valid_message_passes(contract: DiscordContract) -> None:
    body = message(
        embeds=[{"title": "Wizard", "description": "a table", "color": 0x5865F2, "type": "rich"}],
        components=[
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": "Show my hand", "custom_id": "wiz:1:hand::3"},
                    {
                        "type": 2,
                        "style": 2,
                        "label": "0",
                        "custom_id": "wiz:1:bid:0:3",
                        "disabled": True,
                    },
                ],
            }
        ],
        allowed_mentions={"parse": [], "users": ["123"]},
    )
    assert contract.problems("POST", "/channels/123/messages", {}, body) == []


def test_paths_match_the_most_literal_template(contract: DiscordContract) -> None:
    assert (
        contract.match("PATCH", "/webhooks/1/tok/messages/@original")
        == "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    )
    assert (
        contract.match("PATCH", "/webhooks/1/tok/messages/99")
        == "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    )
    assert contract.match("GET", "/nothing/here") is None
    assert contract.problems("GET", "/nothing/here", {}, None) == [
        "GET /nothing/here: no such route in Discord's API"
    ]


def test_query_parameters_are_checked(contract: DiscordContract) -> None:
    path = "/interactions/1/tok/callback"
    body = {"type": 6}
    # Discord reads 1/0/true/false in a boolean query string.
    for value in ("1", "true", True, "0", "False"):
        assert contract.problems("POST", path, {"with_response": value}, body) == [], value
    assert contract.problems("POST", path, {"with_response": "maybe"}, body)
    assert any(
        "unknown query parameter" in p for p in contract.problems("POST", path, {"x": 1}, body)
    )


def test_only_the_one_known_difference_is_forgiven(contract: DiscordContract) -> None:
    """discord.py writes attachment ids as integers inside ``payload_json`` (the spec's
    README): forgiven. Any other integer where Discord says string is not."""
    attached = message(attachments=[{"id": 0, "filename": "record.json"}])
    assert contract.problems("POST", "/channels/1/messages", {}, attached) == []
    mentions = message(allowed_mentions={"users": [123]})
    [problem] = contract.problems("POST", "/channels/1/messages", {}, mentions)
    assert "allowed_mentions.users[0]" in problem and "is not of type 'string'" in problem


def test_the_spec_is_found_beside_the_repository(tmp_path: Path) -> None:
    """CI's layout: the repository at X/main, the description at X/shared."""
    repo = tmp_path / "main"
    spec = tmp_path / "shared" / "discord-api" / "openapi.json"
    spec.parent.mkdir(parents=True)
    spec.write_text("{}")
    (repo / "tests").mkdir(parents=True)
    environ = {k: v for k, v in os.environ.items() if k != OPENAPI_ENV}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "environ", environ)
        assert find_openapi(repo) == spec
        spec.unlink()
        # Without it nothing under tmp_path is taken; a ``shared`` folder further up (the
        # machine's own /tmp/shared, say) is outside what this test controls.
        found = find_openapi(repo)
        assert found is None or not found.is_relative_to(tmp_path)


@pytest.mark.parametrize(
    ("ci", "fails", "says"),
    [
        # Not a silent skip: in CI every bot test fails and says what is missing...
        ("true", True, "Discord's OpenAPI description is missing"),
        # ...while outside CI the same run passes with a warning that says so.
        ("false", False, "OpenAPI description is missing"),
    ],
    ids=["in CI", "outside CI"],
)
def test_a_missing_description_fails_loudly_in_ci(
    tmp_path: Path, ci: str, fails: bool, says: str
) -> None:
    """A pytest run in a child process, with the description nowhere to be found."""
    env = {**os.environ, "CI": ci, OPENAPI_ENV: str(tmp_path / "nowhere.json")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "tests/bot/test_discord_contract.py::test_a_marked_test_is_not_checked",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT,
        check=False,
    )
    assert (done.returncode != 0) is fails, done.stdout
    assert says in done.stdout
