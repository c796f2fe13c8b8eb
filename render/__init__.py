"""Pictures: engine views in, PNG bytes out (Pillow).

- `render.hand.hand_image(PlayerView)`: a player's own hand, for their DM.
- `render.table.table_image(TableView, names, bottom_seat=0)`: the public table.
- `render.cards.settlement_card(ResultView, names, rules)` and
  `render.cards.leaderboard_card(rows, title)`: end-of-hand and channel cards.
- `render.tiles`: the tile sprites and the bundled font; `render.draw`: shared helpers;
  `render.pieces`: a table picture put together from its parts kept in the palette.
- `python -m render.gallery OUTDIR` writes every sample of `render.samples`.

Every function is pure: the same view gives the same bytes (the kept pieces change
how long a table picture takes, never its pixels).
"""
