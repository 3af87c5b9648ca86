#!/usr/bin/env python3
"""Checks of the benchmark drivers' shared rules (bench/run_bench.py) that decide what a
run of scripts/bench reports: churn figures compared by mode, the round loop's order and
bookkeeping, and the medians. No MPI job runs: run_beside_plain is replaced by a stub.

usage: run_bench_test.py <bench directory>
"""
import contextlib
import io
import json
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import run_bench  # noqa: E402

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}")


def expect_refused(parse, text, what):
    """`parse` raises ValueError on `text`."""
    try:
        parse(text)
        expect(False, f"{parse.__name__} refuses {what}")
    except ValueError:
        pass


def run_main(module, args, **stubs):
    """module.main() run with `args` as its command line and run_bench's functions named
    in `stubs` replaced by them (put back after); returns its exit code and the JSON of
    its last line."""
    saved = {name: getattr(run_bench, name) for name in stubs}
    saved_argv = sys.argv
    for name, fn in stubs.items():
        setattr(run_bench, name, fn)
    sys.argv = [f"{module.__name__}.py"] + args
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            code = module.main()
    finally:
        sys.argv = saved_argv
        for name, fn in saved.items():
            setattr(run_bench, name, fn)
    return code, json.loads(out.getvalue().strip().splitlines()[-1])


# --- split_modes: the lowest mode (two runs or more), and whether runs stand above it ---
expect(run_bench.split_modes([1.0, 1.29, 1.31, 2.0]) == ([1.0, 1.29], True),
       "split_modes keeps the values within 1.3 times the mode's lowest, and only those")
expect(run_bench.split_modes([0.36, 0.153, 0.155]) == ([0.153, 0.155], True),
       "split_modes leaves out an upper-mode run wherever it stands")
expect(run_bench.split_modes([4.0, 4.2, 4.1]) == ([4.0, 4.1, 4.2], False), "one mode")
expect(run_bench.split_modes([5.0]) == ([5.0], False), "one run is one mode")
expect(run_bench.split_modes([0.09] + [0.14] * 9) == ([0.14] * 9, False),
       "a lone run below the rest is passed over, not taken for a mode")
expect(run_bench.split_modes([0.15, 0.36, 0.16] + [0.36] * 7) == ([0.15, 0.16], True),
       "two runs are a mode")

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
       f"the counts say how many runs of each side the ratio used (got {counts.get('churn_type')})")
expect(counts.get("churn_comm") == {"plain": [3, 3], "runtime": [4, 4]}, "one mode: every run")
expect("churn_requests" not in ratios and "churn_requests" not in counts,
       "a figure neither side reported is left out")
# Two modes on one side only (the runtime's runs, here): every run of both sides counts.
ratios, counts = run_bench.churn_ratios(
    [{"churn_requests": v} for v in (0.146, 0.147, 0.145, 0.146)],
    [{"churn_requests": v} for v in (0.216, 0.15, 0.218, 0.152, 0.217)])
expect(ratios == {"churn_requests": round(0.216 / 0.146, 4)}
       and counts["churn_requests"] == {"plain": [4, 4], "runtime": [5, 5]},
       f"a second mode on one side stays in the figure (got {ratios}, {counts})")
# A lone fast run on each side (the machine changed mode under it) is no mode.
ratios, _ = run_bench.churn_ratios(
    [{"churn_requests": v} for v in [0.09] + [0.14] * 9],
    [{"churn_requests": v} for v in [0.1] + [0.15] * 4])
expect(ratios == {"churn_requests": round(0.15 / 0.14, 4)},
       f"a lone fast run on each side is not compared as a mode (got {ratios})")
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

# --- compare_rounds: a metric a run did not report is left out of that round ---
def partial(flavour, exe, lib, scale, timeout, **keywords):
    got = {"m": 2.0} if lib == "a.so" else {"m": 2.0, "n": 4.0}
    return {"m": 1.0, "n": 2.0}, got, ({"m": 1.0, "n": 2.0}, {"m": 1.0, "n": 2.0})


run_bench.run_beside_plain = partial
try:
    with contextlib.redirect_stdout(io.StringIO()):
        ratios, _, _ = run_bench.compare_rounds("f", "exe", configs[:2], 1, 0.5, 9, ("m", "n"))
    expect(ratios["A"] == [{"m": 2.0}] and ratios["B"] == [{"m": 2.0, "n": 2.0}],
           f"a metric missing from a run is left out of its ratios (got {ratios})")
finally:
    run_bench.run_beside_plain = real

# --- main: the runtime beside its plain runs, every key of the JSON from them ---
PLAIN = {"latency_0": 1.0, "latency_1024": 2.0, "message_rate": 100.0, "churn_comm": 4.0,
         "churn_type": 0.15, "churn_requests": 0.1}
rounds_seen = []


def beside(flavour, exe, lib, scale, timeout, **keywords):
    rounds_seen.append((flavour, lib, keywords))
    # Open MPI's second runtime process draws the slow churn_type speed.
    slow = flavour == "openmpi" and [f for f, _, _ in rounds_seen].count(flavour) == 2
    got = {"latency_0": 1.1, "latency_1024": 2.4, "message_rate": 80.0, "churn_comm": 4.4,
           "churn_type": 0.5 if slow else 0.3, "churn_requests": 0.12, "request_bytes": 120.0,
           "orphan_budget": 4096.0}
    if flavour == "mpich":
        got.update({"latency_0_c": 1.2, "message_rate_c": 70.0, "message_rate_paired_ratio": 0.85,
                    "churn_type_paired_ratio": 1.4})
    plain = dict(PLAIN)
    if flavour == "mpich":
        plain.update({"latency_0_c": 1.0, "message_rate_c": 100.0})
    return plain, got, (plain, plain)


def built_stub(build_dir, flavour):
    return f"exe_{flavour}", f"lib_{flavour}"


code, doc = run_main(run_bench, ["--build-dir", "b", "--rounds", "3"],
                     run_beside_plain=beside, built=built_stub)
expect(code == 0, "main exits 0 when a flavour ran")
expect(len(rounds_seen) == 6
       and all(lib == f"lib_{f}" and kw == {} for f, lib, kw in rounds_seen),
       f"each round runs the runtime once beside plain runs, per flavour (got {rounds_seen})")
expect(doc["latency_0_ratio"] == {"mpich": 1.1, "openmpi": 1.1},
       f"latency_0_ratio is the runtime over its plain runs (got {doc['latency_0_ratio']})")
expect(doc["message_rate_ratio"]["openmpi"] == 0.8, "message_rate_ratio")
expect(doc["churn"]["openmpi"]["churn_type"] == 2.0
       and doc["churn"]["mpich"]["churn_type"] == 2.0,
       f"churn_type: the runtime over plain, by the rule of churn_ratios (got {doc['churn']})")
expect(doc["churn_runs_used"]["openmpi"]["churn_type"] == {"plain": [6, 6], "runtime": [3, 3]},
       f"churn_runs_used: a second mode on the runtime's side only (got {doc['churn_runs_used']})")
expect("mpich" in doc["large_count"] and "openmpi" not in doc["large_count"],
       "large_count only where the runs reported the large-count figures")
expect(doc["latency_ratio"]["mpich"] == 1.15 and doc["latency_1024_ratio"]["mpich"] == 1.2,
       f"latency_ratio is the mean of the two latency ratios (got {doc['latency_ratio']})")
expect(doc["large_count"].get("mpich") == {"latency_0_c_ratio": 1.2, "message_rate_c_ratio": 0.7,
                                           "latency_0_c_vs_plain": round(1.2 / 1.1, 4),
                                           "message_rate_c_vs_plain": round(0.7 / 0.8, 4)},
       f"large_count's ratios and their quotients (got {doc['large_count']})")
expect(doc["request_bytes"] == {"mpich": 120, "openmpi": 120},
       "request_bytes from the runtime's runs")
expect(doc["paired_ratio"] == {"mpich": {"message_rate": 0.85, "churn_type": 1.4}},
       f"paired_ratio only for the metrics and flavours whose runs paired (got {doc['paired_ratio']})")

# --- the medians the drivers print ---
expect(run_bench.median_ratios([{"m": 1.0}, {"m": 3.0}, {"m": 2.0}], ("m",)) == {"m_ratio": 2.0},
       "median_ratios names each metric's median <metric>_ratio")
expect(run_bench.medians([{"m": 1.0}, {"m": 4.0}], ("m",)) == {"m": 2.5}, "medians")

# --- paired_ratios: the median of each metric's in-process pairs over the runs ---
paired = run_bench.paired_ratios([{"message_rate_paired_ratio": 0.8, "latency_0_paired_ratio": 1.2},
                                  {"message_rate_paired_ratio": 0.7},
                                  {"message_rate_paired_ratio": 0.9, "latency_0": 0.3}],
                                 ("latency_0", "message_rate", "churn_type"))
expect(paired == {"latency_0": 1.2, "message_rate": 0.8},
       f"paired_ratios: medians over the runs that paired each metric (got {paired})")

# --- run_floor.py main: each set's paired ratios, only where its runs paired ---
import os  # noqa: E402
import tempfile  # noqa: E402

import run_floor  # noqa: E402


def floor_beside(flavour, exe, lib, scale, timeout, **keywords):
    got = {"latency_0": 1.1, "latency_1024": 2.2, "message_rate": 90.0, "churn_comm": 4.0,
           "churn_type": 0.15, "churn_requests": 0.1}
    if "floor_state" in lib:
        got.update({"message_rate_paired_ratio": 0.95, "latency_0_paired_ratio": 1.02})
    if "libmpidbg_rt" in lib:
        got.update({"message_rate_paired_ratio": 0.8})
    return dict(PLAIN), got, (dict(PLAIN), dict(PLAIN))


with tempfile.TemporaryDirectory() as build:
    os.makedirs(os.path.join(build, "bench"))
    os.makedirs(os.path.join(build, "mpidbg"))
    made = [os.path.join(build, "bench", "mpi_bench_openmpi"),
            os.path.join(build, "mpidbg", "libmpidbg_rt_openmpi.so")]
    made += [os.path.join(build, "bench", f"libmpidbg_floor_{name}_openmpi.so")
             for name in ("pass", "state")]
    for path in made:
        open(path, "w").close()
    code, floor_doc = run_main(run_floor, ["--build-dir", build, "--flavours", "openmpi",
                                           "--rounds", "2"], run_beside_plain=floor_beside)
expect(code == 0 and sorted(floor_doc["floor"]["openmpi"]) == ["pass", "runtime", "state"],
       f"run_floor runs the built sets and the runtime (got {floor_doc['floor']})")
expect(floor_doc["paired_ratio"] == {"openmpi": {"state": {"latency_0": 1.02, "message_rate": 0.95},
                                                 "runtime": {"message_rate": 0.8}}},
       f"run_floor's paired_ratio: per set whose runs paired (got {floor_doc['paired_ratio']})")

# --- run_cost.py main: each configuration's paired ratios, where its runs paired ---
import run_cost  # noqa: E402


def cost_once(flavour, exe, runtime, scale, timeout, env=None, **keywords):
    got = {"latency_0": 1.0, "latency_1024": 2.0, "message_rate": 100.0}
    if runtime is not None:
        got["message_rate_paired_ratio"] = 0.7 if "MPIDBG_MONITOR" in (env or {}) else 0.8
    return got


code, cost_doc = run_main(run_cost, ["--build-dir", "b", "--flavours", "mpich", "--rounds", "2"],
                          run_once=cost_once, built=built_stub)
expect(code == 0 and cost_doc["paired_ratio"] == {"mpich": {
           "runtime": {"message_rate": 0.8}, "monitor": {"message_rate": 0.7},
           "profile": {"message_rate": 0.8}}},
       f"run_cost's paired_ratio: per configuration whose runs paired (got {cost_doc.get('paired_ratio')})")

# --- count_instructions.py: counted runs never pair (a paused call records nothing) ---
import count_instructions  # noqa: E402

for lib, churn in (("rt.so", True), ("floor.so", False), (None, True)):
    env = count_instructions.run_env(lib, churn)
    expect(env.get("MPIDBG_BENCH_PAIRED") == "0",
           f"count_instructions runs mpi_bench without paired batches (got {env})")
    expect(env.get("LD_PRELOAD") == lib and (env.get("MPIDBG_BENCH_CHURN") == "0") == (not churn),
           f"count_instructions preloads the library and leaves the churn out as asked (got {env})")

# --- run_apps.py: hpcc's input made from the package's example, its summary read ---
import run_apps  # noqa: E402

example = "\n".join(["HPLinpack benchmark input file", "Innovative Computing Laboratory",
                     "HPL.out      output file name (if any)", "8            device out",
                     "1            # of problems sizes (N)", "1000         Ns",
                     "1            # of NBs", "80           NBs",
                     "0            PMAP process mapping", "1            # of process grids (P x Q)",
                     "2            Ps", "2            Qs", "16.0         threshold"])
made = run_apps.input_file(example, 2500).splitlines()
expect(made[5].split()[0] == "2500" and made[5].endswith("Ns"),
       f"input_file sets the problem size on line 6 (got {made[5]!r})")
expect(made[10].split()[0] == "1" and made[11].split()[0] == "2",
       f"input_file sets a 1 x 2 grid (got {made[10]!r}, {made[11]!r})")
expect(made[7] == example.splitlines()[7] and len(made) == len(example.splitlines()),
       "input_file leaves the other lines")
summary = "\n".join(["Begin of Summary section.", "VersionMajor=1", "Success=1"]
                    + [f"{c}={i + 1}.5" for i, c in enumerate(run_apps.HPCC_COMPONENTS)]
                    + ["End of Summary section."])
parsed = run_apps.parse_summary(summary)
expect(parsed["HPL_Tflops"] == 1.5 and len(parsed) == len(run_apps.HPCC_COMPONENTS),
       f"parse_summary reads every component (got {parsed})")


expect_refused(run_apps.parse_summary, summary.replace("Success=1", "Success=0"), "Success=0")
expect_refused(run_apps.parse_summary, summary.replace("MPIRandomAccess_GUPs=", "X="),
               "a missing component")
expect(run_apps.cost("MPIRandomAccess_GUPs", 0.02, 0.01) == 2.0,
       "cost of a rate: plain / with (half the rate costs 2)")
expect(run_apps.cost("AvgPingPongLatency_usec", 0.4, 0.5) == 1.25,
       "cost of a latency: with / plain")
runs = [{"plain": {c: 1.0 for c in run_apps.HPCC_COMPONENTS},
         "runtime": {c: v for c in run_apps.HPCC_COMPONENTS}} for v in (0.5, 1.0, 2.0)]
got = run_apps.summarise(runs, ["runtime"], run_apps.HPCC_COMPONENTS)
expect(got["HPL_Tflops"]["cost"]["runtime"] == 1.0 and got["HPL_Tflops"]["runtime"] == 1.0,
       f"summarise: medians of the figures and of the per-round costs (got {got['HPL_Tflops']})")

# --- run_apps.py: LAMMPS's loop and communication times read from its screen output ---
lammps_out = "\n".join([
    "Loop time of 1.52203 on 2 procs for 4000 steps with 864 atoms", "",
    "MPI task timing breakdown:",
    "Section |  min time  |  avg time  |  max time  |%varavg| %total",
    "---------------------------------------------------------------",
    "Pair    | 0.82021    | 0.85173    | 0.88325    |   3.4 | 55.96",
    "Comm    | 0.30921    | 0.34235    | 0.37549    |   5.7 | 22.49",
    "Other   |            | 0.03145    |            |       |  2.07"])
got = run_apps.parse_lammps(lammps_out)
expect(got == {"Loop_time_s": 1.52203, "Comm_time_s": 0.34235},
       f"parse_lammps reads the loop time and the Comm row's average (got {got})")
expect_refused(run_apps.parse_lammps, lammps_out.replace("Loop time", "Loop"),
               "output without its loop time")
expect_refused(run_apps.parse_lammps, lammps_out.replace("Comm    |", "Comms"),
               "output without its Comm row")
expect(run_apps.cost("Loop_time_s", 1.5, 1.8) == 1.2, "cost of a LAMMPS time: with / plain")
lruns = [{"plain": {"Loop_time_s": 2.0, "Comm_time_s": 1.0},
          "runtime": {"Loop_time_s": 2.0 * v, "Comm_time_s": v}} for v in (1.0, 1.5, 1.1)]
lgot = run_apps.summarise(lruns, ["runtime"], run_apps.LAMMPS_COMPONENTS)
expect(sorted(lgot) == ["Comm_time_s", "Loop_time_s"] and lgot["Loop_time_s"]["cost"]["runtime"] == 1.1,
       f"summarise over LAMMPS's components (got {lgot})")

# --- run_apps.py: NetPIPE's one-way times, a median per band of message sizes ---
netpipe_out = "\n".join(["       1 10.894764   0.00000070", "       2 22.8   0.00000020",
                          "      64 900.0   0.00000030", "      96 700.0   0.00000104",
                          "     512 9000.0   0.00000040", "    1024 7352.564727   0.00000106",
                          "    2048 9000.0   0.00000900", "garbage line"])
got = run_apps.parse_netpipe(netpipe_out, "Preposted")
expect(sorted(got) == ["Preposted_mid_usec", "Preposted_small_usec"]
       and abs(got["Preposted_small_usec"] - 0.30) < 1e-9
       and abs(got["Preposted_mid_usec"] - 1.04) < 1e-9,
       f"parse_netpipe: medians of the one-way times in microseconds per band (got {got})")
expect(set(run_apps.NETPIPE_COMPONENTS) == {f"{m}_{b}_usec" for m in ("Blocking", "Preposted")
                                            for b in ("small", "mid")},
       "NetPIPE's components: each mode's bands")
expect_refused(lambda text: run_apps.parse_netpipe(text, "Blocking"),
               "\n".join(l for l in netpipe_out.splitlines() if not l.strip().startswith(("96", "512", "1024"))),
               "output without a mid-sized message")
expect(run_apps.cost("Blocking_small_usec", 0.4, 0.5) == 1.25, "cost of a NetPIPE time: with / plain")
expect(all(p.flavour in ("mpich", "openmpi") and set(p.shown) <= set(p.components)
           for p in run_apps.PROGRAMS.values()),
       "every program names its MPI and shows two of its own components")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
