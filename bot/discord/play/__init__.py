"""Playing: a seat's decision — its move buttons and discard menu and the click played
(moves), standing choices and "I'm back" (choices), the DM that carries them with the
hand picture (dms) and its words (words)."""
