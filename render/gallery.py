"""Write every sample picture as a PNG, for a person to look at.

    python -m render.gallery OUTDIR
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.tiles import Tile
from render import samples
from render.cards import leaderboard_card, settlement_card
from render.hand import hand_image
from render.table import table_image


def pictures() -> dict[str, bytes]:
    """Every sample, rendered: name -> PNG bytes."""
    out: dict[str, bytes] = {}
    for name, make in samples.HANDS.items():
        out[name] = hand_image(make())
    for name, make_table in samples.TABLES.items():
        out[name] = table_image(make_table(), samples.NAMES)
    out["table_late_from_seat_2"] = table_image(samples.table_late(), samples.NAMES, 2)
    for name, (make_result, rules) in samples.SETTLEMENTS.items():
        caishen = Tile.WHITE if rules == "hangzhou" else None
        out[name] = settlement_card(make_result(), samples.NAMES, rules, caishen=caishen)
    out["leaderboard_20"] = leaderboard_card(samples.leaderboard_rows(20),
                                             "Mahjong night · 上海 Shanghai")
    return out


def main(argv: list[str]) -> None:
    if len(argv) != 1:
        sys.exit("usage: python -m render.gallery OUTDIR")
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for name, data in pictures().items():
        path = out / f"{name}.png"
        path.write_bytes(data)
        print(f"{path}  {len(data) / 1024:.0f} KiB")


if __name__ == "__main__":
    main(sys.argv[1:])
