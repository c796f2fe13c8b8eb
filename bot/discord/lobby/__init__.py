"""The lobby: its message and buttons (message), leaving a table (leave), the options
of ``/mahjong new`` (options), computers named when they sit down (names)."""
