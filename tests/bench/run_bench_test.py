#!/usr/bin/env python3
"""Checks of the benchmark drivers' shared rules (bench/run_bench.py) that decide what a
run of scripts/bench reports: churn figures compared by mode, the round loop's order and
bookkeeping, and the medians. No MPI job runs: run_beside_plain is replaced by a stub.

usage: run_bench_test.py <bench directory>
"""
import contextlib
import io
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import run_bench  # noqa: E402

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}")


# --- lower_mode: the values within MODE_GAP of the lowest ---
expect(run_bench.lower_mode([1.0, 1.29, 1.31, 2.0]) == [1.0, 1.29],
       "lower_mode keeps the values within 1.3 times the lowest, and only those")
expect(run_bench.lower_mode([0.36, 0.153, 0.155]) == [0.153, 0.155],
       "lower_mode leaves out an upper-mode run wherever it stands")
expect(run_bench.lower_mode([5.0]) == [5.0], "lower_mode of one run is that run")

# --- churn_ratios: each side's lower mode, the ratio of their medians ---
plain = [{"churn_type": 0.153, "churn_comm": 4.0}, {"churn_type": 0.36, "churn_comm": 4.2},
         {"churn_type": 0.155, "churn_comm": 4.1}]
runtime = [{"churn_type": 0.48, "churn_comm": 4.4}, {"churn_type": 0.25, "churn_comm": 4.6},
           {"churn_type": 0.252, "churn_comm": 4.5}, {"churn_type": 0.485, "churn_comm": 4.5}]
ratios, counts = run_bench.churn_ratios(plain, runtime)
expect(abs(ratios.get("churn_type", 0) - round(0.251 / 0.154, 4)) < 1e-9,
       f"churn_type compares the fast runs of both sides (got {ratios.get('churn_type')})")
expect(abs(ratios.get("churn_comm", 0) - round(4.5 / 4.1, 4)) < 1e-9,
       f"a loop with one mode compares all its runs' medians (got {ratios.get('churn_comm')})")
expect(counts.get("churn_type") == {"plain": [2, 3], "runtime": [2, 4]},
       f"churn_lower_mode counts the kept runs of each side (got {counts.get('churn_type')})")
expect("churn_requests" not in ratios and "churn_requests" not in counts,
       "a figure neither side reported is left out")
one_sided, _ = run_bench.churn_ratios(plain, [{"churn_requests": 1.0}])
expect(one_sided == {}, "a figure only one side reported is left out")

# --- compare_rounds: order, ratios and plain runs by label ---
calls = []


def stub(flavour, exe, lib, scale, timeout, **keywords):
    calls.append((lib, keywords))
    figure = {"a.so": 2.0, "b.so": 3.0, "c.so": 4.0}[lib]
    before, after = {"m": 1.0, "n": 10.0}, {"m": 3.0, "n": 30.0}
    return {"m": 2.0, "n": 20.0}, {"m": figure, "n": 40.0}, (before, after)


configs = [("A", "a.so", {"lib_env": {"X": "1"}}), ("B", "b.so", {}), ("C", "c.so", {})]
real = run_bench.run_beside_plain
run_bench.run_beside_plain = stub
try:
    with contextlib.redirect_stdout(io.StringIO()) as shown:
        ratios, runs, plain_runs = run_bench.compare_rounds("f", "exe", configs, 3, 0.5, 9,
                                                            ("m", "n"))
    order = [lib for lib, _ in calls]
    expect(order == ["a.so", "b.so", "c.so", "c.so", "b.so", "a.so", "a.so", "b.so", "c.so"],
           f"the order is reversed every other round (got {order})")
    expect(calls[0][1] == {"lib_env": {"X": "1"}}, "a configuration's keywords reach the run")
    expect(ratios["A"] == [{"m": 1.0, "n": 2.0}] * 3 and ratios["C"][0] == {"m": 2.0, "n": 2.0},
           f"a ratio is the figure over the mean of its own plain runs (got {ratios})")
    expect(len(runs["B"]) == 3 and runs["B"][0]["m"] == 3.0, "each label keeps its runs")
    expect(len(plain_runs["B"]) == 6 and plain_runs["B"][:2] == [{"m": 1.0, "n": 10.0},
                                                                  {"m": 3.0, "n": 30.0}],
           "each label keeps both plain runs of every round, one by one")
    expect(shown.getvalue().count("round") == 3, "one line per round")

    calls.clear()
    with contextlib.redirect_stdout(io.StringIO()):
        run_bench.compare_rounds("f", "exe", configs, 3, 0.5, 9, ("m",), rotate=True)
    order = [lib for lib, _ in calls]
    expect(order == ["a.so", "b.so", "c.so", "b.so", "c.so", "a.so", "c.so", "a.so", "b.so"],
           f"rotate=True rotates the order by one each round (got {order})")
finally:
    run_bench.run_beside_plain = real

# --- the medians the drivers print ---
expect(run_bench.median_ratios([{"m": 1.0}, {"m": 3.0}, {"m": 2.0}], ("m",)) == {"m_ratio": 2.0},
       "median_ratios names each metric's median <metric>_ratio")
expect(run_bench.medians([{"m": 1.0}, {"m": 4.0}], ("m",)) == {"m": 2.5}, "medians")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
