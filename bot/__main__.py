"""``python -m bot``: run the bot; ``python -m bot config``: check the settings.

Exit status: 0 after a clean stop, 1 when Discord refuses to connect, 2 when the settings
cannot be used (for instance without a token). The token is never printed.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from bot.settings import TOKEN_HELP, Settings, SettingsError

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_SETTINGS = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="The Wizard Discord bot. Settings come from the environment and .env.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("run", help="connect to Discord and serve (the default)")
    sub.add_parser("config", help="check the settings and show them (the token stays hidden)")
    return parser


def _fail(message: str) -> int:
    print(f"wizard bot: {message}", file=sys.stderr)
    return EXIT_SETTINGS


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        settings = Settings.load()
    except SettingsError as error:
        return _fail(f"{error}. See .env.example for every setting.")
    if args.command == "config":
        print("\n".join(settings.describe()))
        return EXIT_OK if settings.discord_token is not None else _fail(_no_token())
    return run(settings)


def _no_token() -> str:
    return f"DISCORD_TOKEN is not set, so the bot cannot connect to Discord. {TOKEN_HELP}"


def run(settings: Settings) -> int:
    """Connect with ``settings`` and serve until stopped; refuses at once without a token."""
    token = settings.token_value()
    if not token:
        return _fail(_no_token())

    import discord

    from bot.app import create_bot

    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    bot = create_bot(settings)
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        print(
            "wizard bot: Discord refused the token in DISCORD_TOKEN. Reset it in the Developer "
            "Portal (Applications → your app → Bot → Reset Token) and put the new one in .env.",
            file=sys.stderr,
        )
        return EXIT_REFUSED
    except discord.PrivilegedIntentsRequired:
        print(
            "wizard bot: Discord refused a privileged intent; this bot should need none.",
            file=sys.stderr,
        )
        return EXIT_REFUSED
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
