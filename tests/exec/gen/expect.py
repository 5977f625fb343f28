#!/usr/bin/env python3
"""Write the .expected file of execution-corpus programs, using gcc as referee.

Usage: expect.py [--check] [FILE.c | DIR ...]   (default: all of tests/exec)

Each program is compiled with `gcc -O0 -w`, `gcc -O2 -w` and
`gcc -O1 -w -fsanitize=undefined,address -fno-sanitize-recover=all`, plus the
flags of a first-line `// link: ...` comment, and run. All three must exit
with status 0 and print the same output (otherwise the program has undefined
behaviour or depends on the optimiser: fix the program). The -O0 output is
written to NAME.expected; with --check it is only compared with it.
"""
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = [
    ["-O0", "-w"],
    ["-O2", "-w"],
    ["-O1", "-w", "-fsanitize=undefined,address", "-fno-sanitize-recover=all"],
]


def link_flags(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline().strip()
    if first.startswith("// link:"):
        return first[len("// link:"):].split()
    return []


def run(path, tmp, flags):
    exe = os.path.join(tmp, "a.out")
    cc = subprocess.run(["gcc", *flags, path, "-o", exe, *link_flags(path)],
                        capture_output=True, text=True)
    if cc.returncode != 0:
        return None, "compile failed: " + cc.stderr[:600]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    try:
        r = subprocess.run([exe], capture_output=True, timeout=10, env=env, cwd=tmp)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    if r.returncode != 0:
        return None, f"exit {r.returncode}: {r.stderr.decode(errors='replace')[:600]}"
    return r.stdout, None


def process(path, check):
    rel = os.path.relpath(path, ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        outs = []
        for flags in VARIANTS:
            out, err = run(path, tmp, flags)
            if err:
                return f"{rel} [{' '.join(flags)}]: {err}"
            outs.append(out)
    if any(o != outs[0] for o in outs):
        return f"{rel}: output differs between gcc variants"
    if not outs[0]:
        return f"{rel}: prints nothing"
    exp = path[:-2] + ".expected"
    if check:
        try:
            with open(exp, "rb") as f:
                if f.read() != outs[0]:
                    return f"{rel}: .expected is stale"
        except FileNotFoundError:
            return f"{rel}: no .expected"
    else:
        with open(exp, "wb") as f:
            f.write(outs[0])
    return None


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"] or [ROOT]
    files = []
    for a in args:
        if os.path.isdir(a):
            for d, _, names in os.walk(a):
                files += [os.path.join(d, n) for n in names if n.endswith(".c")]
        else:
            files.append(a)
    files.sort()
    with ThreadPoolExecutor(max_workers=2) as ex:
        errs = [e for e in ex.map(lambda p: process(p, check), files) if e]
    for e in errs:
        print(e)
    print(f"{len(files)} programs, {len(errs)} problems")
    sys.exit(1 if errs else 0)


if __name__ == "__main__":
    main()
