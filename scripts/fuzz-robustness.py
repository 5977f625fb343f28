#!/usr/bin/env python3
"""Robustness loop: mutated C programs through the whole compiler (neverc -c).

Takes the gcc torture suite's programs (or any directory of .c files), mutates each one
(byte flips, deleted or duplicated tokens and lines, spliced fragments of other files)
and compiles it with `neverc -w -c`. A crash (a panic, exit status 101, or a signal) or a
hang (over the timeout) is a failure; errors are fine. Prints the counts and keeps every
failing input in the output directory.

With --front-end, the inputs go through `neverc -fsyntax-only` instead, half of them with
-Wall -Wextra and every diagnostic printed (the front end's checks and its reporting),
and a quarter of them (--random-bytes) are random bytes rather than mutated programs.

usage: scripts/fuzz-robustness.py [--neverc PATH] [--minutes M] [--seed S] [--dir DIR]
                                  [--front-end] [--random-bytes FRACTION]
"""
import argparse, os, random, subprocess, sys, tempfile, time, glob

ap = argparse.ArgumentParser()
ap.add_argument("--neverc", default="target/release/neverc")
ap.add_argument("--minutes", type=float, default=10)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--dir", default=os.path.expanduser("~/.cache/neverc-corpus/gcc-12/execute"))
ap.add_argument("--timeout", type=float, default=10)
ap.add_argument("--out", default="fuzz-failures")
ap.add_argument("--front-end", action="store_true", help="neverc -fsyntax-only")
ap.add_argument("--random-bytes", type=float, default=None,
                help="share of random-byte inputs (default 0.25 with --front-end, else 0)")
a = ap.parse_args()
if a.random_bytes is None:
    a.random_bytes = 0.25 if a.front_end else 0.0

files = sorted(glob.glob(os.path.join(a.dir, "*.c")))
if not files:
    print(f"fuzz: no .c files in {a.dir}; skipped")
    sys.exit(0)
rng = random.Random(a.seed)
texts = [open(f, "rb").read() for f in files]
TOKENS = [b"(", b")", b"{", b"}", b";", b",", b"*", b"&", b"[", b"]", b"int", b"struct",
          b"union", b"0", b"-1", b"...", b"#", b"##", b"\"", b"'", b"sizeof", b"return",
          b"goto", b"case", b"__attribute__((packed))", b"long double", b"__int128",
          b"_Complex", b"volatile", b"static", b"extern", b"__builtin_va_arg", b"=", b"\\"]

def random_bytes() -> bytes:
    """Random bytes, sometimes biased to C's punctuation and keywords."""
    n = rng.randint(0, 4000)
    if rng.random() < 0.5:
        return bytes(rng.randrange(256) for _ in range(n))
    alphabet = TOKENS + [b" ", b"\n", b"a", b"x1", b"0x7f", b"1.5e3", b"L'a'", b"u8\"s\""]
    return b" ".join(rng.choice(alphabet) for _ in range(n // 4))

def mutate(t: bytes) -> bytes:
    t = bytearray(t)
    for _ in range(rng.randint(1, 4)):
        if not t:
            break
        k = rng.randrange(6)
        i = rng.randrange(len(t))
        if k == 0:
            t[i] = rng.randrange(256)
        elif k == 1:
            del t[i:i + rng.randint(1, 20)]
        elif k == 2:
            t[i:i] = rng.choice(TOKENS)
        elif k == 3:
            j = rng.randrange(len(t))
            t[i:i] = t[j:j + rng.randint(1, 80)]
        elif k == 4:
            other = rng.choice(texts)
            j = rng.randrange(max(1, len(other)))
            t[i:i] = other[j:j + rng.randint(1, 200)]
        else:
            lines = bytes(t).split(b"\n")
            if len(lines) > 2:
                n = rng.randrange(len(lines))
                lines.insert(n, lines[rng.randrange(len(lines))])
                t = bytearray(b"\n".join(lines))
    return bytes(t)

os.makedirs(a.out, exist_ok=True)
tmp = tempfile.mkdtemp(prefix="neverc-fuzz-")
end = time.time() + a.minutes * 60
tried = crashes = hangs = random_inputs = 0
while time.time() < end:
    if rng.random() < a.random_bytes:
        src = random_bytes()
        random_inputs += 1
    else:
        src = mutate(rng.choice(texts))
    path = os.path.join(tmp, "t.c")
    open(path, "wb").write(src)
    tried += 1
    if a.front_end:
        opt = rng.choice(["-w", "-Wall"])
        cmd = [a.neverc, "-fsyntax-only", path] + (["-Wall", "-Wextra"] if opt == "-Wall" else ["-w"])
    else:
        opt = rng.choice(["-O0", "-O1"])
        cmd = [a.neverc, "-w", opt, "-c", path, "-o", os.path.join(tmp, "t.o")]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=a.timeout)
        if p.returncode == 101 or p.returncode < 0:
            crashes += 1
            name = os.path.join(a.out, f"crash-{tried}{opt}.c")
            open(name, "wb").write(src)
            print(f"fuzz: crash ({p.returncode}) kept as {name}: "
                  + p.stderr.decode(errors="replace").splitlines()[-1:][0][:200]
                  if p.stderr else f"fuzz: crash kept as {name}")
    except subprocess.TimeoutExpired:
        hangs += 1
        name = os.path.join(a.out, f"hang-{tried}{opt}.c")
        open(name, "wb").write(src)
        print(f"fuzz: hang kept as {name}")
print(f"fuzz: {tried} inputs ({random_inputs} random bytes) in {a.minutes} minutes, "
      f"{crashes} crashes, {hangs} hangs")
sys.exit(1 if crashes or hangs else 0)
