#!/usr/bin/env python3
"""browser_test.py — the --html pages opened in a real browser (Debian's Chromium, headless).

For each page (`job --html` of a saved 4-rank collective mismatch, `matrix --html` and
`profile --html` of the runtime's saved files): the page is written by mpidbg, its DOM
dumped once the browser has run its script (`--dump-dom`), and a screenshot taken.
Checked: the script ran to its end with no error (`data-page-ready="yes"`, no
`data-script-errors`), the DOM holds the verdict and the classes (or the page's
figures), a rank's detail opens on demand (`page.html#rank-N`), and the screenshot is
not blank (the PNG decoded here with zlib: enough pixels away from the background).

Every browser runs in a session of its own with its own profile folder; the session is
killed when the browser ends or its time is up, and any process still naming the
profile folder after it, so no browser is left behind.

    browser_test.py --mpidbg PATH --data DIR --host-data DIR [--chromium PATH]

Exit 0 passed, 1 failed, 77 skipped (no Chromium installed: `apt-get install chromium`).
"""
import argparse
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
BROWSER_SECONDS = 60


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120, **kw)


def kill_leftovers(marker):
    """Kill processes whose command line names `marker` (our own profile folder)."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if marker.encode() in cmdline:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass


def browse(chromium, profile, args, url):
    """Run the browser once on `url`; its stdout. Never leaves a process behind."""
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--disable-extensions", "--disable-dev-shm-usage", "--hide-scrollbars",
           f"--user-data-dir={profile}"] + args + [url]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=BROWSER_SECONDS)
    except subprocess.TimeoutExpired:
        out = b""
        print(f"FAIL: the browser did not finish {url} within {BROWSER_SECONDS} s")
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        kill_leftovers(profile)
    return out.decode("utf-8", "replace")


def png_pixels(path):
    """(width, height, channels, rows of bytes) of an 8-bit RGB/RGBA/grey PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (0, 2, 4, 6):
                raise ValueError(f"PNG depth {depth} colour type {colour} not handled")
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def not_blank(path):
    """Why the screenshot looks blank, or "" when it does not."""
    width, height, channels, rows = png_pixels(path)
    background = rows[0][:3] if channels >= 3 else rows[0][:1]
    differ, values = 0, []
    for row in rows[::4]:
        for x in range(0, width, 4):
            px = row[x * channels:x * channels + min(channels, 3)]
            values.append(sum(px) / len(px))
            differ += px != background
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / len(values)
    share = differ / len(values)
    print(f"  screenshot {width}x{height}: {share:.1%} of pixels off the background, "
          f"variance {variance:.0f}")
    if share < 0.02 or variance < 50:
        return f"blank-looking screenshot ({share:.1%} of pixels drawn, variance {variance:.0f})"
    return ""


def check_page(chromium, work, name, html, expect, rank):
    failures = []
    url = "file://" + html
    profile = os.path.join(work, "profile-" + name)
    dom = browse(chromium, profile, ["--dump-dom"], url)
    print(f"{name}: {os.path.getsize(html)} bytes, DOM {len(dom)} characters")
    if 'data-page-ready="yes"' not in dom:
        failures.append(f"{name}: the page's script did not run to its end")
    if 'data-script-errors="' in dom:
        start = dom.find('data-script-errors="')
        failures.append(f"{name}: script error: {dom[start:start + 300]}")
    for text in expect:
        if text not in dom:
            failures.append(f"{name}: the page does not show {text!r}")
    if rank is not None:
        detail = browse(chromium, profile, ["--dump-dom"], f"{url}#rank-{rank[0]}")
        if f"<h3>rank {rank[0]}<button" not in detail or rank[1] not in detail:
            failures.append(f"{name}: rank {rank[0]}'s detail did not open from #rank-{rank[0]}")
        if 'data-script-errors="' in detail:
            failures.append(f"{name}: script error while showing rank {rank[0]}")
    shot = os.path.join(work, name + ".png")
    browse(chromium, profile, [f"--screenshot={shot}", "--window-size=1200,900"], url)
    if not os.path.exists(shot):
        failures.append(f"{name}: no screenshot was written")
    else:
        why = not_blank(shot)
        if why:
            failures.append(f"{name}: {why}")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpidbg", required=True)
    ap.add_argument("--data", required=True, help="tests/page/data")
    ap.add_argument("--host-data", required=True, help="tests/host/data")
    ap.add_argument("--chromium", default="")
    a = ap.parse_args()
    chromium = a.chromium if a.chromium and os.access(a.chromium, os.X_OK) else (
        shutil.which("chromium") or shutil.which("chromium-browser"))
    if not chromium:
        print("SKIP: Chromium is not installed (Debian: apt-get install chromium); "
              "the pages were not opened in a browser")
        return SKIP

    work = tempfile.mkdtemp(prefix="mpidbg-pages-")
    failures = []
    try:
        pages = {
            "job": (["job", "--snapshots", os.path.join(a.data, "collective_mismatch")], 0,
                    ["DEADLOCK: ranks 0-3 can never proceed",
                     "COLLECTIVE MISMATCH on MPI_COMM_WORLD",
                     "ranks 0,2</span> (2)", "MPI_Allreduce(comm=MPI_COMM_WORLD)",
                     "MPI_Barrier(comm=MPI_COMM_WORLD)", "MPI_Bcast(root=0, comm=MPI_COMM_WORLD)",
                     "main at collective_mismatch.c:20", "collective mismatch"],
                    (3, "stack, innermost first")),
            "matrix": (["matrix", os.path.join(a.host_data, "monitor_4ranks.json")], 0,
                       ["p2p: 7.0 MiB in 35 messages", "7.0 MiB</text>", "max 7.0 MiB",
                        "rank 3 to rank 0: 7340032 bytes (7.0 MiB)"],
                       (1, "sent_bytes")),
            "profile": (["profile", os.path.join(a.host_data, "profile_2ranks.json")], 0,
                        ["in MPI, blocked: 36.0% of the time sampled", "MPI_Recv", "rank 1"],
                        (1, "samples")),
        }
        for name, (args, status, expect, rank) in pages.items():
            html = os.path.join(work, name + ".html")
            r = run([a.mpidbg] + args + ["--html", html])
            if r.returncode != status or not os.path.exists(html):
                failures.append(f"{name}: mpidbg {' '.join(args)} --html exited {r.returncode}: "
                                f"{r.stderr.strip()}")
                continue
            failures += check_page(chromium, work, name, html, expect, rank)
    finally:
        kill_leftovers(work)
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    print("browser test:", "failed" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
