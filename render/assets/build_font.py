"""Build the small CJK font subset bundled with the bot (``tiles-cjk.otf``).

The tile faces and settlement pictures draw their Chinese glyphs from a subset of
Noto Serif CJK SC Bold (SIL Open Font License 1.1), cut down to only the characters
in `TEXT` so the package stays small. Run it by hand when `TEXT` changes:

    apt-get update && apt-get install -y fonts-noto-cjk   # the source font
    pip install fonttools                                  # only needed here
    python render/assets/build_font.py                     # writes next to this file

It also rewrites `OFL.txt` from the licence text in Debian's
``/usr/share/doc/fonts-noto-cjk/copyright`` plus the font's own copyright notice.

Options: ``--source PATH`` (a .ttc/.otf), ``--index N`` (face in a collection; the SC
face of Debian's NotoSerifCJK-Bold.ttc is 2), ``--out PATH``. The subset is renamed
(a modified version should not pose as the original) and keeps the Adobe copyright
notice. fontTools is not a runtime dependency:
the bot only reads the finished .otf with Pillow.
"""

from __future__ import annotations

import argparse
import string
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
DEBIAN_COPYRIGHT = "/usr/share/doc/fonts-noto-cjk/copyright"
DEFAULT_INDEX = 2  # Noto Serif CJK SC in Debian's collection
FAMILY = "Mahjong Tiles CJK Subset"

# Every character the pictures draw: tile faces (traditional and simplified forms),
# then words used on settlement and table pictures. Extend here and rebuild.
TILE_TEXT = (
    "一二三四五六七八九萬万"
    "東南西北东中發发白"
    "春夏秋冬梅蘭兰竹菊"
    "财財神庄莊"
)
WORD_TEXT = (
    "胡杠碰吃过暴头花喇番底分荒自摸流局清色混对子豪华飘开门字乱风向大吊车"
    "天地包承倒逃跑上海杭州麻将家"
    "×。，：（）—·"
    # table, hand and card pictures
    "听翻连骰剩张第轮合计排行榜名次积胜最佳结算点炮抢口平不能付等待总赢输手牌位场余数"
    "到出决定"
    "●▶★…"
)
ASCII_TEXT = string.digits + string.ascii_letters + string.punctuation + " "
TEXT = "".join(dict.fromkeys(TILE_TEXT + WORD_TEXT + ASCII_TEXT))

# Player names: every character of GB2312 (the 6,763 common simplified hanzi and its
# symbols), kana, Latin, Greek and Cyrillic — what most Discord names are written in —
# in Noto Sans CJK SC Bold, about 1.5 MB. Emoji and rarer scripts still draw as "?".
NAMES_SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
NAMES_FAMILY = "Mahjong Names CJK Subset"
_NAME_RANGES = ((0x20, 0x7F), (0xA0, 0x180), (0x370, 0x460), (0x3000, 0x3100),
                (0xFF01, 0xFF5F))


def gb2312() -> str:
    chars = []
    for high in range(0xA1, 0xF8):
        for low in range(0xA1, 0xFF):
            try:
                chars.append(bytes((high, low)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return "".join(chars)


def names_text() -> str:
    ranges = "".join(chr(c) for lo, hi in _NAME_RANGES for c in range(lo, hi))
    return "".join(dict.fromkeys(ranges + gb2312()))


def build(source: str, index: int, out: Path, text: str = TEXT, family: str = FAMILY) -> int:
    """Write the subset of ``text`` to `out` and return its size in bytes."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=index, lazy=False)
    options = subset.Options()
    options.layout_features = ["kern", "palt", "vert"]  # no locl/ccmp zoo: smaller
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep copyright + licence fields
    options.notdef_outline = True
    options.hinting = False  # Pillow renders unhinted CFF well; hints are bulk
    options.desubroutinize = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    _rename(font, family)
    font.recalcTimestamp = False  # keep the source's date so rebuilds are byte-identical
    out.parent.mkdir(parents=True, exist_ok=True)
    font.save(out)
    return out.stat().st_size


def write_licence(font_path: Path, out: Path, debian_copyright: str = DEBIAN_COPYRIGHT) -> None:
    """Write OFL.txt: the subset's copyright notice, then the OFL text Debian ships."""
    from fontTools.ttLib import TTFont

    notice = TTFont(font_path)["name"].getDebugName(0)
    text = Path(debian_copyright).read_text(encoding="utf-8")
    # The licence is the stand-alone "License: SIL-1.1" paragraph (the last one) in
    # Debian's copyright-format file: continuation lines start with one space and a
    # lone "." stands for a blank line.
    body = text.split("\nLicense: SIL-1.1\n")[-1].split("\nLicense: ", 1)[0]
    lines = ["" if line == " ." else line[1:] for line in body.rstrip("\n").split("\n")]
    names_path = font_path.parent / "names-cjk.otf"
    names_notice = (TTFont(names_path)["name"].getDebugName(0)
                    if names_path.is_file() else notice)
    header = (
        f"{FAMILY} ({font_path.name}) is a subset of Noto Serif CJK SC Bold.\n"
        f"Copyright notice of the font: {notice}\n"
        f"{NAMES_FAMILY} ({names_path.name}) is a subset of Noto Sans CJK SC Bold.\n"
        f"Copyright notice of the font: {names_notice}\n"
        "Debian's fonts-noto-cjk records: Copyright 2010-2012, Google Corporation.\n\n"
        "This Font Software is licensed under the SIL Open Font License, Version 1.1.\n"
        "This license is copied below, and is also available with a FAQ at:\n"
        "https://openfontlicense.org\n\n"
    )
    out.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")


def _rename(font: TTFont, family: str = FAMILY) -> None:
    """Give the subset its own name; the copyright (ID 0) and licence (13/14) stay."""
    ps_name = family.replace(" ", "")
    names = {1: family, 3: f"{ps_name}-Bold", 4: f"{family} Bold", 6: f"{ps_name}-Bold"}
    table = font["name"]
    for record in table.names:
        if record.nameID in names:
            record.string = names[record.nameID]
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [f"{ps_name}-Bold"]
        top = cff.topDictIndex[0]
        for attr, value in (("FullName", f"{FAMILY} Bold"), ("FamilyName", FAMILY)):
            if hasattr(top, attr):
                setattr(top, attr, value.replace(FAMILY, family))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=DEFAULT_SOURCE)
    parser.add_argument("--index", type=int, default=DEFAULT_INDEX)
    parser.add_argument("--out", type=Path, default=HERE / "tiles-cjk.otf")
    args = parser.parse_args()
    size = build(args.source, args.index, args.out)
    names_out = args.out.parent / "names-cjk.otf"
    names_size = build(NAMES_SOURCE, DEFAULT_INDEX, names_out, names_text(), NAMES_FAMILY)
    write_licence(args.out, args.out.parent / "OFL.txt")
    print(f"wrote {args.out} ({size / 1024:.1f} KiB, {len(TEXT)} characters)")
    print(f"wrote {names_out} ({names_size / 1024:.1f} KiB, {len(names_text())} characters)")


if __name__ == "__main__":
    main()
