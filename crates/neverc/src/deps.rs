//! Make dependency rules (`-M`, `-MM`, `-MD`, `-MMD`, `-MF`, `-MT`, `-MQ`, `-MP`, `-MG`) in
//! gcc's exact layout: names wrapped before column 72 with ` \`, phony rules after.

use crate::options::{quote_make_target, DepOptions};

/// The rule for one translation unit. `deps` are the files read, main file first, with
/// whether each is a system header.
pub fn make_rule(opts: &DepOptions, targets: &[String], deps: &[(String, bool)]) -> String {
    const COLMAX: usize = 72;
    let mut out = String::new();
    let mut col = 0usize;
    let write_name = |out: &mut String, col: &mut usize, name: &str| {
        if *col > 0 {
            if *col + name.len() > COLMAX {
                out.push_str(" \\\n");
                *col = 0;
            }
            *col += 1;
            out.push(' ');
        }
        *col += name.len();
        out.push_str(name);
    };
    for t in targets {
        write_name(&mut out, &mut col, t);
    }
    out.push(':');
    col += 1;
    let kept: Vec<String> = deps
        .iter()
        .filter(|(_, system)| !(opts.user_only && *system))
        .map(|(d, _)| quote_make_target(d))
        .collect();
    for d in &kept {
        write_name(&mut out, &mut col, d);
    }
    out.push('\n');
    if opts.phony {
        for d in kept.iter().skip(1) {
            out.push_str(d);
            out.push_str(":\n");
        }
    }
    out
}

/// The rule's targets in gcc's order. gcc's driver hands `-MQ` targets to the
/// preprocessor before `-MT` ones, and the preprocessor keeps unquoted targets ahead of
/// quoted ones by swapping each new unquoted target with the first quoted one.
pub fn order_targets(given: &[(String, bool)]) -> Vec<String> {
    let mut targets: Vec<String> = Vec::new();
    let mut quote_lwm = 0;
    let quoted = given.iter().filter(|(_, q)| *q);
    let unquoted = given.iter().filter(|(_, q)| !*q);
    for (t, q) in quoted.chain(unquoted) {
        let t = strip_dot_slash(t);
        if *q {
            targets.push(quote_make_target(t));
        } else {
            let mut t = t.to_string();
            if quote_lwm != targets.len() {
                std::mem::swap(&mut targets[quote_lwm], &mut t);
            }
            quote_lwm += 1;
            targets.push(t);
        }
    }
    targets
}

/// gcc drops leading `./` from the names in make rules.
fn strip_dot_slash(mut s: &str) -> &str {
    while let Some(rest) = s.strip_prefix("./") {
        s = rest.trim_start_matches('/');
    }
    s
}

/// The default rule target: the object the input would compile to (`dir/a.c` -> `a.o`), or
/// the `-o` file when the dependencies are a side effect of compiling to it.
pub fn default_target(input: &str, object_output: Option<&str>) -> String {
    if let Some(o) = object_output {
        return quote_make_target(o);
    }
    let base = input.rsplit('/').next().unwrap_or(input);
    let stem = match base.rfind('.') {
        Some(i) if i > 0 => &base[..i],
        _ => base,
    };
    quote_make_target(&format!("{stem}.o"))
}

/// The `-MD` file when no `-MF` names one: the output with its suffix replaced by `.d`, or
/// the input's base name with `.d`.
pub fn default_dep_file(input: &str, output: Option<&str>) -> String {
    let from = output.unwrap_or_else(|| input.rsplit('/').next().unwrap_or(input));
    let (dir, base) = match from.rfind('/') {
        Some(i) => (&from[..=i], &from[i + 1..]),
        None => ("", from),
    };
    let stem = match base.rfind('.') {
        Some(i) if i > 0 => &base[..i],
        _ => base,
    };
    format!("{dir}{stem}.d")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deps(names: &[&str]) -> Vec<(String, bool)> {
        names
            .iter()
            .map(|n| (n.to_string(), n.starts_with("/usr")))
            .collect()
    }

    #[test]
    fn wraps_like_gcc() {
        let o = DepOptions::default();
        let d = deps(&[
            "d.c",
            "/usr/include/stdc-predef.h",
            "/usr/include/stdio.h",
            "/usr/include/x86_64-linux-gnu/bits/libc-header-start.h",
            "/usr/include/features.h",
        ]);
        assert_eq!(
            make_rule(&o, &["d.o".into()], &d),
            "d.o: d.c /usr/include/stdc-predef.h /usr/include/stdio.h \\\n /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \\\n /usr/include/features.h\n"
        );
    }

    #[test]
    fn mm_and_mp() {
        let o = DepOptions {
            user_only: true,
            phony: true,
            ..Default::default()
        };
        let d = deps(&["a.c", "/usr/include/stdc-predef.h", "h1.h", "h2.h"]);
        assert_eq!(
            make_rule(&o, &["a.o".into()], &d),
            "a.o: a.c h1.h h2.h\nh1.h:\nh2.h:\n"
        );
    }

    #[test]
    fn target_order_follows_gcc() {
        let t = |s: &str, q| (s.to_string(), q);
        assert_eq!(
            order_targets(&[
                t("t1", false),
                t("q1", true),
                t("q2", true),
                t("q$3", true),
                t("t2", false)
            ]),
            ["t1", "t2", "q$$3", "q1", "q2"]
        );
        assert_eq!(
            order_targets(&[t("a b", false), t("x#y$z w", true), t("c", false)]),
            ["a b", "c", "x\\#y$$z\\ w"]
        );
        assert_eq!(order_targets(&[t("./o.o", false)]), ["o.o"]);
    }

    #[test]
    fn names() {
        assert_eq!(default_target("src/a.c", None), "a.o");
        assert_eq!(default_target("sp ace.c", None), "sp\\ ace.o");
        assert_eq!(default_target("a.c", Some("out/x.o")), "out/x.o");
        assert_eq!(default_dep_file("src/a.c", None), "a.d");
        assert_eq!(default_dep_file("a.c", Some("out/x.i")), "out/x.d");
    }
}
