//! Parser tests: exact AST dumps and exact diagnostics for small programs.

use neverc_front::diag::Diagnostics;
use neverc_front::parse::{dump::dump, parse};
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

/// Parses `src` as `t.c`; returns the AST dump and the diagnostics text.
fn run(src: &str) -> (String, String) {
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
    let text = dump(&ast, &pp.sm, &pp.interner);
    let d = String::from_utf8_lossy(&buf.0.lock().unwrap()).into_owned();
    (text, d)
}

fn check(src: &str, ast: &str, diags: &str) {
    let (a, d) = run(src);
    assert_eq!(d, diags, "diagnostics");
    assert_eq!(a, ast, "AST dump");
}

#[test]
fn declarators_typedef_scopes_and_kr() {
    check(
        r#"int *a[3], (*b)[3], (*f(int))(char);
void g(int (*)(void), char [], const int *restrict p);
typedef int T;
void h(void) { T * x; { int T = 2, y = 3; T * y; } T * z; }
int k(a, b) int a; char *b; { return a ? b[0] : -a; }
"#,
        r#"Decl @1:6 a: array[3] of pointer to int
Decl @1:14 b: pointer to array[3] of int
Decl @1:23 f: function(int) returning pointer to function(char) returning int
Decl @2:6 g: function(pointer to function(void) returning int, array[] of char, p: restrict pointer to const int) returning void
Decl @3:13 T: typedef int
FunctionDef @4:6 h: function(void) returning void
  Compound @4:14
    Decl @4:20 x: pointer to T
    Compound @4:23
      Decl @4:29 T: int = 2
      Decl @4:36 y: int = 3
      Expr @4:43 (* T y)
    Decl @4:56 z: pointer to T
FunctionDef @5:5 k: function(a, b) returning int
  Decl @5:17 a: int
  Decl @5:26 b: pointer to char
  Compound @5:29
    Return @5:31 (? a ([] b 0) (- a))
"#,
        r#""#,
    );
}

#[test]
fn expression_precedence_casts_and_compound_literals() {
    check(
        r#"int v(int a, int b, int c, int *p) {
  a = b += c * -*p++ << 2 | a && b || !c;
  a = (int)(char)b + sizeof a + sizeof(int[2]) + _Alignof(long);
  p = (int[]){1, 2, [4] = 3};
  return a < b ? a : b, c;
}
"#,
        r#"FunctionDef @1:5 v: function(a: int, b: int, c: int, p: pointer to int) returning int
  Compound @1:36
    Expr @2:3 (= a (+= b (|| (&& (| (<< (* c (- (* (post++ p)))) 2) a) b) (! c))))
    Expr @3:3 (= a (+ (+ (+ (cast <int> (cast <char> b)) (sizeof a)) (sizeof <array[2] of int>)) (_Alignof <long>)))
    Expr @4:3 (= p (compound-literal <array[] of int> { 1, 2, [4] = 3 }))
    Return @5:3 (, (? (< a b) a b) c)
"#,
        r#""#,
    );
}

#[test]
fn gnu_extensions_and_attributes() {
    check(
        r#"struct __attribute__((packed)) s { int a : 3, : 0; char b[]; } __attribute__((aligned(8)));
int f(int) __attribute__((custom_attr("cc", "gpr:rcx,rdx"))) __asm__("f_impl");
__declspec(dllexport) int g(void);
enum e { A, B = 3, C, };
void t(int n, __builtin_va_list ap) {
  static void *tbl[] = { &&l1, &&l2 };
  int x = ({ int y = n; y * 2; });
  switch (n) { case 1 ... 5: goto *tbl[0]; default: break; }
l1: l2:
  __asm__ volatile ("mov %1, %0" : "=r"(x) : "r"(n) : "cc", "memory");
  x = __builtin_va_arg(ap, int) + __builtin_offsetof(struct s, b[1]);
  x = __builtin_types_compatible_p(int, long) + __extension__ 1 + __real__ x;
  __typeof__(x) z = x ?: 1;
  _Static_assert(sizeof(int) == 4, "int");
}
"#,
        r#"Decl @1:1 struct __attribute__((packed)) __attribute__((aligned(8))) s { a: int : 3; <unnamed>: int : 0; b: array[] of char; }
Decl @2:5 f: function(int) returning int __attribute__((custom_attr("cc", "gpr:rcx,rdx")))
Decl @3:27 g: function(void) returning int __declspec(dllexport)
Decl @4:1 enum e { A, B = 3, C }
FunctionDef @5:6 t: function(n: int, ap: __builtin_va_list) returning void
  Compound @5:37
    Decl @6:16 tbl: static array[] of pointer to void = { (&& l1), (&& l2) }
    Decl @7:7 x: int = (stmt-expr
      Compound @7:12
        Decl @7:18 y: int = n
        Expr @7:25 (* y 2)
    )
    Switch @8:3 n
      Compound @8:14
        Case @8:16 1 ... 5
          Goto @8:30 * ([] tbl 0)
        Default @8:44
          Break @8:53
    Label @9:1 l1
      Label @9:5 l2
        Asm @10:3 volatile "mov %1, %0" : "=r" x : "r" n : "cc", "memory" : 
    Expr @11:3 (= x (+ (va_arg ap <int>) (offsetof <struct s> b[1])))
    Expr @12:3 (= x (+ (+ (types_compatible <int> <long>) (__extension__ 1)) (__real__ x)))
    Decl @13:17 z: typeof(x) = (?: x 1)
    StaticAssert @14:3 (== (sizeof <int>) 4) "int"
"#,
        r#"t.c:2:62: error: expected ',' or ';' before '__asm__'
    2 | int f(int) __attribute__((custom_attr("cc", "gpr:rcx,rdx"))) __asm__("f_impl");
      |                                                              ^~~~~~~
"#,
    );
}

#[test]
fn literal_values_and_string_concatenation() {
    check(
        r#"long a = 0x10UL + 010 + 0b101 + 42ll + 18446744073709551615u;
double b = 1.5e3f + 0x1p-2 + .5L + 1e10;
int c = 'a' + '\n' + '\377' + L'x' + u'\x41';
char *s = "a\tb" "c\101";
int *w = (int *)L"wide" U"x";
"#,
        r#"Decl @1:6 a: long = (+ (+ (+ (+ 16ul 8) 5) 42ll) 18446744073709551615u)
Decl @2:8 b: double = (+ (+ (+ 1.5e3f 0x1p-2) .5l) 1e10)
Decl @3:5 c: int = (+ (+ (+ (+ '97' '10') '-1') L'120') u'65')
Decl @4:7 s: pointer to char = "a\x09bcA"
Decl @5:6 w: pointer to int = (cast <pointer to int> L"widex")
"#,
        r#"t.c:5:25: error: unsupported non-standard concatenation of string literals
    5 | int *w = (int *)L"wide" U"x";
      |                         ^
"#,
    );
}

#[test]
fn syntax_errors_in_gcc_words_with_recovery() {
    check(
        r#"int f(void) { return 1 }
int g(void) { int x = 1 int y; return x; }
int k = ;
struct s { int a } v;
int h(void) { a b; return 0; }
int m(void) { if x) return 1; return 0; }
int n(void) { int a[3; return 0; }
int @;
"#,
        r#"FunctionDef @1:5 f: function(void) returning int
  Compound @1:13
    Return @1:15 1
FunctionDef @2:5 g: function(void) returning int
  Compound @2:13
    Decl @2:19 x: int = 1
    Return @2:32 x
Decl @3:5 k: int = <error>
Decl @4:20 v: struct s { a: int; }
FunctionDef @5:5 h: function(void) returning int
  Compound @5:13
    Decl @5:17 b: a
    Return @5:20 0
FunctionDef @6:5 m: function(void) returning int
  Compound @6:13
    If @6:15 x
      Expr @6:19 <error>
    Return @6:31 0
FunctionDef @7:5 n: function(void) returning int
  Compound @7:13
    Decl @7:19 a: array[3] of int
    Return @7:24 0
Decl @8:1 int
"#,
        r#"t.c:1:23: error: expected ';' before '}' token
    1 | int f(void) { return 1 }
      |                       ^~
t.c:2:25: error: expected ',' or ';' before 'int'
    2 | int g(void) { int x = 1 int y; return x; }
      |                         ^~~
t.c:3:9: error: expected expression before ';' token
    3 | int k = ;
      |         ^
t.c:4:18: warning: no semicolon at end of struct or union
    4 | struct s { int a } v;
      |                  ^
t.c:5:15: error: unknown type name 'a'
    5 | int h(void) { a b; return 0; }
      |               ^
t.c:6:18: error: expected '(' before 'x'
    6 | int m(void) { if x) return 1; return 0; }
      |                  ^
t.c:6:19: error: expected expression before ')' token
    6 | int m(void) { if x) return 1; return 0; }
      |                   ^
t.c:7:22: error: expected ']' before ';' token
    7 | int n(void) { int a[3; return 0; }
      |                      ^
t.c:8:5: error: stray '@' in program
    8 | int @;
      |     ^
"#,
    );
}

#[test]
fn nested_functions_and_specifier_errors() {
    check(
        r#"int main(void) {
  int inner(int x) { return x; }
  return inner(1);
}
int f(void) { return (1 + ; }
long long long x;
signed unsigned y;
int z = 08 + 1.0e + 12abc + '';
"#,
        r#"FunctionDef @1:5 main: function(void) returning int
  Compound @1:16
    FunctionDef @2:7 inner: function(x: int) returning int
      Compound @2:20
        Return @2:22 x
    Return @3:3 (call inner 1)
FunctionDef @5:5 f: function(void) returning int
  Compound @5:13
    Return @5:15 (paren (+ 1 <error>))
Decl @6:16 x: long long
Decl @7:17 y: signed int
Decl @8:5 z: int = (+ (+ (+ 0 0) 0) '0')
"#,
        // A GNU nested function parses as a definition in the block, without a diagnostic.
        r#"t.c:5:27: error: expected expression before ';' token
    5 | int f(void) { return (1 + ; }
      |                           ^
t.c:6:11: error: 'long long long' is too long for GCC
    6 | long long long x;
      |           ^~~~
t.c:7:8: error: both 'signed' and 'unsigned' in declaration specifiers
    7 | signed unsigned y;
      |        ^~~~~~~~
t.c:8:9: error: invalid digit "8" in octal constant
    8 | int z = 08 + 1.0e + 12abc + '';
      |         ^~
t.c:8:14: error: exponent has no digits
    8 | int z = 08 + 1.0e + 12abc + '';
      |              ^~~~
t.c:8:21: error: invalid suffix "abc" on integer constant
    8 | int z = 08 + 1.0e + 12abc + '';
      |                     ^~~~~
t.c:8:29: error: empty character constant
    8 | int z = 08 + 1.0e + 12abc + '';
      |                             ^~
"#,
    );
}
