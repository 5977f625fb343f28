#!/usr/bin/env python3
"""Differential testing with csmith: random C programs compiled by gcc and by neverc must
print the same checksum.

Each seed: `csmith --seed S` writes a program; gcc -O0 builds the reference (a program that
gcc cannot build or that does not finish within the timeout is skipped: csmith programs may
loop for long); neverc builds it at each -O level given (x86-64 natively, or aarch64 under
qemu with --target aarch64) and its output must equal the reference. A compile error is
counted apart (a refusal by name is not wrong code, but is reported); a crash, a different
output or a hang of neverc's program is a failure, and its program is kept in --out.

usage: scripts/csmith-diff.py [--neverc PATH] [--count N | --minutes M] [--seed S]
                              [--target x86_64|aarch64] [--opts "-O0 -O1"]
Needs csmith and libcsmith-dev (scripts/setup.sh installs both).
"""
import argparse, os, shutil, subprocess, sys, tempfile, time

ap = argparse.ArgumentParser()
ap.add_argument("--neverc", default="target/release/neverc")
ap.add_argument("--count", type=int, default=100)
ap.add_argument("--minutes", type=float, default=None, help="stop after M minutes instead")
ap.add_argument("--seed", type=int, default=1, help="first csmith seed")
ap.add_argument("--target", choices=["x86_64", "aarch64"], default="x86_64")
ap.add_argument("--opts", default="-O0 -O1")
ap.add_argument("--timeout", type=float, default=10)
ap.add_argument("--out", default="csmith-failures")
a = ap.parse_args()

INC = "/usr/include/csmith"
if not shutil.which("csmith") or not os.path.isdir(INC):
    sys.exit("csmith-diff: csmith or libcsmith-dev is missing (sh scripts/setup.sh)")
neverc = os.path.abspath(a.neverc)
if a.target == "aarch64":
    gcc, ntarget = "aarch64-linux-gnu-gcc", ["--target=aarch64-linux-gnu"]
    run_prefix = ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"]
else:
    gcc, ntarget, run_prefix = "gcc", [], []


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


os.makedirs(a.out, exist_ok=True)
work = tempfile.mkdtemp(prefix="csmith-diff.")
counts = {"tried": 0, "skipped": 0, "passed": 0, "refused": 0, "failed": 0}
start = time.time()
seed = a.seed
try:
    while True:
        if a.minutes is not None:
            if time.time() - start > a.minutes * 60:
                break
        elif counts["tried"] >= a.count:
            break
        src = os.path.join(work, f"s{seed}.c")
        with open(src, "w") as f:
            subprocess.run(["csmith", "--seed", str(seed)], stdout=f, check=True)
        counts["tried"] += 1
        ref_exe = os.path.join(work, "ref")
        rc, _, _ = run([gcc, "-O0", "-w", "-I", INC, src, "-o", ref_exe], 120)
        ref = run(run_prefix + [ref_exe], a.timeout) if rc == 0 else (None, "", "")
        if ref[0] is None:
            counts["skipped"] += 1
            seed += 1
            continue
        for opt in a.opts.split():
            exe = os.path.join(work, "nev")
            rc, _, err = run([neverc] + ntarget + [opt, "-w", "-I", INC, src, "-o", exe], 120)
            verdict = None
            if rc is None or rc not in (0, 1):
                verdict = f"compiler crash or hang (status {rc})"
            elif rc == 1:
                if "cannot compile" in err:
                    counts["refused"] += 1
                    print(f"seed {seed} {opt}: refused: {err.strip().splitlines()[0]}")
                    continue
                verdict = "compile error: " + (err.strip().splitlines() or ["?"])[0]
            else:
                got = run(run_prefix + [exe], a.timeout * 3)
                if got[0] is None:
                    verdict = "hang"
                elif (got[0], got[1]) != (ref[0], ref[1]):
                    verdict = f"output differs: gcc {ref[1].strip()!r} (status {ref[0]}), neverc {got[1].strip()!r} (status {got[0]})"
            if verdict:
                counts["failed"] += 1
                shutil.copy(src, os.path.join(a.out, f"{a.target}-{seed}{opt}.c"))
                print(f"seed {seed} {opt}: FAIL: {verdict}", flush=True)
            else:
                counts["passed"] += 1
        seed += 1
finally:
    shutil.rmtree(work, ignore_errors=True)

print(f"{counts['tried']} programs ({a.target}, seeds {a.seed}..{seed - 1}): "
      f"{counts['skipped']} skipped (gcc timeout), {counts['passed']} compilations passed, "
      f"{counts['refused']} refused, {counts['failed']} failed")
sys.exit(1 if counts["failed"] else 0)
