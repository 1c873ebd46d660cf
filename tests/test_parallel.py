"""Work spread over processes comes back in the order it was given, whatever order it ran in."""

from specgen import parallel


def test_results_in_order_when_the_costliest_run_first():
    items = list(range(-50, 50))
    # cost: the order of work is by absolute value, not the order given
    assert parallel.run(abs, items, jobs=2, cost=abs) == [abs(i) for i in items]


def test_results_in_order_without_costs():
    items = list(range(100))
    assert parallel.run(str, items, jobs=2) == [str(i) for i in items]
