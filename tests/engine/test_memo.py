"""The engine's memos stay within their bounds and report what they hold."""

from __future__ import annotations

from engine import memo
from engine.memo import IdentityMemo, PlainMemo, bounded


def test_a_bounded_memo_keeps_at_most_its_bound_and_counts_hits() -> None:
    calls = []

    @bounded(maxsize=4)
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    for n in (*range(10), 9, 9):
        assert square(n) == n * n
    figures = {s.name: s for s in memo.stats()}[f"{__name__}.{square.__qualname__}"]
    assert (figures.size, figures.maxsize, figures.hits, figures.misses) == (4, 4, 2, 10)
    assert calls == list(range(10))


def test_an_identity_memo_tells_equal_objects_apart_and_forgets_the_oldest() -> None:
    remembered: IdentityMemo[str] = IdentityMemo("tests.identity", 2)
    first, second, third = [1, 2], [1, 2], [3]
    assert remembered.get(first, "a", lambda: "first") == "first"
    assert remembered.get(second, "a", lambda: "second") == "second"  # equal, not the same
    assert remembered.get(first, "a", lambda: "again") == "first"
    assert remembered.get(first, "b", lambda: "other detail") == "other detail"
    assert remembered.get(third, "a", lambda: "third") == "third"  # the bound is 2
    assert remembered.get(second, "a", lambda: "rebuilt") == "rebuilt"
    figures = remembered.stats("tests.identity")
    assert (figures.size, figures.maxsize, figures.hits) == (2, 2, 1)
    remembered.clear()
    assert remembered.stats("tests.identity").size == 0


def test_a_full_identity_memo_forgets_its_oldest_quarter_at_once() -> None:
    remembered: IdentityMemo[int] = IdentityMemo("tests.identity_quarter", 8)
    kept = [object() for _ in range(9)]
    for n, obj in enumerate(kept):
        def make(n: int = n) -> int:
            return n

        remembered.get(obj, None, make)
    assert remembered.stats("tests.identity_quarter").size == 7  # 8 - 2 + the ninth
    assert [remembered.get(obj, None, lambda: -1) for obj in kept[2:]] == list(range(2, 9))
    assert remembered.get(kept[0], None, lambda: -1) == -1  # the oldest two went


def test_every_engine_memo_is_bounded() -> None:
    # The memos register when their modules load.
    import engine.ai
    import engine.view  # noqa: F401

    engine_memos = [s for s in memo.stats() if s.name.startswith("engine.")]
    assert len(engine_memos) >= 10
    assert all(0 < s.maxsize <= 1 << 14 for s in engine_memos)


def test_an_identity_memo_finds_what_it_keeps_by_identity() -> None:
    remembered: IdentityMemo[str] = IdentityMemo("tests.identity_find", 4)
    one, equal = [1], [1]
    assert remembered.find(one, "x") is None
    assert remembered.keep(one, "x", "kept") == "kept"
    assert remembered.find(one, "x") == "kept"
    assert remembered.find(equal, "x") is None and remembered.find(one, "y") is None
    assert remembered.get(one, "x", lambda: "made") == "kept"  # `get` sees it too
    stats = remembered.stats("tests.identity_find")
    assert (stats.size, stats.hits, stats.misses) == (1, 2, 1)


def test_a_plain_memo_counts_its_misses_empties_at_its_bound_and_is_cleared() -> None:
    remembered: PlainMemo[int, str] = PlainMemo("tests.plain", 3)
    for n in range(3):
        assert remembered.get(n) is None
        assert remembered.keep(n, str(n)) == str(n)
    assert remembered.get(1) == "1"
    assert remembered.keep(3, "3") == "3"  # the fourth: the memo starts again with it
    assert dict(remembered) == {3: "3"}
    figures = {s.name: s for s in memo.stats()}["tests.plain"]
    assert (figures.size, figures.maxsize, figures.hits, figures.misses) == (1, 3, None, 4)
    assert figures.hit_rate is None
    memo.clear()
    assert len(remembered) == 0 and remembered.misses == 0


def test_the_computer_players_plain_memos_are_registered_and_cleared() -> None:
    import engine.ai
    from engine.selfplay import selfplay

    selfplay("shanghai", 1, seed=3, check_views=False)
    names = {s.name: s for s in memo.stats()}
    assert names["engine.ai.rests"].size == len(engine.ai._RESTS) > 0
    assert names["engine.ai.helping"].size == len(engine.ai._HELPING) > 0
    memo.clear()
    assert len(engine.ai._RESTS) == len(engine.ai._HELPING) == 0
