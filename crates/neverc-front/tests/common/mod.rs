//! Shared helpers: preprocess text in memory and compare results token by token.

#![allow(dead_code)]

use neverc_front::diag::Diagnostics;
use neverc_front::lex::{intern_punctuators, LexOptions, Lexer};
use neverc_front::pp::print::{print_preprocessed, PrintOptions};
use neverc_front::pp::{PpOptions, Preprocessor, SearchDir, Std};
use neverc_front::source::FileId;
use neverc_front::token::{Interner, TokKind};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A `Write` whose bytes the test reads afterwards.
#[derive(Clone, Default)]
pub struct Buf(pub Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

pub struct Run {
    pub out: String,
    pub diags: String,
    pub errors: usize,
    pub deps: Vec<String>,
}

pub fn options() -> PpOptions {
    PpOptions {
        std: Std::default(),
        char_signed: true,
        wchar_bits: 32,
        wchar_signed: true,
        source_date_epoch: Some(0),
        builtins: vec!["__builtin_expect"],
        attributes: vec![("aligned", 1)],
        ..Default::default()
    }
}

/// Preprocesses `src` as the main file `t.c` (with `-P` unless `markers`).
pub fn run_with(src: &str, opts: PpOptions, markers: bool, main_path: Option<PathBuf>) -> Run {
    let buf = Buf::default();
    let diags = Diagnostics::new(Box::new(buf.clone()));
    let mut pp = Preprocessor::new(opts, diags);
    pp.run_builtin_text(
        "<built-in>",
        "#define __STDC__ 1\n#define __STDC_VERSION__ 201710L\n",
    );
    let name = main_path
        .as_ref()
        .map_or("t.c".to_string(), |p| p.display().to_string());
    pp.enter_main(&name, main_path, src.as_bytes().to_vec());
    let mut out = Vec::new();
    print_preprocessed(
        &mut pp,
        &mut out,
        PrintOptions {
            no_line_markers: !markers,
        },
    )
    .unwrap();
    pp.finish();
    Run {
        out: String::from_utf8_lossy(&out).into_owned(),
        diags: buf.text(),
        errors: pp.diags.errors,
        deps: pp.deps.iter().map(|(n, _)| n.clone()).collect(),
    }
}

pub fn run(src: &str) -> Run {
    run_with(src, options(), false, None)
}

/// The preprocessing tokens of `text` (as spelled).
pub fn tokens(text: &str) -> Vec<String> {
    let mut interner = Interner::new();
    intern_punctuators(&mut interner);
    let mut text = text.as_bytes().to_vec();
    text.push(b'\n');
    let mut lx = Lexer::new(FileId(1), text.into(), LexOptions::default());
    let mut out = Vec::new();
    loop {
        let t = lx.next(&mut interner);
        if t.kind == TokKind::Eof {
            break;
        }
        out.push(interner.str(t.sym).into_owned());
    }
    out
}

/// Asserts that preprocessing `src` gives exactly the tokens of `expected`, no diagnostics.
#[track_caller]
pub fn expands_to(src: &str, expected: &str) {
    let r = run(src);
    assert_eq!(r.diags, "", "unexpected diagnostics for:\n{src}");
    assert_eq!(tokens(&r.out), tokens(expected), "\noutput was:\n{}", r.out);
}

/// A fresh directory under the system temporary directory.
pub fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "neverc-test-{}-{}-{tag}",
        std::process::id(),
        unique()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

pub fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

pub fn dir(path: &Path, system: bool) -> SearchDir {
    SearchDir {
        path: path.to_path_buf(),
        system,
    }
}
