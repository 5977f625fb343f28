//! neverc's own freestanding headers (`stddef.h`, `stdarg.h`, ...), shipped inside the
//! binary. They take every target-dependent fact from predefined macros (`__SIZE_TYPE__`,
//! `__INT_MAX__`, ...), so one text serves every target.

/// `(file name, contents)` for each header neverc provides itself.
pub fn freestanding_headers() -> &'static [(&'static str, &'static str)] {
    HEADERS
}

static HEADERS: &[(&str, &str)] = &[("stdbool.h", include_str!("../include/stdbool.h"))];
