//! neverc's own freestanding headers (`stddef.h`, `stdarg.h`, ...), shipped inside the
//! binary. They take every target-dependent fact from predefined macros (`__SIZE_TYPE__`,
//! `__INT_MAX__`, ...), so one text serves every target. `limits.h` and `stdint.h` defer to
//! the C library's own when one follows them on the include path (`#include_next`).

/// `(file name, contents)` for each header neverc provides itself.
pub fn freestanding_headers() -> &'static [(&'static str, &'static str)] {
    HEADERS
}

static HEADERS: &[(&str, &str)] = &[
    ("float.h", include_str!("../include/float.h")),
    ("iso646.h", include_str!("../include/iso646.h")),
    ("limits.h", include_str!("../include/limits.h")),
    ("stdalign.h", include_str!("../include/stdalign.h")),
    ("stdarg.h", include_str!("../include/stdarg.h")),
    ("stdatomic.h", include_str!("../include/stdatomic.h")),
    ("stdbool.h", include_str!("../include/stdbool.h")),
    ("stddef.h", include_str!("../include/stddef.h")),
    ("stdint.h", include_str!("../include/stdint.h")),
    ("stdnoreturn.h", include_str!("../include/stdnoreturn.h")),
    ("tgmath.h", include_str!("../include/tgmath.h")),
    ("varargs.h", include_str!("../include/varargs.h")),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_in_include_is_listed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        on_disk.sort();
        let listed: Vec<&str> = HEADERS.iter().map(|(n, _)| *n).collect();
        assert_eq!(on_disk, listed);
    }

    #[test]
    fn headers_take_types_from_predefined_macros() {
        let get = |n: &str| HEADERS.iter().find(|(name, _)| *name == n).unwrap().1;
        assert!(get("stddef.h").contains("typedef __SIZE_TYPE__ size_t;"));
        assert!(get("stddef.h").contains("#undef __need_size_t"));
        assert!(get("stdarg.h").contains("typedef __builtin_va_list va_list;"));
        assert!(get("stdint.h").contains("typedef __INT_LEAST8_TYPE__ int_least8_t;"));
        assert!(get("stdint.h").contains("#include_next <stdint.h>"));
        assert!(get("varargs.h").starts_with("/*") && get("varargs.h").contains("#error"));
    }
}
