-- 0033_packed_logs: a finished hand's log text deflated (issue 32, "a hand costs its
-- log"; bot/store/hand_logs.py): raw DEFLATE (no header) of the text 0032 would have
-- written, a third smaller. A hand ending from now on keeps its text here and an empty
-- log; the hands 0032 converted keep theirs plain in log (packed NULL).
ALTER TABLE hand_logs ADD COLUMN packed BLOB;
