import gc

from bot import memory


def test_settle_freezes_what_lives_at_the_start_and_collects_young_objects_less_often():
    assert gc.get_freeze_count() == 0
    thresholds = gc.get_threshold()
    kept = [object() for _ in range(10)]  # noqa: F841 -- alive while settle runs
    try:
        memory.settle()
        frozen = gc.get_freeze_count()
        assert frozen > 0
        assert gc.get_threshold() == (memory.YOUNG_THRESHOLD, *thresholds[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
    assert gc.get_freeze_count() == 0
