//! Semantic analysis computes the values gcc computes: sizes, alignments and offsets of
//! records (through neverc-abi's layout), enum types and constants, integer constant
//! expressions. Every expected number below was printed by gcc 12 for x86_64-linux-gnu.

use neverc_front::diag::Diagnostics;
use neverc_front::parse::ast::{DeclKind, Init};
use neverc_front::parse::parse;
use neverc_front::pp::{PpOptions, Preprocessor, Std};
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Checks `src` for x86-64; returns the diagnostics and, for every file-scope object with
/// an expression initialiser, its name and the initialiser's value (None: not evaluated).
fn values(src: &str) -> (String, Vec<(String, Option<i128>)>) {
    let buf = Buf::default();
    let diags = Diagnostics::new(Box::new(buf.clone()));
    let opts = PpOptions {
        std: Std::default(),
        char_signed: true,
        wchar_bits: 32,
        wchar_signed: true,
        source_date_epoch: Some(0),
        ..Default::default()
    };
    let mut pp = Preprocessor::new(opts, diags);
    pp.enter_main("t.c", None, src.as_bytes().to_vec());
    let ast = parse(&mut pp);
    let target = neverc_target::lookup("x86_64-linux-gnu").unwrap();
    let typed = neverc_front::sema::check_target(&ast, &mut pp, target);
    let mut out = Vec::new();
    for &d in &ast.items {
        if let DeclKind::Vars { list, .. } = &ast.decl(d).kind {
            for id in list {
                if let (Some(n), Some(i)) = (id.decl.name, id.init) {
                    if let Init::Expr(e) = ast.init(i) {
                        let name = pp.interner.str(n).into_owned();
                        if name.starts_with("arr") {
                            continue;
                        }
                        out.push((name, typed.values.get(e).copied()));
                    }
                }
            }
        }
    }
    let d = String::from_utf8_lossy(&buf.0.lock().unwrap()).into_owned();
    (d, out)
}

fn check(src: &str, expected: &str) {
    let (d, vals) = values(src);
    assert_eq!(d, "", "diagnostics");
    let got: Vec<String> = vals
        .iter()
        .map(|(n, v)| match v {
            Some(v) => format!("{n} {v}"),
            None => format!("{n} ?"),
        })
        .collect();
    let want: Vec<&str> = expected.split_whitespace().collect::<Vec<_>>();
    let want: Vec<String> = want
        .chunks(2)
        .map(|c| format!("{} {}", c[0], c[1]))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn record_sizes_alignments_and_offsets_equal_gcc() {
    check(
        r#"struct a { char c; int i; };
struct b { char c; double d; char e; };
struct c { int x : 3; int y : 5; char z; };
struct d { char c; long double ld; };
union u { char c[5]; int i; };
struct e { int n; char tail[]; };
struct f { char c; struct a in; short s; };
struct __attribute__((packed)) g { char c; int i; };
struct h { char c; __int128 q; };
struct i { char c; int : 0; char d; };
struct j { long long x : 40; int y : 20; };
struct k { char c; struct { int a; char b; }; short t; };
struct l { char c __attribute__((aligned(16))); };
long s_a = sizeof(struct a), s_b = sizeof(struct b), s_c = sizeof(struct c), s_d = sizeof(struct d);
long s_u = sizeof(union u), s_e = sizeof(struct e), s_f = sizeof(struct f), s_g = sizeof(struct g);
long s_h = sizeof(struct h), s_i = sizeof(struct i), s_j = sizeof(struct j), s_k = sizeof(struct k);
long s_l = sizeof(struct l), al_l = _Alignof(struct l), al_d = _Alignof(struct d), al_b = __alignof__(struct b);
long o_k = __builtin_offsetof(struct k, t), o_kb = __builtin_offsetof(struct k, b), o_f = __builtin_offsetof(struct f, s);
"#,
        "s_a 8 s_b 24 s_c 4 s_d 32 s_u 8 s_e 4 s_f 16 s_g 5 s_h 32 s_i 5 s_j 8 s_k 16 \
         s_l 16 al_l 16 al_d 16 al_b 8 o_k 12 o_kb 8 o_f 12",
    );
}

/// A typedef with `aligned(N)` has exactly that alignment (it may lower it), keeps its
/// size, stays usable wherever its unaligned type is, and lays records out accordingly
/// (values from gcc 12, x86-64).
#[test]
fn aligned_typedefs_equal_gcc() {
    check(
        r#"typedef int T16 __attribute__((aligned(16)));
typedef T16 T4 __attribute__((aligned(4)));
typedef double D2 __attribute__((aligned(2)));
typedef const int __attribute__((aligned(8))) C8;
typedef struct { char c; } __attribute__((aligned(2))) R;
typedef R R8 __attribute__((aligned(8)));
struct s1 { T16 m; char c; };
struct s2 { char c; D2 d; };
struct s3 { char c; C8 x; };
struct s4 { char c; R8 r; D2 e[3]; };
union u5 { char c[3]; T4 t; };
struct s6 { char c; volatile T16 v; };
long s1 = sizeof(struct s1), a1 = _Alignof(struct s1), s2 = sizeof(struct s2), a2 = _Alignof(struct s2);
long s3 = sizeof(struct s3), o3 = __builtin_offsetof(struct s3, x), s4 = sizeof(struct s4), o4 = __builtin_offsetof(struct s4, e[2]);
long s5 = sizeof(union u5), a5 = _Alignof(union u5), s6 = sizeof(struct s6), o6 = __builtin_offsetof(struct s6, v);
long at16 = _Alignof(T16), at4 = __alignof__(T4), ad2 = _Alignof(D2), ar8 = _Alignof(R8), sr8 = sizeof(R8);
"#,
        "s1 16 a1 16 s2 10 a2 2 s3 16 o3 8 s4 40 o4 26 s5 4 a5 4 s6 32 o6 16 \
         at16 16 at4 4 ad2 2 ar8 8 sr8 2",
    );
}

/// A vector wider than BIGGEST_ALIGNMENT is laid out at its size's alignment, which GNU
/// `__alignof__` reports, while C11 `_Alignof` caps an alignment the user did not give at
/// 16 (values from gcc 12, x86-64).
#[test]
fn wide_vectors_alignof_and_gnu_alignof_equal_gcc() {
    check(
        r#"typedef int V32 __attribute__((vector_size(32)));
typedef V32 V32a __attribute__((aligned(8)));
struct A { char c; V32 v; };
struct E { char c; V32a v; };
struct F { char c; V32 v __attribute__((aligned(4))); };
struct G { char c; V32 v; short s __attribute__((aligned(16))); };
long sa = sizeof(struct A), oa = __builtin_offsetof(struct A, v), aa = _Alignof(struct A);
long ga = __alignof__(struct A), av = _Alignof(V32), gv = __alignof__(V32);
long ae = _Alignof(struct E), af = _Alignof(struct F), ag = _Alignof(struct G);
"#,
        "sa 64 oa 32 aa 16 ga 32 av 16 gv 32 ae 8 af 16 ag 32",
    );
}

#[test]
fn enum_types_and_constants_equal_gcc() {
    check(
        r#"enum E1 { A1 = -1, B1 = 2 };
enum E2 { A2 = 0x80000000 };
enum E3 { A3 = 0x100000000, B3 };
enum E4 { X4 = 5, Y4, Z4 = X4 + Y4 * 2 };
long e1 = sizeof(enum E1), e2 = sizeof(enum E2), e3 = sizeof(enum E3), b3 = B3, z4 = Z4;
long sa2 = sizeof(A2), sb1 = sizeof(B1);
"#,
        "e1 4 e2 4 e3 8 b3 4294967297 z4 17 sa2 4 sb1 4",
    );
}

#[test]
fn integer_constant_expressions_equal_gcc() {
    check(
        r#"long c1 = (unsigned)-1 > 0, c2 = -1 < 0u, c3 = (signed char)200, c4 = 7 / 2 * 2 + 7 % 3, c5 = 1 << 31 >> 31;
long c6 = sizeof(1 ? (char)1 : 2.0), c7 = sizeof 'a', c8 = sizeof "abc", c9 = sizeof(int[3][5]);
long c10 = -1L >> 70 - 64, c11 = (unsigned char)0x1ff, c12 = !0 + ~0 + (0 ? 3 : 4), c13 = sizeof(long double _Complex);
long c14 = __builtin_types_compatible_p(int, const int), c15 = __builtin_types_compatible_p(int *, long *);
long c16 = _Generic(1.0f, float: 1, double: 2, default: 3), c17 = sizeof(char[]){1, 2, 3};
char arr1[] = "hello"; int arr2[] = {1, 2, [10] = 3, 4}; struct a { char c; int i; } arr3[] = {1, 2, 3, 4, 5};
long c18 = sizeof arr1, c19 = sizeof arr2, c20 = sizeof arr3, c21 = sizeof(0x7fffffff + 0u), c22 = sizeof 4294967296;
"#,
        "c1 1 c2 0 c3 -56 c4 7 c5 -1 c6 8 c7 4 c8 4 c9 60 c10 -1 c11 255 c12 4 c13 32 \
         c14 1 c15 0 c16 1 c17 3 c18 6 c19 48 c20 24 c21 4 c22 8",
    );
}

/// 80 generated structs and unions (bit-fields of every width including zero, nested and
/// anonymous members, arrays, `aligned` members, `packed`, flexible arrays, all scalar
/// kinds); sizes and alignments printed by gcc 12 for x86-64.
#[test]
fn generated_records_equal_gcc() {
    check(
        r#"enum E { EA, EB = 1000 };
struct s0 { int first; _Bool : 0; signed char a1[2]; long b2 : 53; unsigned char b3 : 8; enum E a4[1]; enum E f5; };
struct s1 { int first; short b0 : 9; _Complex double a1[1]; };
struct s2 { int first; struct { char c; unsigned d; } anon0; };
struct __attribute__((packed)) s3 { int first; struct { char c; __int128 d; } anon0; };
struct s4 { int first; double f0; short b1 : 7; int b2 : 31; void * f3; unsigned char b4 : 1; };
union s5 { int first; unsigned char a0[3]; struct s2 n1; struct { char c; enum E d; } anon2; unsigned char f3; };
struct s6 { int first; unsigned char f0; int b1 : 28; long b2 : 44; long long b3 : 45; };
union __attribute__((packed)) s7 { int first; unsigned short b0 : 12; struct s6 n1; int a2[4]; unsigned long a3[2]; _Complex double f4; long b5 : 45; long double f6; };
struct s8 { int first; unsigned short : 0; enum E a1[2]; };
union s9 { int first; struct { char c; float d; } anon0; _Complex float f1; signed char f2; };
struct s10 { int first; _Complex double f0; struct s6 n1; union s7 n2; signed char f3; unsigned short b4 : 14; unsigned b5 : 3; short b6 : 3; };
struct __attribute__((packed)) s11 { int first; struct { char c; unsigned short d; } anon0; double f1; };
struct __attribute__((packed)) s12 { int first; void * f0; long long a1[1]; unsigned b2 : 16; int a3[1]; };
struct s13 { int first; char al0 __attribute__((aligned(16))); unsigned char b1 : 4; int al2 __attribute__((aligned(4))); _Complex double f3; _Complex float al4 __attribute__((aligned(4))); unsigned f5; };
struct s14 { int first; long long b0 : 45; char f1; };
struct s15 { int first; void * f0; double f1; double f2; unsigned char b3 : 3; float a4[2]; };
struct s16 { int first; double a0[1]; };
union s17 { int first; __int128 f0; _Bool f1; float f2; long b3 : 59; unsigned char a4[2]; short : 0; };
union s18 { int first; __int128 f0; double f1; _Bool : 0; unsigned char b3 : 8; unsigned short f4; unsigned a5[2]; unsigned short b6 : 9; };
struct s19 { int first; long b0 : 16; unsigned b1 : 29; _Complex float f2; };
struct s20 { int first; _Bool : 0; int f1; struct { char c; unsigned short d; } anon2; long long b3 : 15; float al4 __attribute__((aligned(32))); };
struct s21 { int first; signed char f0; };
struct s22 { int first; char a0[1]; _Complex float a1[2]; void * f2; __int128 al3 __attribute__((aligned(16))); _Complex float f4; };
struct s23 { int first; unsigned f0; unsigned short f1; long double a2[4]; struct s21 n3; unsigned char b4 : 3; };
struct s24 { int first; double f0; short b1 : 14; };
struct s25 { int first; unsigned short b0 : 5; _Complex float f1; _Bool a2[2]; struct s2 n3; };
union s26 { int first; long double f0; struct s19 n1; unsigned char b2 : 1; long f3; };
struct __attribute__((packed)) s27 { int first; short b0 : 8; _Bool f1; unsigned long f2; };
struct s28 { int first; unsigned char f0; short b1 : 13; unsigned long f2; unsigned char f3; };
union s29 { int first; unsigned char b0 : 7; };
union s30 { int first; unsigned long f0; struct { char c; signed char d; } anon1; long al2 __attribute__((aligned(1))); unsigned long f3; };
union s31 { int first; struct { char c; _Complex float d; } anon0; long long f1; int a2[3]; };
struct __attribute__((packed)) s32 { int first; char b0 : 8; unsigned al1 __attribute__((aligned(16))); void * a2[1]; };
struct s33 { int first; long double f0; long long f1; long f2; struct s8 n3; double a4[1]; };
union s34 { int first; signed char a0[1]; long double f1; long long f2; };
struct s35 { int first; int a0[3]; };
struct s36 { int first; struct s2 n0; long long f1; short : 0; union s5 n3; _Complex float a4[2]; };
struct __attribute__((packed)) s37 { int first; long b0 : 5; struct s19 n1; struct s14 n2; _Bool : 0; long double f4; __int128 f5; short b6 : 1; };
struct s38 { int first; _Complex float f0; _Bool : 0; enum E f2; long f3; int flex[]; };
union s39 { int first; struct s28 n0; };
struct s40 { int first; long al0 __attribute__((aligned(8))); long long b1 : 8; _Complex float f2; unsigned char f3; unsigned char f4; __int128 f5; };
union s41 { int first; long f0; void * f1; long double a2[1]; long long a3[1]; struct { char c; unsigned d; } anon4; short b5 : 10; };
struct s42 { int first; struct { char c; unsigned short d; } anon0; char b1 : 7; unsigned char b2 : 3; };
struct s43 { int first; short a0[2]; union s5 n1; char f2; unsigned char b3 : 8; };
struct s44 { int first; unsigned f0; unsigned char b1 : 2; };
struct s45 { int first; _Complex float f0; unsigned char b1 : 5; long long b2 : 50; char b3 : 7; long double f4; };
union s46 { int first; unsigned : 0; struct s21 n1; short f2; };
struct s47 { int first; long long f0; };
union s48 { int first; struct { char c; double d; } anon0; unsigned long f1; unsigned long f2; int b3 : 9; int b4 : 27; unsigned al5 __attribute__((aligned(4))); _Bool f6; };
struct s49 { int first; _Complex double a0[2]; signed char f1; _Bool f2; unsigned short a3[3]; _Complex double a4[2]; long b5 : 43; };
struct s50 { int first; unsigned short b0 : 9; long double a1[1]; short b2 : 2; long long b3 : 28; float a4[4]; _Complex double a5[2]; };
union s51 { int first; int b0 : 12; _Bool f1; union s48 n2; };
struct s52 { int first; __int128 f0; unsigned b1 : 8; _Complex float f2; };
struct s53 { int first; long double f0; struct s28 n1; long long a2[1]; };
struct s54 { int first; enum E a0[4]; long b1 : 59; long f2; long f3; _Bool : 0; void * f5; char : 0; };
struct s55 { int first; unsigned short f0; struct { char c; _Complex float d; } anon1; short f2; int b3 : 12; struct s14 n4; char f5; int flex[]; };
struct s56 { int first; long f0; long a1[2]; long b2 : 39; int flex[]; };
union s57 { int first; unsigned long a0[2]; double f1; char b2 : 5; double f3; unsigned f4; int b5 : 32; };
union s58 { int first; struct s53 n0; long long b1 : 28; };
struct s59 { int first; __int128 f0; };
struct s60 { int first; short b0 : 12; char b1 : 2; signed char a2[2]; union s46 n3; short f4; int f5; };
union s61 { int first; long long a0[4]; float f1; short a2[1]; unsigned char b3 : 5; short a4[2]; struct s50 n5; };
struct s62 { int first; long long b0 : 25; union s61 n1; float a2[3]; __int128 f3; int flex[]; };
struct s63 { int first; long double a0[1]; signed char a1[3]; unsigned char b2 : 5; struct s21 n3; signed char f4; unsigned b5 : 17; unsigned char : 0; };
union s64 { int first; long double f0; _Bool f1; unsigned short f2; int f3; };
union s65 { int first; unsigned short f0; struct { char c; float d; } anon1; void * f2; };
struct s66 { int first; long double al0 __attribute__((aligned(2))); };
union __attribute__((packed)) s67 { int first; int al0 __attribute__((aligned(8))); unsigned char f1; unsigned char b2 : 3; long long b3 : 57; short b4 : 13; };
struct s68 { int first; short f0; long long f1; };
struct s69 { int first; long long b0 : 31; unsigned short b1 : 4; unsigned short b2 : 10; int b3 : 15; long al4 __attribute__((aligned(32))); void * f5; };
union s70 { int first; long long b0 : 47; int b1 : 14; unsigned short b2 : 6; double f3; int al4 __attribute__((aligned(8))); struct { char c; char d; } anon5; unsigned b6 : 13; };
union s71 { int first; int b0 : 2; };
struct s72 { int first; float f0; double a1[2]; };
union __attribute__((packed)) s73 { int first; unsigned char al0 __attribute__((aligned(8))); long b1 : 19; unsigned char f2; long double f3; };
struct s74 { int first; _Bool f0; long long f1; double f2; };
union s75 { int first; struct s25 n0; struct s52 n1; char b2 : 6; _Bool f3; unsigned char b4 : 6; double al5 __attribute__((aligned(8))); unsigned short f6; };
union s76 { int first; long double f0; unsigned b1 : 32; unsigned b2 : 18; short b3 : 2; long long b4 : 25; union s5 n5; };
struct s77 { int first; struct { char c; long double d; } anon0; int flex[]; };
struct s78 { int first; long f0; struct { char c; unsigned d; } anon1; };
union s79 { int first; int f0; struct s15 n1; unsigned short b2 : 1; signed char f3; };
long z0 = sizeof(struct s0), y0 = _Alignof(struct s0);
long z1 = sizeof(struct s1), y1 = _Alignof(struct s1);
long z2 = sizeof(struct s2), y2 = _Alignof(struct s2);
long z3 = sizeof(struct s3), y3 = _Alignof(struct s3);
long z4 = sizeof(struct s4), y4 = _Alignof(struct s4);
long z5 = sizeof(union s5), y5 = _Alignof(union s5);
long z6 = sizeof(struct s6), y6 = _Alignof(struct s6);
long z7 = sizeof(union s7), y7 = _Alignof(union s7);
long z8 = sizeof(struct s8), y8 = _Alignof(struct s8);
long z9 = sizeof(union s9), y9 = _Alignof(union s9);
long z10 = sizeof(struct s10), y10 = _Alignof(struct s10);
long z11 = sizeof(struct s11), y11 = _Alignof(struct s11);
long z12 = sizeof(struct s12), y12 = _Alignof(struct s12);
long z13 = sizeof(struct s13), y13 = _Alignof(struct s13);
long z14 = sizeof(struct s14), y14 = _Alignof(struct s14);
long z15 = sizeof(struct s15), y15 = _Alignof(struct s15);
long z16 = sizeof(struct s16), y16 = _Alignof(struct s16);
long z17 = sizeof(union s17), y17 = _Alignof(union s17);
long z18 = sizeof(union s18), y18 = _Alignof(union s18);
long z19 = sizeof(struct s19), y19 = _Alignof(struct s19);
long z20 = sizeof(struct s20), y20 = _Alignof(struct s20);
long z21 = sizeof(struct s21), y21 = _Alignof(struct s21);
long z22 = sizeof(struct s22), y22 = _Alignof(struct s22);
long z23 = sizeof(struct s23), y23 = _Alignof(struct s23);
long z24 = sizeof(struct s24), y24 = _Alignof(struct s24);
long z25 = sizeof(struct s25), y25 = _Alignof(struct s25);
long z26 = sizeof(union s26), y26 = _Alignof(union s26);
long z27 = sizeof(struct s27), y27 = _Alignof(struct s27);
long z28 = sizeof(struct s28), y28 = _Alignof(struct s28);
long z29 = sizeof(union s29), y29 = _Alignof(union s29);
long z30 = sizeof(union s30), y30 = _Alignof(union s30);
long z31 = sizeof(union s31), y31 = _Alignof(union s31);
long z32 = sizeof(struct s32), y32 = _Alignof(struct s32);
long z33 = sizeof(struct s33), y33 = _Alignof(struct s33);
long z34 = sizeof(union s34), y34 = _Alignof(union s34);
long z35 = sizeof(struct s35), y35 = _Alignof(struct s35);
long z36 = sizeof(struct s36), y36 = _Alignof(struct s36);
long z37 = sizeof(struct s37), y37 = _Alignof(struct s37);
long z38 = sizeof(struct s38), y38 = _Alignof(struct s38);
long z39 = sizeof(union s39), y39 = _Alignof(union s39);
long z40 = sizeof(struct s40), y40 = _Alignof(struct s40);
long z41 = sizeof(union s41), y41 = _Alignof(union s41);
long z42 = sizeof(struct s42), y42 = _Alignof(struct s42);
long z43 = sizeof(struct s43), y43 = _Alignof(struct s43);
long z44 = sizeof(struct s44), y44 = _Alignof(struct s44);
long z45 = sizeof(struct s45), y45 = _Alignof(struct s45);
long z46 = sizeof(union s46), y46 = _Alignof(union s46);
long z47 = sizeof(struct s47), y47 = _Alignof(struct s47);
long z48 = sizeof(union s48), y48 = _Alignof(union s48);
long z49 = sizeof(struct s49), y49 = _Alignof(struct s49);
long z50 = sizeof(struct s50), y50 = _Alignof(struct s50);
long z51 = sizeof(union s51), y51 = _Alignof(union s51);
long z52 = sizeof(struct s52), y52 = _Alignof(struct s52);
long z53 = sizeof(struct s53), y53 = _Alignof(struct s53);
long z54 = sizeof(struct s54), y54 = _Alignof(struct s54);
long z55 = sizeof(struct s55), y55 = _Alignof(struct s55);
long z56 = sizeof(struct s56), y56 = _Alignof(struct s56);
long z57 = sizeof(union s57), y57 = _Alignof(union s57);
long z58 = sizeof(union s58), y58 = _Alignof(union s58);
long z59 = sizeof(struct s59), y59 = _Alignof(struct s59);
long z60 = sizeof(struct s60), y60 = _Alignof(struct s60);
long z61 = sizeof(union s61), y61 = _Alignof(union s61);
long z62 = sizeof(struct s62), y62 = _Alignof(struct s62);
long z63 = sizeof(struct s63), y63 = _Alignof(struct s63);
long z64 = sizeof(union s64), y64 = _Alignof(union s64);
long z65 = sizeof(union s65), y65 = _Alignof(union s65);
long z66 = sizeof(struct s66), y66 = _Alignof(struct s66);
long z67 = sizeof(union s67), y67 = _Alignof(union s67);
long z68 = sizeof(struct s68), y68 = _Alignof(struct s68);
long z69 = sizeof(struct s69), y69 = _Alignof(struct s69);
long z70 = sizeof(union s70), y70 = _Alignof(union s70);
long z71 = sizeof(union s71), y71 = _Alignof(union s71);
long z72 = sizeof(struct s72), y72 = _Alignof(struct s72);
long z73 = sizeof(union s73), y73 = _Alignof(union s73);
long z74 = sizeof(struct s74), y74 = _Alignof(struct s74);
long z75 = sizeof(union s75), y75 = _Alignof(union s75);
long z76 = sizeof(union s76), y76 = _Alignof(union s76);
long z77 = sizeof(struct s77), y77 = _Alignof(struct s77);
long z78 = sizeof(struct s78), y78 = _Alignof(struct s78);
long z79 = sizeof(union s79), y79 = _Alignof(union s79);
"#,
        "z0 24 y0 8 z1 24 y1 8 z2 12 y2 4 z3 36 y3 1 z4 40 y4 8 z5 12 y5 4 z6 32 y6 8 z7 32 y7 1 \
         z8 12 y8 4 z9 8 y9 4 z10 96 y10 8 z11 16 y11 1 z12 26 y12 1 z13 64 y13 16 z14 16 y14 8 \
         z15 48 y15 8 z16 16 y16 8 z17 16 y17 16 z18 16 y18 16 z19 24 y19 8 z20 64 y20 32 z21 8 \
         y21 4 z22 64 y22 16 z23 96 y23 16 z24 24 y24 8 z25 32 y25 4 z26 32 y26 16 z27 14 y27 1 \
         z28 24 y28 8 z29 4 y29 4 z30 8 y30 8 z31 16 y31 8 z32 32 y32 16 z33 80 y33 16 z34 16 \
         y34 16 z35 16 y35 4 z36 56 y36 8 z37 78 y37 1 z38 24 y38 8 z39 24 y39 8 z40 48 y40 16 \
         z41 16 y41 16 z42 12 y42 4 z43 24 y43 4 z44 12 y44 4 z45 48 y45 16 z46 8 y46 4 z47 16 \
         y47 8 z48 16 y48 8 z49 88 y49 8 z50 96 y50 16 z51 16 y51 8 z52 48 y52 16 z53 64 y53 16 \
         z54 56 y54 8 z55 48 y55 8 z56 40 y56 8 z57 16 y57 8 z58 64 y58 16 z59 32 y59 16 z60 24 \
         y60 4 z61 96 y61 16 z62 144 y62 16 z63 48 y63 16 z64 16 y64 16 z65 8 y65 8 z66 32 y66 16 \
         z67 8 y67 8 z68 16 y68 8 z69 64 y69 32 z70 8 y70 8 z71 4 y71 4 z72 24 y72 8 z73 16 y73 8 \
         z74 24 y74 8 z75 48 y75 16 z76 16 y76 16 z77 48 y77 16 z78 24 y78 8 z79 48 y79 8",
    );
}
