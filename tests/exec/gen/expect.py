#!/usr/bin/env python3
"""Write the .expected file of execution-corpus programs, using gcc as referee.

Usage: expect.py [--check] [--target=aarch64] [FILE.c | DIR ...]   (default: all of tests/exec)

Each program is compiled with `gcc -O0 -w`, `gcc -O2 -w` and
`gcc -O1 -w -fsanitize=undefined,address -fno-sanitize-recover=all`, plus the
flags of a first-line `// link: ...` comment, and run. All three must exit
with status 0 and print the same output (otherwise the program has undefined
behaviour or depends on the optimiser: fix the program). The -O0 output is
written to NAME.expected; with --check it is only compared with it.

With --target=aarch64 the referee is aarch64-linux-gnu-gcc and the programs run
under `qemu-aarch64 -L /usr/aarch64-linux-gnu` (the sanitizer variant with UBSan only:
ASan under qemu is too slow). Where the output differs from
NAME.expected (implementation-defined behaviour: plain char is unsigned on
AArch64, long double is binary128) it is written to NAME.aarch64.expected, which
the aarch64 corpus uses instead; where it is the same, a stale
NAME.aarch64.expected is removed. Programs whose header says `// target: X` run
only for target X.
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


class Target:
    def __init__(self, name, cc, runner, suffix, variants):
        self.name, self.cc, self.runner, self.suffix = name, cc, runner, suffix
        self.variants = variants


TARGETS = {
    "x86_64": Target("x86_64", "gcc", [], ".expected", VARIANTS),
    # AddressSanitizer under qemu-user takes minutes per program: UBSan only there (the
    # x86-64 run has checked the programs with ASan).
    "aarch64": Target("aarch64", "aarch64-linux-gnu-gcc",
                      ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"], ".aarch64.expected",
                      [["-O0", "-w"], ["-O2", "-w"],
                       ["-O1", "-w", "-fsanitize=undefined", "-fno-sanitize-recover=all"]]),
}


def header(path):
    """The directives of the program's leading `// key: value` comment lines."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("//"):
                break
            key, sep, value = line[2:].partition(":")
            if sep and key.strip() in ("link", "target"):
                out[key.strip()] = value.split()
    return out


def link_flags(path):
    return header(path).get("link", [])


def run(path, tmp, flags, target):
    exe = os.path.join(tmp, "a.out")
    cc = subprocess.run([target.cc, *flags, path, "-o", exe, *link_flags(path)],
                        capture_output=True, text=True)
    if cc.returncode != 0:
        return None, "compile failed: " + cc.stderr[:600]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    try:
        r = subprocess.run([*target.runner, exe], capture_output=True, timeout=10, env=env, cwd=tmp)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    if r.returncode != 0:
        return None, f"exit {r.returncode}: {r.stderr.decode(errors='replace')[:600]}"
    return r.stdout, None


def process(path, check, target):
    rel = os.path.relpath(path, ROOT)
    only = header(path).get("target")
    if only and target.name not in only:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        outs = []
        for flags in target.variants:
            out, err = run(path, tmp, flags, target)
            if err:
                return f"{rel} [{' '.join(flags)}]: {err}"
            outs.append(out)
    if any(o != outs[0] for o in outs):
        return f"{rel}: output differs between gcc variants"
    if not outs[0]:
        return f"{rel}: prints nothing"
    exp = path[:-2] + ".expected"
    if target.suffix != ".expected" and only != [target.name]:
        # A per-target file only where the target's output differs from the common one.
        try:
            with open(exp, "rb") as f:
                common = f.read()
        except FileNotFoundError:
            common = None
        own = path[:-2] + target.suffix
        if common == outs[0]:
            if os.path.exists(own):
                if check:
                    return f"{rel}: {target.suffix} is the same as .expected (remove it)"
                os.remove(own)
            return None
        exp = own
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
    target = TARGETS["x86_64"]
    for a in args:
        if a.startswith("--target="):
            target = TARGETS[a[len("--target="):]]
    args = [a for a in args if a != "--check" and not a.startswith("--target=")] or [ROOT]
    files = []
    for a in args:
        if os.path.isdir(a):
            for d, _, names in os.walk(a):
                files += [os.path.join(d, n) for n in names if n.endswith(".c")]
        else:
            files.append(a)
    files.sort()
    with ThreadPoolExecutor(max_workers=2) as ex:
        errs = [e for e in ex.map(lambda p: process(p, check, target), files) if e]
    for e in errs:
        print(e)
    print(f"{len(files)} programs, {len(errs)} problems")
    sys.exit(1 if errs else 0)


if __name__ == "__main__":
    main()
