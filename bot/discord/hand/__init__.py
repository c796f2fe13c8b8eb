"""``/mahjong hand``: the private reply that keeps showing a seat's hand."""
