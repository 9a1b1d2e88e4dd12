import gc

from bot import memory


def test_settle_freezes_what_lives_at_the_start():
    assert gc.get_freeze_count() == 0
    kept = [object() for _ in range(10)]  # noqa: F841 -- alive while settle runs
    try:
        memory.settle()
        frozen = gc.get_freeze_count()
        assert frozen > 0
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0
