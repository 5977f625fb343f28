#!/usr/bin/env python3
"""invalid-expect.py -- (re)writes tests/invalid/NAME.expected from gcc.

usage: scripts/invalid-expect.py [--check CC] [NAME.c ...]

Each tests/invalid/NAME.c is a program with a constraint violation (or, for warning
tests, a -Wall/-Wextra finding). Its first line may be `// options: ...` with options
for both compilers. NAME.expected holds the diagnostics gcc 12 gives for it
(`gcc -fsyntax-only -std=gnu17`, or `-c -o /dev/null` when the options have -c;
LC_ALL=C), one `LINE:COL: level: message` line each
(the file name dropped; source excerpts, "In function" lines dropped), plus gcc's
"compilation terminated due to -fmax-errors=N." line.

One deliberate difference from gcc 12: the issue follows current gcc (14 and later),
where implicit function declarations and implicit int are errors in C99 and later. So
gcc 12 is run with -Werror=implicit-function-declaration -Werror=implicit-int and the
resulting `[-Werror=X]` tags are written as gcc 14 prints them, `[-WX]`.

With --check CC, compares CC's output with the .expected files instead and lists the
differences (what crates/neverc/tests/invalid.rs asserts).
"""
import os, re, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "..", "tests", "invalid")
PERMERRORS = ["implicit-function-declaration", "implicit-int"]
LINE = re.compile(r"^(\d+):(\d+): (error|warning|note|fatal error): ")


def options(path):
    with open(path) as f:
        first = f.readline()
    m = re.match(r"//\s*options:(.*)", first)
    return m.group(1).split() if m else []


def mode(opts):
    """-fsyntax-only, or for `-c` tests (warnings gcc gives only when it compiles, such
    as -Wreturn-type) an object written nowhere."""
    return ["-o", "/dev/null"] if "-c" in opts else ["-fsyntax-only"]


def diagnostics(stderr, name):
    """The location lines of a compiler's stderr, file name dropped."""
    out = []
    for line in stderr.splitlines():
        if line.startswith(name + ":"):
            rest = line[len(name) + 1:]
            if LINE.match(rest):
                out.append(rest)
        elif line.startswith("compilation terminated due to -fmax-errors"):
            out.append(line)
    return out


def gcc_expected(name):
    opts = options(os.path.join(DIR, name))
    extra = [] if "-w" in opts else ["-Werror=" + p for p in PERMERRORS]
    p = subprocess.run(["gcc"] + mode(opts) + ["-std=gnu17"] + extra + opts + [name],
                       cwd=DIR, capture_output=True, text=True,
                       env=dict(os.environ, LC_ALL="C"))
    lines = diagnostics(p.stderr, name)
    for perm in PERMERRORS:
        lines = [l.replace("[-Werror=%s]" % perm, "[-W%s]" % perm) for l in lines]
    return lines


def main():
    args = sys.argv[1:]
    cc = None
    if args[:1] == ["--check"]:
        cc, args = args[1], args[2:]
    names = args or sorted(n for n in os.listdir(DIR) if n.endswith(".c"))
    bad = 0
    for name in names:
        name = os.path.basename(name)
        exp_path = os.path.join(DIR, name[:-2] + ".expected")
        if cc is None:
            lines = gcc_expected(name)
            if not lines:
                print("no diagnostic from gcc:", name)
            with open(exp_path, "w") as f:
                f.write("".join(l + "\n" for l in lines))
            continue
        want = open(exp_path).read().splitlines()
        opts = options(os.path.join(DIR, name))
        p = subprocess.run([cc] + mode(opts) + ["-std=gnu17"] + opts + [name],
                           cwd=DIR, capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
        got = diagnostics(p.stderr, name)
        errors = any(": error: " in l for l in want)
        if got != want or (p.returncode != 0) != errors or p.returncode > 1:
            bad += 1
            print("==", name, "exit", p.returncode)
            for l in want:
                if l not in got:
                    print("  - " + l)
            for l in got:
                if l not in want:
                    print("  + " + l)
    if cc:
        print("%d of %d differ" % (bad, len(names)))


main()
