//! Macro expansion: the C standard's examples (C17 6.10.3.5, C2x __VA_OPT__) and the corner
//! cases where compilers differ, each with gcc's answer.

mod common;
use common::{expands_to, run};

#[test]
fn c17_6_10_3_5_example_3_rescanning() {
    expands_to(
        "#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
",
        "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { \"hello\", \"\" };",
    );
}

#[test]
fn c17_6_10_3_5_example_4_stringizing_and_pasting() {
    expands_to(
        r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#,
        r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0" ": @\n", s);
"vers2.h"
"hello";
"hello" ", world""#,
    );
}

#[test]
fn c17_6_10_3_5_example_5_placemarkers() {
    expands_to(
        "#define t(x,y,z) x ## y ## z
int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),
 t(10,,), t(,11,), t(,,12), t(,,) };",
        "int j[] = { 123, 45, 67, 89, 10, 11, 12, };",
    );
}

#[test]
fn c17_6_10_3_5_example_6_valid_redefinitions_are_silent() {
    let r = run("#define OBJ_LIKE (1-1)
#define OBJ_LIKE /* white space */ (1-1) /* other */
#define FUNC_LIKE(a) ( a )
#define FUNC_LIKE( a )( /* note the white space */ \\
a /* other stuff on this line
*/ )
");
    assert_eq!(r.diags, "");
}

#[test]
fn c17_6_10_3_5_example_6_invalid_redefinitions_warn() {
    let r = run("#define OBJ_LIKE (1-1)
#define OBJ_LIKE (0)
#define FUNC_LIKE(a) ( a )
#define FUNC_LIKE(b) ( b )
");
    assert_eq!(
        r.diags,
        // gcc reports redefinitions by line only.
        "t.c:2: warning: \"OBJ_LIKE\" redefined
    2 | #define OBJ_LIKE (0)
      | \nt.c:1: note: this is the location of the previous definition
    1 | #define OBJ_LIKE (1-1)
      | \nt.c:4: warning: \"FUNC_LIKE\" redefined
    4 | #define FUNC_LIKE(b) ( b )
      | \nt.c:3: note: this is the location of the previous definition
    3 | #define FUNC_LIKE(a) ( a )
      | \n"
    );
}

#[test]
fn c17_6_10_3_5_example_7_variadic() {
    expands_to(
        r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);"#,
        r#"fprintf(stderr, "Flag");
fprintf(stderr, "X = %d\n", x);
puts("The first, second, and third items.");
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));"#,
    );
}

#[test]
fn va_opt_as_in_c2x() {
    expands_to(
        "#define F(...) f(0 __VA_OPT__(,) __VA_ARGS__)
#define G(X, ...) f(0, X __VA_OPT__(,) __VA_ARGS__)
#define SDEF(sname, ...) S sname __VA_OPT__(= { __VA_ARGS__ })
#define EMP
F(a, b, c) F() F(EMP) G(a, b, c) G(a, ) G(a) SDEF(foo); SDEF(bar, 1, 2);",
        "f(0 , a, b, c) f(0 ) f(0 ) f(0, a , b, c) f(0, a ) f(0, a ) S foo ; S bar = { 1, 2 };",
    );
}

#[test]
fn gnu_comma_paste_and_named_variadics() {
    expands_to(
        r#"#define e(fmt, args...) printf(fmt, ## args)
#define v(fmt, ...) printf(fmt, ##__VA_ARGS__)
e("a") e("b", 1, 2) v("c") v("d", 3)"#,
        r#"printf("a") printf("b", 1, 2) printf("c") printf("d",3)"#,
    );
}

#[test]
fn gcc_answer_where_the_standard_is_unclear() {
    // C17 6.10.3.4 EXAMPLE: gcc gives 2*9*g.
    expands_to("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)", "2*9*g");
    // A disabled name stays unexpanded for good ("painted blue").
    expands_to("#define foo foo\n#define bar foo\nbar", "foo");
    expands_to("#define f(x) x f\nf(1)(2)", "1 f(2)");
}

#[test]
fn function_like_name_without_parens_and_across_lines() {
    expands_to("#define f(x) [x]\nf + f\n(1\n+2)", "f + [1\n+2]");
    expands_to("#define f(x, y) x+y\nf(\n1,\n2\n)", "1+2");
}

#[test]
fn paste_results_are_rescanned_and_hash_hash_is_made() {
    expands_to("#define cat(a,b) a##b\n#define ab 42\ncat(a,b)", "42");
    expands_to("#define hh # ## #\n#define mk(a) # a\n#define ib(a) mk(a)\n#define j(c,d) ib(c hh d)\nj(x,y)", "\"x ## y\"");
    expands_to(
        "#define cat(a,b) a##b\ncat(<,<=) cat(-,>) cat(.,5) cat(L,'x')",
        "<<= -> .5 L'x'",
    );
}

#[test]
fn builtin_macros() {
    let r = run("#define L __LINE__\n__LINE__ L\n#define h(x) x __LINE__\nh(\na\n)\n__FILE__ __COUNTER__ __COUNTER__ __INCLUDE_LEVEL__ __DATE__ __TIME__");
    assert_eq!(
        common::tokens(&r.out),
        common::tokens("2 2 a 4 \"t.c\" 0 1 0 \"Jan  1 1970\" \"00:00:00\"")
    );
}

#[test]
fn line_directive_changes_presumed_line_and_file() {
    let r = run("#line 100 \"x.c\"\n__LINE__ __FILE__\n#line 7\n__LINE__ __FILE__");
    assert_eq!(
        common::tokens(&r.out),
        common::tokens("100 \"x.c\" 7 \"x.c\"")
    );
}

#[test]
fn pragma_operator_becomes_a_pragma_line() {
    let r = run("#define P(x) _Pragma(#x) int b;\nint a; P(message(\"hi\")) c\n_Pragma(\"GCC diagnostic push\") x");
    assert_eq!(
        common::tokens(&r.out),
        common::tokens("int a;\n#pragma message(\"hi\")\nint b; c\n#pragma GCC diagnostic push\nx")
    );
}

#[test]
fn push_and_pop_macro() {
    expands_to(
        "#define X 1\n#pragma push_macro(\"X\")\n#undef X\n#define X 2\nX\n#pragma pop_macro(\"X\")\nX",
        "2 1",
    );
}

#[test]
fn stringizing_escapes_and_collapses_white_space() {
    expands_to(
        "#define s(x) #x\ns(  a   +\n  b  ) s(\"q\\n\") s('\"') s(\\) s(a/**/b)",
        r#""a + b" "\"q\\n\"" "'\"'" "\" "a b""#,
    );
}

#[test]
fn macro_recursion_through_arguments_terminates() {
    expands_to(
        "#define f(x) g(x)\n#define g(x) f(x)\nf(f(g(1)))",
        "f(f(g(1)))",
    );
    // Deep nesting of a function-like macro in its own arguments.
    let mut src = String::from("#define f(x) (x)\n");
    for _ in 0..200 {
        src.push_str("f(");
    }
    src.push('1');
    for _ in 0..200 {
        src.push(')');
    }
    let r = run(&src);
    assert_eq!(r.errors, 0);
    assert_eq!(common::tokens(&r.out).len(), 401);
}

#[test]
fn va_opt_outside_a_variadic_macro_is_an_ordinary_name_with_a_warning() {
    let r = run("#define f(x) __VA_OPT__(a) x\nf(1)\n");
    assert_eq!(common::tokens(&r.out), common::tokens("__VA_OPT__(a) 1"));
    assert_eq!(
        r.diags,
        "t.c:1:14: warning: __VA_OPT__ can only appear in the expansion of a C++20 variadic macro
    1 | #define f(x) __VA_OPT__(a) x
      |              ^
"
    );
}

/// A directive among a macro's arguments may #undef the macro itself: the call still
/// expands with the definition it started with (gcc's output), and nothing panics (found
/// by scripts/fuzz-robustness.py).
#[test]
fn undef_among_the_arguments_of_the_macro_itself() {
    expands_to("#define f(x) [x]\nf(1\n#undef f\n2)\nf(3)\n", "[1 2] f(3)");
}
