"""The lobby: ``/mahjong new`` and its options, seats taken, computers named."""
