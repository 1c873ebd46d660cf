"""Work spread over processes comes back in the order it was given, whatever order it ran in."""

from specgen import parallel


def test_results_in_order_when_the_costliest_run_first():
    items = list(range(-50, 50))
    # cost: the order of work is by absolute value, not the order given
    assert parallel.run(abs, items, jobs=2, cost=abs) == [abs(i) for i in items]


def test_results_in_order_without_costs():
    items = list(range(100))
    assert parallel.run(str, items, jobs=2) == [str(i) for i in items]


def _frozen(_: object) -> int:
    import gc

    return gc.get_freeze_count()


def test_workers_leave_what_they_inherit_to_the_parent_collector():
    import gc

    # In the workers, the objects inherited at the fork are frozen (their collector never
    # walks, and so never copies, the pages they share); this process's are not.
    assert all(count > 0 for count in parallel.run(_frozen, list(range(64)), jobs=2))
    assert gc.get_freeze_count() == 0
