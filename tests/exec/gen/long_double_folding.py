#!/usr/bin/env python3
"""Generates tests/exec/float/long_double_folding.c: static initialisers folded in
long double precision (random expressions over literals, wide integers and __int128,
with comparisons and conversions). Deterministic: a fixed seed."""
import os
import random

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "float")

random.seed(20261129)
def lit():
    k=random.random()
    if k<0.3: return "%d.0L"%random.randint(-1000,1000)
    if k<0.5: return "%.*eL"%(random.randint(1,25), random.uniform(-1e3,1e3)*10**random.randint(-300,300))
    if k<0.6: return "0x%xp%dL"%(random.getrandbits(70), random.randint(-16500,16300))
    if k<0.7: return "(long double)%dULL"%random.getrandbits(64)
    if k<0.8: return "%.17g"%random.uniform(-10,10)
    if k<0.85: return "(long double)(__int128)%d"%random.getrandbits(120)
    return "%d.0f"%random.randint(-50,50)
def expr(d):
    if d==0 or random.random()<0.3: return lit()
    return "(%s %s %s)"%(expr(d-1), random.choice("+-*/"), expr(d-1))
lines=[expr(3) for i in range(80)]
with open(os.path.join(OUT, "long_double_folding.c"), "w") as f:
    f.write("""/* Static initialisers folded in long double (x87 extended) precision, rounded once
   per operation as the hardware does: random expressions over decimal and hex
   literals (subnormal to huge), integers wider than a double's mantissa and
   __int128 values, then comparisons and conversions to double, float and long long
   (in range). Expected output from gcc 12. */
#include <stdio.h>
#include <string.h>
static const long double v[] = {
""")
    f.write(",\n".join(lines))
    f.write("};\nstatic const int c[] = {\n")
    f.write(",\n".join("(%s) < (%s)"%(lines[i],lines[i+1]) for i in range(0,78,2)))
    f.write("};\nstatic const double dd[] = {\n" + ",\n".join(lines[:25]) + "};\n")
    f.write("static const float ff[] = {\n" + ",\n".join(lines[25:50]) + "};\n")
    f.write("static const long long ll[] = {\n" + ",\n".join("(%s / 1e4000L > 9e18L || %s / 1e4000L < -9e18L) ? -1 : (long long)(%s / 1e4000L)"%(l,l,l) for l in lines[50:75]) + "};\n")
    f.write("""
int main(void) {
    for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
        unsigned char b[16] = {0};
        memcpy(b, &v[i], 10);
        for (int k = 9; k >= 0; k--) printf("%02x", b[k]);
        printf("\\n");
    }
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) printf("%d", c[i]);
    printf("\\n");
    for (unsigned i = 0; i < 25; i++) printf("%a %a %lld\\n", dd[i], ff[i], ll[i]);
    return 0;
}
""")
