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
