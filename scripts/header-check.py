#!/usr/bin/env python3
"""header-check.py -- every /usr/include header alone through gcc and neverc.

usage: scripts/header-check.py [--cc target/release/neverc] [--jobs 2] [--root /usr/include]
                               [--list N] [--timeout SECONDS]

For each header under the root (and its x86_64-linux-gnu multiarch directory, named as
`#include <...>` finds them; the C++ library's directory skipped), compiles a file holding
only `#include <h>` with `-fsyntax-only -std=gnu17 -Wall` by gcc and by neverc, and
reports: how many headers gcc accepts, how many of those neverc accepts (the rest listed
with neverc's first error), and where the two disagree on -Wall warnings (a header with
a warning from one compiler and none from the other). Exit status 1 when neverc rejects a
header gcc accepts.

--timeout SECONDS (default 60) bounds each compiler run. A header gcc does not finish in time
is skipped (counted and listed, not compared); a header neverc does not finish in time (gcc
having accepted it or also timed out) is counted as a neverc failure and listed.
"""
import argparse, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

ap = argparse.ArgumentParser()
ap.add_argument("--cc", default="target/release/neverc")
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--root", default="/usr/include")
ap.add_argument("--list", type=int, default=40, help="how many of each finding to list")
ap.add_argument("--timeout", type=float, default=60, metavar="SECONDS",
                help="seconds allowed to each compiler run on one header (default 60)")
a = ap.parse_args()

MULTIARCH = "x86_64-linux-gnu"
names = set()
for base, prefix in [(a.root, ""), (os.path.join(a.root, MULTIARCH), "")]:
    for d, subdirs, files in os.walk(base):
        rel_dir = os.path.relpath(d, base)
        if base == a.root and (rel_dir.split(os.sep)[0] in ("c++", MULTIARCH)):
            subdirs[:] = []
            continue
        for f in files:
            if f.endswith(".h"):
                names.add(os.path.normpath(os.path.join(rel_dir, f)))
names = sorted(names)


TIMED_OUT = "timed out"


def run(cc, h):
    """(accepted, warnings, errors, exit status); exit status TIMED_OUT when the run took
    longer than --timeout (subprocess.run kills the compiler then)."""
    try:
        p = subprocess.run([cc, "-fsyntax-only", "-std=gnu17", "-Wall", "-x", "c", "-"],
                           input=f"#include <{h}>\n", capture_output=True, text=True,
                           env=dict(os.environ, LC_ALL="C"), timeout=a.timeout)
    except subprocess.TimeoutExpired:
        return False, [], [f"timed out after {a.timeout:g} s"], TIMED_OUT
    lines = p.stderr.splitlines()
    warnings = [l for l in lines if ": warning: " in l]
    errors = [l for l in lines if ": error: " in l or ": fatal error: " in l]
    return p.returncode == 0, warnings, errors, p.returncode


def both(h):
    return h, run("gcc", h), run(a.cc, h)


with ThreadPoolExecutor(a.jobs) as ex:
    results = list(ex.map(both, names))

gcc_timeout = [r for r in results if r[1][3] == TIMED_OUT]
never_timeout = [r for r in results if r[2][3] == TIMED_OUT
                 and (r[1][0] or r[1][3] == TIMED_OUT)]
gcc_ok = [r for r in results if r[1][0]]
rejected = [r for r in gcc_ok if not r[2][0] and r[2][3] != TIMED_OUT]
crashed = [r for r in results if r[2][3] not in (0, 1, TIMED_OUT)]
extra_ok = [r for r in results if not r[1][0] and r[1][3] != TIMED_OUT and r[2][0]]
both_ok = [r for r in gcc_ok if r[2][0]]
only_never_warns = [r for r in both_ok if r[2][1] and not r[1][1]]
only_gcc_warns = [r for r in both_ok if r[1][1] and not r[2][1]]
both_warn = [r for r in both_ok if r[1][1] and r[2][1]]

gcc_ok_never_timeout = [r for r in gcc_ok if r[2][3] == TIMED_OUT]
print(f"headers: {len(names)}; gcc accepts {len(gcc_ok)}; neverc accepts "
      f"{len(gcc_ok) - len(rejected) - len(gcc_ok_never_timeout)} of them "
      f"and rejects {len(rejected)}; neverc crashed on {len(crashed)}; "
      f"neverc accepts {len(extra_ok)} that gcc rejects")
print(f"timeouts ({a.timeout:g} s): gcc timed out on {len(gcc_timeout)} (skipped); "
      f"neverc timed out on {len(never_timeout)} (failures)")
print(f"-Wall on the {len(both_ok)} both accept: both warn {len(both_warn)}, only gcc warns "
      f"{len(only_gcc_warns)}, only neverc warns {len(only_never_warns)}, neither {len(both_ok) - len(both_warn) - len(only_gcc_warns) - len(only_never_warns)}")
for title, rs, pick in [("rejected by neverc", rejected, lambda r: (r[2][2] or ["?"])[0]),
                        ("crashed neverc", crashed, lambda r: str(r[2][3])),
                        ("neverc timed out: a failure", never_timeout,
                         lambda r: "gcc also timed out" if r[1][3] == TIMED_OUT
                         else "gcc accepts it"),
                        ("gcc timed out: skipped", gcc_timeout, lambda r: r[1][2][0]),
                        ("only neverc warns", only_never_warns, lambda r: r[2][1][0]),
                        ("only gcc warns", only_gcc_warns, lambda r: r[1][1][0])]:
    if rs:
        print(f"\n{title} ({len(rs)}):")
        for r in rs[:a.list]:
            print(f"  <{r[0]}>: {pick(r)[:220]}")
sys.exit(1 if rejected or crashed or never_timeout else 0)
