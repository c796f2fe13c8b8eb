"""``mahjong-bot``: the bot's entry point.

The Discord adapter is not built yet (see the README's status); until it is, the
command says what it will do and exits successfully.
"""

from __future__ import annotations

import sys

PLANNED = """\
mahjong-bot: the Discord mahjong bot (Shanghai and Hangzhou rules).

Not yet runnable. When finished it will:
  * read DISCORD_TOKEN, DATABASE_PATH, DEV_GUILD_ID and LOG_LEVEL from the
    environment or .env (see .env.example);
  * register /mahjong slash commands, send each player's hand by DM as a picture
    with buttons for every legal move, and keep every table in SQLite;
  * offer `mahjong-bot demo` to play a match of computer players offline
    (that one works already).

What works today: the rules engine and the score calculator, e.g.
  python -m engine.score cases.json
"""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "demo":
        from bot.demo import main as demo

        return demo(args[1:])
    sys.stdout.write(PLANNED)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
