"""Playing: a seat's decision DMs, with its hand picture and buttons."""
