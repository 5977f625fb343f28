#!/usr/bin/env python3
"""Generate a large, plain C99 translation unit for the compile-time benchmark.

usage: gen_large.py [--lines N] [--seed S] [-o FILE]

The output is deterministic for a given (lines, seed). It holds a mix of function
shapes -- counted and while loops, nested switches, struct manipulation through
pointers and by value, integer and floating arithmetic, calls between generated
functions, small arrays and string walks -- and a main() that calls every function
and prints a checksum, so the file is also a runnable program (compile with any C
compiler, run it, compare the printed line).  Only <stdio.h> is included, so the
measured time is dominated by the compiler's own work rather than header parsing.
"""
import argparse
import random
import sys


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.out = []
        self.funcs = []  # (name, kind) of already emitted functions, callable later
        self.nstructs = 0

    def emit(self, s=""):
        self.out.append(s)

    def lines(self):
        return len(self.out)

    # ---- expressions ------------------------------------------------------------------
    def iexpr(self, vars_, depth=0):
        r = self.r
        if depth > 2 or r.random() < 0.3:
            if r.random() < 0.6:
                return r.choice(vars_)
            return str(r.randint(1, 999)) + "u"
        a = self.iexpr(vars_, depth + 1)
        b = self.iexpr(vars_, depth + 1)
        op = r.choice(["+", "-", "*", "^", "&", "|", ">>", "<<", "/", "%"])
        if op in (">>", "<<"):
            return "(%s %s (%s & 15u))" % (a, op, b)
        if op in ("/", "%"):
            return "(%s %s ((%s) | 1u))" % (a, op, b)
        return "(%s %s %s)" % (a, op, b)

    def fexpr(self, vars_, depth=0):
        r = self.r
        if depth > 2 or r.random() < 0.3:
            if r.random() < 0.6:
                return r.choice(vars_)
            return "%.3f" % r.uniform(0.5, 4.0)
        a = self.fexpr(vars_, depth + 1)
        b = self.fexpr(vars_, depth + 1)
        op = r.choice(["+", "-", "*", "*", "/"])
        if op == "/":
            return "(%s / (1.0 + (%s) * (%s)))" % (a, b, b)
        return "(%s %s %s)" % (a, op, b)

    def cond(self, vars_):
        r = self.r
        return "(%s %s %s)" % (r.choice(vars_), r.choice(["<", ">", "<=", ">=", "==", "!="]),
                               self.iexpr(vars_, 2))

    # ---- top-level pieces -------------------------------------------------------------
    def struct(self):
        k = self.nstructs
        self.nstructs += 1
        r = self.r
        nf = r.randint(3, 7)
        fields = []
        self.emit("struct s%d {" % k)
        for i in range(nf):
            t = r.choice(["unsigned", "int", "short", "unsigned char", "long", "double"])
            fields.append((t, "f%d" % i))
            self.emit("    %s f%d;" % (t, i))
        self.emit("    unsigned arr[%d];" % r.randint(2, 8))
        self.emit("};")
        self.emit()
        return k, fields

    def f_loop(self, name):
        r = self.r
        v = ["a", "b", "c", "i", "acc"]
        self.emit("static unsigned %s(unsigned a, unsigned b) {" % name)
        self.emit("    unsigned c = a ^ 0x%xu, acc = 0;" % r.randint(0, 0xffff))
        self.emit("    unsigned i;")
        self.emit("    for (i = 0; i < (b & 63u) + %du; i++) {" % r.randint(1, 20))
        for _ in range(r.randint(3, 8)):
            tgt = r.choice(["acc", "c", "a"])
            if r.random() < 0.3:
                self.emit("        if %s" % self.cond(v))
                self.emit("            %s += %s;" % (tgt, self.iexpr(v)))
                self.emit("        else")
                self.emit("            %s ^= %s;" % (tgt, self.iexpr(v)))
            else:
                self.emit("        %s = %s;" % (tgt, self.iexpr(v)))
        self.emit("    }")
        self.emit("    while (c > %du) {" % r.randint(100, 5000))
        self.emit("        c = (c >> 1) ^ (c & %du);" % r.randint(1, 30))
        self.emit("        acc += c;")
        self.emit("    }")
        self.emit("    return acc + c;")
        self.emit("}")
        self.emit()

    def f_switch(self, name):
        r = self.r
        v = ["x", "y", "s"]
        self.emit("static unsigned %s(unsigned x, unsigned y) {" % name)
        self.emit("    unsigned s = y;")
        self.emit("    int k;")
        self.emit("    for (k = 0; k < %d; k++) {" % r.randint(4, 16))
        n = r.randint(5, 24)
        self.emit("        switch ((x + (unsigned)k) %% %du) {" % (n + r.randint(0, 3)))
        cases = sorted(r.sample(range(n + 3), n))
        for c in cases:
            self.emit("        case %d:" % c)
            for _ in range(r.randint(1, 3)):
                self.emit("            s = %s;" % self.iexpr(v))
            if r.random() < 0.8:
                self.emit("            break;")
        self.emit("        default:")
        self.emit("            s += %du;" % r.randint(1, 99))
        self.emit("            break;")
        self.emit("        }")
        self.emit("        x = x * %du + s;" % r.choice([3, 5, 7, 33, 65599]))
        self.emit("    }")
        self.emit("    return s ^ x;")
        self.emit("}")
        self.emit()

    def f_struct(self, name, sk, fields):
        r = self.r
        self.emit("static unsigned %s(struct s%d *p, unsigned n) {" % (name, sk))
        self.emit("    struct s%d t = *p;" % sk)
        self.emit("    unsigned h = n;")
        self.emit("    unsigned j;")
        for t, f in fields:
            if t == "double":
                self.emit("    t.%s = t.%s * 0.5 + (double)(n & 7u);" % (f, f))
                self.emit("    h += (unsigned)(long)t.%s;" % f)
            else:
                self.emit("    t.%s = (%s)(t.%s + (%s)(h & 0x3fu));" % (f, t, f, t))
                self.emit("    h = h * 31u + (unsigned)t.%s;" % f)
        self.emit("    for (j = 0; j < sizeof t.arr / sizeof t.arr[0]; j++) {")
        self.emit("        t.arr[j] = t.arr[j] * %du + h;" % r.randint(2, 40))
        self.emit("        h ^= t.arr[j] >> %d;" % r.randint(1, 9))
        self.emit("    }")
        self.emit("    *p = t;")
        self.emit("    return h;")
        self.emit("}")
        self.emit()

    def f_float(self, name):
        r = self.r
        v = ["x", "y", "z", "w"]
        self.emit("static double %s(double x, double y) {" % name)
        self.emit("    double z = x * %.3f, w = y - %.3f;" % (r.uniform(0.1, 2), r.uniform(0.1, 2)))
        self.emit("    int i;")
        self.emit("    for (i = 0; i < %d; i++) {" % r.randint(3, 12))
        for _ in range(r.randint(2, 6)):
            self.emit("        %s = %s;" % (r.choice(["z", "w"]), self.fexpr(v)))
        self.emit("        if (!(z > -1e6 && z < 1e6)) z = 1.5;")
        self.emit("        if (!(w > -1e6 && w < 1e6)) w = 1.0;")
        self.emit("        x = x * 0.5 + 0.25;")
        self.emit("    }")
        self.emit("    return z + w * 0.001;")
        self.emit("}")
        self.emit()

    def f_calls(self, name):
        r = self.r
        self.emit("static unsigned %s(unsigned a, unsigned b) {" % name)
        self.emit("    unsigned h = a + b;")
        cands = [f for f in self.funcs[-60:] if f[1] in ("loop", "switch", "string")]
        for fname, kind in r.sample(cands, min(len(cands), r.randint(2, 6))):
            self.emit("    h = h * 7u + %s(h ^ %du, b + %du);" % (fname, r.randint(0, 999), r.randint(0, 99)))
            if r.random() < 0.4:
                self.emit("    if (h & 1u) h = %s(b, h);" % fname)
        self.emit("    return h;")
        self.emit("}")
        self.emit()

    def f_string(self, name):
        r = self.r
        words = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "tau", "psi"]
        strs = r.sample(words, 4)
        self.emit("static unsigned %s(unsigned a, unsigned b) {" % name)
        self.emit("    static const char *const tab[] = {%s};" % ", ".join('"%s%d"' % (w, r.randint(0, 99)) for w in strs))
        self.emit("    char buf[32];")
        self.emit("    const char *s = tab[(a + b) & 3u];")
        self.emit("    unsigned h = %du, n = 0;" % r.randint(1, 100000))
        self.emit("    while (*s && n < sizeof buf - 1) {")
        self.emit("        buf[n] = (char)(*s + (char)(b & %du));" % r.randint(0, 3))
        self.emit("        h = h * 33u + (unsigned char)buf[n];")
        self.emit("        s++; n++;")
        self.emit("    }")
        self.emit("    buf[n] = 0;")
        self.emit("    for (n = 0; buf[n]; n++)")
        self.emit("        h ^= (unsigned)buf[n] << (n & 7u);")
        self.emit("    return h;")
        self.emit("}")
        self.emit()

    def generate(self, target_lines):
        self.emit("/* generated by benches/c/gen_large.py -- do not edit */")
        self.emit("#include <stdio.h>")
        self.emit()
        structs = []
        n = 0
        while self.lines() < target_lines - 200 - 3 * len(self.funcs):
            kind = self.r.choice(["loop", "loop", "switch", "switch", "struct", "float", "calls", "string"])
            name = "fn%d" % n
            n += 1
            if kind == "struct":
                if not structs or self.r.random() < 0.3:
                    structs.append(self.struct())
                sk, fields = self.r.choice(structs)
                self.f_struct(name, sk, fields)
                self.funcs.append((name, "struct", sk))
                continue
            if kind == "calls" and len(self.funcs) < 10:
                kind = "loop"
            getattr(self, "f_" + kind)(name)
            self.funcs.append((name, kind))
        # main: call everything once
        self.emit("int main(void) {")
        self.emit("    unsigned h = 1;")
        self.emit("    double d = 0.0;")
        for i, (sk, _) in enumerate(structs):
            self.emit("    struct s%d v%d = {0};" % (sk, i))
        index = {sk: i for i, (sk, _) in enumerate(structs)}
        for f in self.funcs:
            name, kind = f[0], f[1]
            if kind == "struct":
                self.emit("    h = h * 3u + %s(&v%d, h);" % (name, index[f[2]]))
            elif kind == "float":
                self.emit("    d = d * 0.5 + %s((double)(h & 255u) * 0.01, d * 0.001);" % name)
            else:
                self.emit("    h = h * 3u + %s(h, %du);" % (name, self.r.randint(0, 200)))
        self.emit('    printf("%u %.6f\\n", h, d);')
        self.emit("    return 0;")
        self.emit("}")
        return "\n".join(self.out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=40000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    text = Gen(a.seed).generate(a.lines)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
