//! Semantic diagnostics: exact text, line and column, each expectation copied from
//! `gcc -fsyntax-only t.c` (gcc 12.2, LC_ALL=C, x86_64-linux-gnu), but for implicit
//! function declarations, errors in C99 and later as in current gcc (14 and later).

use neverc_front::diag::Diagnostics;
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

/// Parses and checks `src` as `t.c` for x86-64; returns the diagnostics and the error count.
fn diagnose_std(src: &str, std: Std) -> (String, usize) {
    let buf = Buf::default();
    let diags = Diagnostics::new(Box::new(buf.clone()));
    let opts = PpOptions {
        std,
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
    assert_eq!(typed.expr_types.len(), ast.exprs.len());
    let errors = pp.diags.errors;
    let d = String::from_utf8_lossy(&buf.0.lock().unwrap()).into_owned();
    (d, errors)
}

fn check(src: &str, expected: &str, errors: usize) {
    let (d, n) = diagnose_std(src, Std::default());
    assert_eq!(d, expected);
    assert_eq!(n, errors, "error count");
}

#[test]
fn undeclared_implicit_arguments_redefinition_members_static_assert() {
    check(
        r#"int f(int a, char *b);
void g(void) {
  x = 1;
  x = 2;
  h(3);
  f(1);
  f(1, 0, 2);
}
void h(void) { y; }
int z;
int z = 1;
int z = 2;
double f(int a, char *b);
struct s { int a; } q;
int w = q.b;
enum e { A = 5, B, C = A + 10 };
_Static_assert(C == 16, "c is 15");
int arr[-1];
"#,
        r#"t.c: In function 'g':
t.c:3:3: error: 'x' undeclared (first use in this function)
    3 |   x = 1;
      |   ^
t.c:3:3: note: each undeclared identifier is reported only once for each function it appears in
t.c:5:3: error: implicit declaration of function 'h' [-Wimplicit-function-declaration]
    5 |   h(3);
      |   ^
t.c:6:3: error: too few arguments to function 'f'
    6 |   f(1);
      |   ^
t.c:1:5: note: declared here
    1 | int f(int a, char *b);
      |     ^
t.c:7:3: error: too many arguments to function 'f'
    7 |   f(1, 0, 2);
      |   ^
t.c:1:5: note: declared here
    1 | int f(int a, char *b);
      |     ^
t.c: At top level:
t.c:9:6: warning: conflicting types for 'h'; have 'void(void)'
    9 | void h(void) { y; }
      |      ^
t.c:5:3: note: previous implicit declaration of 'h' with type 'void(void)'
    5 |   h(3);
      |   ^
t.c: In function 'h':
t.c:9:16: error: 'y' undeclared (first use in this function)
    9 | void h(void) { y; }
      |                ^
t.c: At top level:
t.c:12:5: error: redefinition of 'z'
   12 | int z = 2;
      |     ^
t.c:11:5: note: previous definition of 'z' with type 'int'
   11 | int z = 1;
      |     ^
t.c:13:8: error: conflicting types for 'f'; have 'double(int,  char *)'
   13 | double f(int a, char *b);
      |        ^
t.c:1:5: note: previous declaration of 'f' with type 'int(int,  char *)'
    1 | int f(int a, char *b);
      |     ^
t.c:15:10: error: 'struct s' has no member named 'b'
   15 | int w = q.b;
      |          ^
t.c:17:1: error: static assertion failed: "c is 15"
   17 | _Static_assert(C == 16, "c is 15");
      | ^~~~~~~~~~~~~~
t.c:18:5: error: size of array 'arr' is negative
   18 | int arr[-1];
      |     ^~~
"#,
        10,
    );
}

#[test]
fn tags_kinds_linkage_lvalues_labels_bitfields() {
    check(
        r#"struct s { int a; };
struct s { int b; };
int v;
void v(void);
static int w;
int u;
static int u;
void f(void) {
  int k;
  int k;
  3 = k;
  k++ ++;
  &5;
  struct s q;
  q.zz = 1;
  goto nowhere;
lab:
lab:
  ;
}
struct bf { int a : -1; char b : 9; int c : 0; };
int g(void) { return sizeof(struct bf); }
"#,
        r#"t.c:2:8: error: redefinition of 'struct s'
    2 | struct s { int b; };
      |        ^
t.c:1:8: note: originally defined here
    1 | struct s { int a; };
      |        ^
t.c:4:6: error: 'v' redeclared as different kind of symbol
    4 | void v(void);
      |      ^
t.c:3:5: note: previous declaration of 'v' with type 'int'
    3 | int v;
      |     ^
t.c:7:12: error: static declaration of 'u' follows non-static declaration
    7 | static int u;
      |            ^
t.c:6:5: note: previous declaration of 'u' with type 'int'
    6 | int u;
      |     ^
t.c: In function 'f':
t.c:10:7: error: redeclaration of 'k' with no linkage
   10 |   int k;
      |       ^
t.c:9:7: note: previous declaration of 'k' with type 'int'
    9 |   int k;
      |       ^
t.c:11:5: error: lvalue required as left operand of assignment
   11 |   3 = k;
      |     ^
t.c:12:7: error: lvalue required as increment operand
   12 |   k++ ++;
      |       ^~
t.c:13:3: error: lvalue required as unary '&' operand
   13 |   &5;
      |   ^
t.c:15:4: error: 'struct s' has no member named 'zz'
   15 |   q.zz = 1;
      |    ^
t.c:18:1: error: duplicate label 'lab'
   18 | lab:
      | ^~~
t.c:17:1: note: previous definition of 'lab' with type 'void'
   17 | lab:
      | ^~~
t.c:16:3: error: label 'nowhere' used but not defined
   16 |   goto nowhere;
      |   ^~~~
t.c: At top level:
t.c:21:17: error: negative width in bit-field 'a'
   21 | struct bf { int a : -1; char b : 9; int c : 0; };
      |                 ^
t.c:21:30: error: width of 'b' exceeds its type
   21 | struct bf { int a : -1; char b : 9; int c : 0; };
      |                              ^
t.c:21:41: error: zero width for bit-field 'c'
   21 | struct bf { int a : -1; char b : 9; int c : 0; };
      |                                         ^
"#,
        13,
    );
}

#[test]
fn file_scope_undeclared_variadic_calls_extern_conflicts_arrays() {
    check(
        r#"int n = m;
void k(int a, ...);
int call(void) {
  k();
  k(1, 2, 3);
  int r = undefined_fn(2);
  return r + zz + zz;
}
extern int ext;
double ext;
static void sf(void);
void sf(void) {}
void sf(void) {}
int main(void) { int a[2]; a = 0; (a[0]) = 1; return 0; }
"#,
        r#"t.c:1:9: error: 'm' undeclared here (not in a function)
    1 | int n = m;
      |         ^
t.c: In function 'call':
t.c:4:3: error: too few arguments to function 'k'
    4 |   k();
      |   ^
t.c:2:6: note: declared here
    2 | void k(int a, ...);
      |      ^
t.c:6:11: error: implicit declaration of function 'undefined_fn' [-Wimplicit-function-declaration]
    6 |   int r = undefined_fn(2);
      |           ^~~~~~~~~~~~
t.c:7:14: error: 'zz' undeclared (first use in this function)
    7 |   return r + zz + zz;
      |              ^~
t.c:7:14: note: each undeclared identifier is reported only once for each function it appears in
t.c: At top level:
t.c:10:8: error: conflicting types for 'ext'; have 'double'
   10 | double ext;
      |        ^~~
t.c:9:12: note: previous declaration of 'ext' with type 'int'
    9 | extern int ext;
      |            ^~~
t.c:13:6: error: redefinition of 'sf'
   13 | void sf(void) {}
      |      ^~
t.c:12:6: note: previous definition of 'sf' with type 'void(void)'
   12 | void sf(void) {}
      |      ^~
t.c: In function 'main':
t.c:14:30: error: assignment to expression with array type
   14 | int main(void) { int a[2]; a = 0; (a[0]) = 1; return 0; }
      |                              ^
"#,
        7,
    );
}

#[test]
fn gnu89_implicit_declaration_is_silent_and_c99_refuses() {
    let src = "int main(void) { return f(1); }\n";
    let (d, n) = diagnose_std(src, Std::parse("gnu89").unwrap());
    assert_eq!(d, "");
    assert_eq!(n, 0);
    let (d, n) = diagnose_std(src, Std::parse("gnu99").unwrap());
    assert_eq!(
        d,
        "t.c: In function 'main':
t.c:1:25: error: implicit declaration of function 'f' [-Wimplicit-function-declaration]
    1 | int main(void) { return f(1); }
      |                         ^
"
    );
    assert_eq!(n, 1);
}

#[test]
fn huge_and_deep_inputs_neither_crash_nor_mislead() {
    // Long operator chains are typed up to a depth and never diagnosed beyond it.
    // On a thread with the main thread's usual 8 MiB stack (the driver's), not a test's 2.
    let (d, n) = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            let chain = vec!["x"; 20000].join("+");
            diagnose_std(
                &format!("int f(int x) {{ return {chain}; }}\n"),
                Std::default(),
            )
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!((d.as_str(), n), ("", 0));
    check(
        "char a[1UL<<62][1<<10];\nint b[0x7fffffffffffffff];\n",
        r#"t.c:1:6: error: size of array 'a' exceeds maximum object size '9223372036854775807'
    1 | char a[1UL<<62][1<<10];
      |      ^
t.c:2:5: error: size of array 'b' exceeds maximum object size '9223372036854775807'
    2 | int b[0x7fffffffffffffff];
      |     ^
"#,
        2,
    );
}

#[test]
fn stray_bracket_inside_call_parentheses_recovers() {
    // The parser's skip to `)` once underflowed its depth on a `]` (a panic).
    let (d, n) = diagnose_std(
        "int g(int);\nint h(void) { return g(1 ]); }\n",
        Std::default(),
    );
    assert!(
        d.starts_with("t.c:2:25: error: expected ')' before ']' token\n"),
        "{d}"
    );
    assert!(n >= 1);
}

#[test]
fn nested_redefinitions_incomplete_fields_and_misplaced_flexible_arrays() {
    check(
        r#"struct s { struct s { int x; } y; };
union u { int a; union u { int b; } c; };
struct r { int a; struct r x; };
struct w { int a; char c[]; int d; };
struct ok { int a; struct { int b; }; struct { char c; } named; char tail[]; };
long q = sizeof(struct ok);
"#,
        r#"t.c:1:19: error: nested redefinition of 'struct s'
    1 | struct s { struct s { int x; } y; };
      |                   ^
t.c:2:24: error: nested redefinition of 'union u'
    2 | union u { int a; union u { int b; } c; };
      |                        ^
t.c:3:28: error: field 'x' has incomplete type
    3 | struct r { int a; struct r x; };
      |                            ^
t.c:4:24: error: flexible array member not at end of struct
    4 | struct w { int a; char c[]; int d; };
      |                        ^
"#,
        4,
    );
}

#[test]
fn conversions_as_if_by_assignment() {
    check(
        r#"struct s { int a; } sv;
void v(void);
int *gp;
long *lp;
unsigned long *ulp;
int g(void) {
  int i = sv;
  i = sv;
  int j = v();
  gp = 5;
  gp = lp;
  lp = ulp;
  gp = 0;
  void *vp = lp;
  int *q = 7;
  long n = gp;
  return sv;
}
int *h(void) { return 3; }
long *k(void) { return gp; }
struct s m(void) { return sv; }
"#,
        r#"t.c: In function 'g':
t.c:7:11: error: incompatible types when initializing type 'int' using type 'struct s'
    7 |   int i = sv;
      |           ^~
t.c:8:7: error: incompatible types when assigning to type 'int' from type 'struct s'
    8 |   i = sv;
      |       ^~
t.c:9:11: error: void value not ignored as it ought to be
    9 |   int j = v();
      |           ^
t.c:10:6: warning: assignment to 'int *' from 'int' makes pointer from integer without a cast [-Wint-conversion]
   10 |   gp = 5;
      |      ^
t.c:11:6: warning: assignment to 'int *' from incompatible pointer type 'long int *' [-Wincompatible-pointer-types]
   11 |   gp = lp;
      |      ^
t.c:15:12: warning: initialization of 'int *' from 'int' makes pointer from integer without a cast [-Wint-conversion]
   15 |   int *q = 7;
      |            ^
t.c:16:12: warning: initialization of 'long int' from 'int *' makes integer from pointer without a cast [-Wint-conversion]
   16 |   long n = gp;
      |            ^~
t.c:17:10: error: incompatible types when returning type 'struct s' but 'int' was expected
   17 |   return sv;
      |          ^~
t.c: In function 'h':
t.c:19:23: warning: returning 'int' from a function with return type 'int *' makes pointer from integer without a cast [-Wint-conversion]
   19 | int *h(void) { return 3; }
      |                       ^
t.c: In function 'k':
t.c:20:24: warning: returning 'int *' from a function with incompatible return type 'long int *' [-Wincompatible-pointer-types]
   20 | long *k(void) { return gp; }
      |                        ^~
"#,
        4,
    );
}

#[test]
fn operand_types_calls_members_and_object_completeness() {
    check(
        r#"struct s { int a; } sv;
struct inc;
int i, *p, *p2;
void f(void) {
  struct inc x;
  void y;
  i();
  sv + 1;
  p + p2;
  i * p;
  -sv;
  *i;
  i.a;
  i->a;
  p->a;
  sv < 1;
  !sv;
  ~p;
  p - p2;
  i % 1.0;
  i << 1.5;
}
struct inc z;
int arr[];
"#,
        r#"t.c: In function 'f':
t.c:5:14: error: storage size of 'x' isn't known
    5 |   struct inc x;
      |              ^
t.c:6:8: error: variable or field 'y' declared void
    6 |   void y;
      |        ^
t.c:7:3: error: called object 'i' is not a function or function pointer
    7 |   i();
      |   ^
t.c:3:5: note: declared here
    3 | int i, *p, *p2;
      |     ^
t.c:8:6: error: invalid operands to binary + (have 'struct s' and 'int')
    8 |   sv + 1;
      |      ^
t.c:9:5: error: invalid operands to binary + (have 'int *' and 'int *')
    9 |   p + p2;
      |     ^
t.c:10:5: error: invalid operands to binary * (have 'int' and 'int *')
   10 |   i * p;
      |     ^
t.c:11:3: error: wrong type argument to unary minus
   11 |   -sv;
      |   ^
t.c:12:3: error: invalid type argument of unary '*' (have 'int')
   12 |   *i;
      |   ^~
t.c:13:4: error: request for member 'a' in something not a structure or union
   13 |   i.a;
      |    ^
t.c:14:4: error: invalid type argument of '->' (have 'int')
   14 |   i->a;
      |    ^~
t.c:15:4: error: request for member 'a' in something not a structure or union
   15 |   p->a;
      |    ^~
t.c:16:6: error: invalid operands to binary < (have 'struct s' and 'int')
   16 |   sv < 1;
      |      ^
t.c:17:3: error: wrong type argument to unary exclamation mark
   17 |   !sv;
      |   ^
t.c:18:3: error: wrong type argument to bit-complement
   18 |   ~p;
      |   ^
t.c:20:5: error: invalid operands to binary % (have 'int' and 'double')
   20 |   i % 1.0;
      |     ^
t.c:21:5: error: invalid operands to binary << (have 'int' and 'double')
   21 |   i << 1.5;
      |     ^~
t.c: At top level:
t.c:23:12: error: storage size of 'z' isn't known
   23 | struct inc z;
      |            ^
t.c:24:5: warning: array 'arr' assumed to have one element
   24 | int arr[];
      |     ^~~
"#,
        17,
    );
}

#[test]
fn modifying_read_only_objects() {
    check(
        r#"const int ci = 1;
struct s { const int m; int n; };
void f(const int p) {
  const struct s cs = {1, 2};
  struct s vs = {1, 2};
  ci = 2;
  p = 3;
  ci++;
  --p;
  cs.n = 1;
  vs.m = 2;
  ci += 1;
}
"#,
        r#"t.c: In function 'f':
t.c:6:6: error: assignment of read-only variable 'ci'
    6 |   ci = 2;
      |      ^
t.c:7:5: error: assignment of read-only parameter 'p'
    7 |   p = 3;
      |     ^
t.c:8:5: error: increment of read-only variable 'ci'
    8 |   ci++;
      |     ^~
t.c:9:3: error: decrement of read-only parameter 'p'
    9 |   --p;
      |   ^~
t.c:10:8: error: assignment of member 'n' in read-only object
   10 |   cs.n = 1;
      |        ^
t.c:11:8: error: assignment of read-only member 'm'
   11 |   vs.m = 2;
      |        ^
t.c:12:6: error: assignment of read-only variable 'ci'
   12 |   ci += 1;
      |      ^~
"#,
        7,
    );
}

#[test]
fn returns_jumps_and_switch_labels() {
    check(
        r#"void v(void) { return 1; }
int r(void) { return; }
void f(int x) {
  break;
  continue;
  case 1: ;
  default: ;
  switch (x) {
  case 1: break;
  case 2: case 1: break;
  default: ;
  default: ;
  case 3 ... 5: ;
  case 4: ;
  }
  while (x) { switch (x) { continue; } }
}
"#,
        r#"t.c: In function 'v':
t.c:1:23: warning: 'return' with a value, in function returning void
    1 | void v(void) { return 1; }
      |                       ^
t.c:1:6: note: declared here
    1 | void v(void) { return 1; }
      |      ^
t.c: In function 'r':
t.c:2:15: warning: 'return' with no value, in function returning non-void
    2 | int r(void) { return; }
      |               ^~~~~~
t.c:2:5: note: declared here
    2 | int r(void) { return; }
      |     ^
t.c: In function 'f':
t.c:4:3: error: break statement not within loop or switch
    4 |   break;
      |   ^~~~~
t.c:5:3: error: continue statement not within a loop
    5 |   continue;
      |   ^~~~~~~~
t.c:6:3: error: case label not within a switch statement
    6 |   case 1: ;
      |   ^~~~
t.c:7:3: error: 'default' label not within a switch statement
    7 |   default: ;
      |   ^~~~~~~
t.c:10:11: error: duplicate case value
   10 |   case 2: case 1: break;
      |           ^~~~
t.c:9:3: note: previously used here
    9 |   case 1: break;
      |   ^~~~
t.c:12:3: error: multiple default labels in one switch
   12 |   default: ;
      |   ^~~~~~~
t.c:11:3: note: this is the first default label
   11 |   default: ;
      |   ^~~~~~~
t.c:14:3: error: duplicate case value
   14 |   case 4: ;
      |   ^~~~
t.c:13:3: note: previously used here
   13 |   case 3 ... 5: ;
      |   ^~~~
"#,
        7,
    );
}

/// An array of an `aligned` typedef whose size is no multiple of its alignment is
/// refused, as gcc refuses it; one whose alignment divides the size is fine.
#[test]
fn arrays_of_over_aligned_typedefs() {
    check(
        r#"typedef int T __attribute__((aligned(16)));
typedef double D __attribute__((aligned(2)));
T a[4];
D b[3];
_Static_assert(sizeof b == 24, "D keeps its size");
"#,
        r#"t.c:3:3: error: alignment of array elements is greater than element size
    3 | T a[4];
      |   ^
"#,
        1,
    );
}

/// A K&R definition's parameter declarations see the parameters declared before them
/// (a VLA bound may use one); a parameter declared twice is refused; one declared only
/// after its use is still undeclared there.
#[test]
fn knr_parameter_declarations_in_scope_in_order() {
    check(
        r#"int kr(n, m) int n; int m[][n]; { return m[1][0]; }
int twice(n) int n; int n; { return n; }
int late(m, k) int m[][k]; int k; { return k; }
"#,
        r#"t.c:2:25: error: redefinition of parameter 'n'
    2 | int twice(n) int n; int n; { return n; }
      |                         ^
t.c:2:18: note: previous definition of 'n' with type 'int'
    2 | int twice(n) int n; int n; { return n; }
      |                  ^
t.c:3:24: error: 'k' undeclared here (not in a function)
    3 | int late(m, k) int m[][k]; int k; { return k; }
      |                        ^
"#,
        2,
    );
}

/// An integer cast to a pointer of another size is warned about unless it is a constant,
/// casts and all (sema marks the expressions that cannot be constants as it types them).
#[test]
fn int_to_pointer_casts_of_constants() {
    check(
        r#"void *a(void) { return (void *)((unsigned int)5 + 2); }
void *b(unsigned u) { return (void *)(u + 2); }
void *c(void) { return (void *)(unsigned char)(300 + (short)2); }
"#,
        r#"t.c: In function 'b':
t.c:2:30: warning: cast to pointer from integer of different size [-Wint-to-pointer-cast]
    2 | void *b(unsigned u) { return (void *)(u + 2); }
      |                              ^
"#,
        0,
    );
}
