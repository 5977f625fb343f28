//! Directives: conditionals and `#if` arithmetic, `#include` search order, include guards,
//! `#pragma once`, line markers, and the diagnostics for bad input, each in gcc's words and
//! at gcc's line and column.

mod common;
use common::{dir, expands_to, options, run, run_with, temp_dir, tokens, write};

#[test]
fn if_arithmetic_in_intmax_and_uintmax() {
    expands_to(
        "#if -1 < 0u\nbad1\n#endif
#if -1 < 0\nok1\n#endif
#if (2 || 1/0) && !(0 && 1/0)\nok2\n#endif
#if 0x7fffffffffffffff + 0 == 9223372036854775807\nok3\n#endif
#if (-1 >> 63) == -1 && (1 << 62) == 0x4000000000000000\nok4\n#endif
#if 'a' == 97 && '\\377' < 0 && L'\\377' == 255 && u'\\xffff' == 65535\nok5\n#endif
#if 1 ? 2 : (1/0)\nok6\n#endif
#if (0, 1)\nok7\n#endif
#if ~0u == 18446744073709551615u && -1u == ~0u\nok8\n#endif
#if undefined_name == 0 && defined __STDC__ && !defined(nope)\nok9\n#endif
#if 10 % 3 == 1 && -7 / 2 == -3 && 0b101 == 5 && 010 == 8\nok10\n#endif",
        "ok1 ok2 ok3 ok4 ok5 ok6 ok7 ok8 ok9 ok10",
    );
}

#[test]
fn elif_else_and_nesting() {
    expands_to(
        "#define A 2
#if A == 1
one
#elif A == 2
two
#  if 0
#    error not reached
#  else
nested
#  endif
#elif 1/0
never
#else
nor
#endif
#ifdef A
a
#endif
#ifndef A
#else
b
#endif
#if 0
#elifdef A
c
#endif
#if 0
'unterminated in a skipped group is fine
#bogus directive skipped too
#endif",
        "two nested a b c",
    );
}

#[test]
fn has_include_and_has_attribute() {
    let d = temp_dir("hasinc");
    write(&d, "there.h", "");
    let main = write(&d, "t.c", "");
    let src = "#if __has_include(\"there.h\") && !__has_include(<not-there.h>)\nyes\n#endif
#if __has_attribute(aligned) && !__has_attribute(no_such) && __has_builtin(__builtin_expect)\nattr\n#endif
#ifdef __has_include\ndefined\n#endif";
    let r = run_with(src, options(), false, Some(main));
    assert_eq!(r.diags, "");
    assert_eq!(tokens(&r.out), tokens("yes attr defined"));
}

#[test]
fn include_search_order_and_include_next() {
    let d = temp_dir("order");
    // The includer's directory first for "...", then -iquote, then -I, then system.
    write(&d, "src/local.h", "from_local");
    write(&d, "q/quote.h", "from_quote");
    write(&d, "q/local.h", "wrong_local");
    write(&d, "i/both.h", "from_i\n#include_next <both.h>\n");
    write(&d, "sys/both.h", "from_sys");
    write(&d, "i/quote.h", "wrong_quote");
    let main = write(
        &d,
        "src/t.c",
        "#include \"local.h\"\n#include \"quote.h\"\n#include <both.h>\n",
    );
    let mut o = options();
    o.quote_dirs = vec![dir(&d.join("q"), false)];
    o.bracket_dirs = vec![dir(&d.join("i"), false), dir(&d.join("sys"), true)];
    let r = run_with(
        "#include \"local.h\"\n#include \"quote.h\"\n#include <both.h>\n",
        o,
        false,
        Some(main),
    );
    assert_eq!(r.diags, "");
    assert_eq!(
        tokens(&r.out),
        tokens("from_local from_quote from_i from_sys")
    );
}

#[test]
fn include_guard_and_pragma_once_read_a_file_once() {
    let d = temp_dir("guard");
    write(
        &d,
        "g.h",
        "/* c */\n#ifndef G_H\n#define G_H\nguarded\n#endif\n",
    );
    write(&d, "o.h", "#pragma once\nonce\n");
    write(&d, "n.h", "#ifndef N_H\n#define N_H\n#endif\nafter_guard\n");
    let src = "#include \"g.h\"\n#include \"g.h\"\n#include \"o.h\"\n#include \"o.h\"\n#include \"n.h\"\n#include \"n.h\"\n";
    let main = write(&d, "t.c", src);
    let r = run_with(src, options(), false, Some(main));
    assert_eq!(r.diags, "");
    assert_eq!(
        tokens(&r.out),
        tokens("guarded once after_guard after_guard")
    );
}

#[test]
fn line_markers_like_gcc() {
    let d = temp_dir("markers");
    write(&d, "a.h", "int a;\n");
    let src = "#include \"a.h\"\nint b;\n\n\n\n\n\n\n\n\n\n\nint c;\n";
    let main = write(&d, "t.c", src);
    let r = run_with(src, options(), true, Some(main.clone()));
    let m = main.display().to_string();
    let h = d.join("a.h").display().to_string();
    assert_eq!(
        r.out,
        format!(
            "# 0 \"{m}\"\n# 0 \"<built-in>\"\n# 0 \"<command-line>\"\n# 1 \"{m}\"\n# 1 \"{h}\" 1\nint a;\n# 2 \"{m}\" 2\nint b;\n# 13 \"{m}\"\nint c;\n"
        )
    );
}

#[test]
fn unterminated_constructs() {
    let r = run("/* open");
    assert_eq!(
        r.diags,
        "t.c:1:1: error: unterminated comment\n    1 | /* open\n      | ^~\n"
    );
    assert_eq!(r.errors, 1);

    let r = run("#if 1\nint a;\n");
    assert_eq!(
        r.diags,
        "t.c:1: error: unterminated #if\n    1 | #if 1\n      | \n"
    );

    let r = run("#ifdef X\n");
    assert_eq!(
        r.diags,
        "t.c:1: error: unterminated #ifdef\n    1 | #ifdef X\n      | \n"
    );

    let r = run("char *s = \"abc;\n");
    assert_eq!(
        r.diags,
        "t.c:1:11: warning: missing terminating \" character\n    1 | char *s = \"abc;\n      |           ^\n"
    );
    assert_eq!(r.errors, 0);
}

#[test]
fn stray_and_bad_directives() {
    // gcc's exact output for the same input (gcc skips after the bad #ifdef, too).
    let r = run("#else\n#endif\n#elif 1\n#foo\n#define\n#define 3\n#undef\n#ifdef\n#if\n#endif\n#include\n#line x\n");
    assert_eq!(
        r.diags,
        "t.c:1:2: error: #else without #if
    1 | #else
      |  ^~~~
t.c:2:2: error: #endif without #if
    2 | #endif
      |  ^~~~~
t.c:3:2: error: #elif without #if
    3 | #elif 1
      |  ^~~~
t.c:4:2: error: invalid preprocessing directive #foo
    4 | #foo
      |  ^~~
t.c:5:8: error: no macro name given in #define directive
    5 | #define
      |        ^
t.c:6:9: error: macro names must be identifiers
    6 | #define 3
      |         ^
t.c:7:7: error: no macro name given in #undef directive
    7 | #undef
      |       ^
t.c:8:7: error: no macro name given in #ifdef directive
    8 | #ifdef
      |       ^
t.c:8: error: unterminated #ifdef
    8 | #ifdef
      | \n"
    );
    let r = run("#if\n#endif\n#include\n#line x\n");
    assert_eq!(
        r.diags,
        "t.c:1:4: error: #if with no expression
    1 | #if
      |    ^
t.c:3:9: error: #include expects \"FILENAME\" or <FILENAME>
    3 | #include
      |         ^
t.c:4:7: error: \"x\" after #line is not a positive integer
    4 | #line x
      |       ^
"
    );
}

#[test]
fn else_after_else_and_error_directive() {
    let r = run("#if 0\n#else\n#else\n#endif\n#error stop here\n#warning careful\n");
    assert_eq!(
        r.diags,
        "t.c:3:2: error: #else after #else
    3 | #else
      |  ^~~~
t.c:1: error: the conditional began here
    1 | #if 0
      | 
t.c:5:2: error: #error stop here
    5 | #error stop here
      |  ^~~~~
t.c:6:2: warning: #warning careful [-Wcpp]
    6 | #warning careful
      |  ^~~~~~~
"
    );
}

#[test]
fn if_expression_errors() {
    let r = run("#if 1 +\n#endif\n#if (1\n#endif\n#if 1/0\n#endif\n#if 1.0\n#endif\n#if \"s\"\n#endif\n#if 1 2\n#endif\n#if defined\n#endif\n");
    assert_eq!(
        r.diags,
        "t.c:1:8: error: operator '+' has no right operand
    1 | #if 1 +
      |        ^
t.c:3:5: error: missing ')' in expression
    3 | #if (1
      |     ^
t.c:5:6: error: division by zero in #if
    5 | #if 1/0
      |      ^
t.c:7:5: error: floating constant in preprocessor expression
    7 | #if 1.0
      |     ^~~
t.c:9:5: error: token \"\"s\"\" is not valid in preprocessor expressions
    9 | #if \"s\"
      |     ^~~
t.c:11:7: error: missing binary operator before token \"2\"
   11 | #if 1 2
      |       ^
t.c:13:12: error: operator \"defined\" requires an identifier
   13 | #if defined
      |            ^
"
    );
}

#[test]
fn too_few_arguments_counts_the_given_ones() {
    // gcc counts the arguments given (the count once said 0 whatever was given).
    let r = run("#define f(a,b,c) a\nf(1,2)\n");
    assert_eq!(
        r.diags,
        "t.c:2:6: error: macro \"f\" requires 3 arguments, but only 2 given
    2 | f(1,2)
      |      ^
t.c:1: note: macro \"f\" defined here
    1 | #define f(a,b,c) a
      | 
"
    );
}

#[test]
fn invalid_paste_and_argument_count() {
    let r = run("#define cat(a,b) a##b\ncat(+,/)\n#define one(x) x\none(1,2)\none(\n");
    assert_eq!(
        r.diags,
        "t.c:2:5: error: pasting \"+\" and \"/\" does not give a valid preprocessing token
    2 | cat(+,/)
      |     ^
t.c:2:1: note: in expansion of macro 'cat'
    2 | cat(+,/)
      | ^~~
t.c:4:8: error: macro \"one\" passed 2 arguments, but takes just 1
    4 | one(1,2)
      |        ^
t.c:3: note: macro \"one\" defined here
    3 | #define one(x) x
      | 
t.c:5:5: error: unterminated argument list invoking macro \"one\"
    5 | one(
      |     ^
"
    );
    assert_eq!(tokens(&r.out), tokens("+ / one one"));
}

#[test]
fn missing_include_is_fatal() {
    let r = run("#include \"nope.h\"\nint after;\n");
    assert_eq!(
        r.diags,
        "t.c:1:10: fatal error: nope.h: No such file or directory
    1 | #include \"nope.h\"
      |          ^~~~~~~~
compilation terminated.
"
    );
    assert!(!r.out.contains("after"));
}

#[test]
fn include_recursion_stops_at_the_depth_limit() {
    let d = temp_dir("recurse");
    // Two self-inclusions would be exponential without a hard stop.
    write(&d, "r.h", "#include \"r.h\"\n#include \"r.h\"\n");
    let main = write(&d, "t.c", "#include \"r.h\"\n");
    let r = run_with("#include \"r.h\"\n", options(), false, Some(main));
    assert_eq!(r.errors, 1);
    assert!(
        r.diags
            .contains("error: #include nested depth 200 exceeds maximum of 200"),
        "{}",
        r.diags
    );
}

#[test]
fn nul_bytes_and_invalid_utf8() {
    let r = run("int a;\0int b;\nint c\u{fffd};\n");
    assert_eq!(r.errors, 0);
    assert!(
        r.diags
            .starts_with("t.c:1:7: warning: null character(s) ignored\n"),
        "{}",
        r.diags
    );
    let bytes = b"int x\xff = 1;\n";
    let r = run(std::str::from_utf8(&bytes[..]).unwrap_or("int x\u{ff}"));
    let _ = r;
    let buf = common::Buf::default();
    let diags = neverc_front::diag::Diagnostics::new(Box::new(buf.clone()));
    let mut pp = neverc_front::pp::Preprocessor::new(options(), diags);
    pp.enter_main("t.c", None, bytes.to_vec());
    let mut out = Vec::new();
    neverc_front::pp::print::print_preprocessed(&mut pp, &mut out, Default::default()).unwrap();
    assert_eq!(
        buf.text(),
        "t.c:1:6: error: invalid UTF-8 byte '\\377' in program\n    1 | int x<ff> = 1;\n      |      ^~~~\n"
    );
    assert_eq!(pp.diags.errors, 1);
}

#[test]
fn huge_input_is_linear() {
    // 200,000 lines through a macro: no quadratic behaviour, no stack overflow.
    let mut src = String::from("#define F(x) (x + 1)\n");
    for i in 0..200_000 {
        src.push_str(&format!("F({i})\n"));
    }
    let r = run(&src);
    assert_eq!(r.errors, 0);
    assert_eq!(r.out.lines().filter(|l| !l.is_empty()).count(), 200_000);
}

#[test]
fn max_errors_stops_the_run() {
    let buf = common::Buf::default();
    let mut diags = neverc_front::diag::Diagnostics::new(Box::new(buf.clone()));
    diags.max_errors = 2;
    let mut pp = neverc_front::pp::Preprocessor::new(options(), diags);
    pp.enter_main("t.c", None, b"#foo\n#bar\n#baz\n".to_vec());
    let mut out = Vec::new();
    neverc_front::pp::print::print_preprocessed(&mut pp, &mut out, Default::default()).unwrap();
    let text = buf.text();
    assert!(
        text.ends_with("compilation terminated due to -fmax-errors=2.\n"),
        "{text}"
    );
    assert!(!text.contains("baz"));
}

#[test]
fn ident_and_sccs_pass_through_as_ident() {
    let r = run("#ident \"v1\"\n#sccs \"v2\"\nint x;\n#ident v3\n");
    assert_eq!(r.out, "#ident \"v1\"\n#ident \"v2\"\nint x;\n");
    assert_eq!(
        r.diags,
        "t.c:4:8: error: invalid #ident directive\n    4 | #ident v3\n      |        ^~\n"
    );
}
