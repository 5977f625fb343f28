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
    fn names() {
        assert_eq!(default_target("src/a.c", None), "a.o");
        assert_eq!(default_target("sp ace.c", None), "sp\\ ace.o");
        assert_eq!(default_target("a.c", Some("out/x.o")), "out/x.o");
        assert_eq!(default_dep_file("src/a.c", None), "a.d");
        assert_eq!(default_dep_file("a.c", Some("out/x.i")), "out/x.d");
    }
}
