//! The ELF writer end to end: a module built by hand from encoded x86-64 bytes is written,
//! inspected with `readelf` (symbols, sections, relocations exactly), then linked with the
//! system `cc` as a PIE, a non-PIE and a shared library, and run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use neverc_codegen::cfi::{self, CfaOp, FrameDescription};
use neverc_codegen::object_file::{
    Binding, ObjTarget, ObjectModule, SectionKind, SymKind, SymbolInfo, Visibility,
};
use neverc_codegen::reloc::{Fixup, RelocKind, SymId};

fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("skipping: `{tool}` is not available");
    }
    ok
}

/// A fresh scratch directory per test (no tempfile dependency).
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("neverc-codegen-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn fx(offset: u32, sym: SymId, kind: RelocKind, addend: i64) -> Fixup {
    Fixup {
        offset,
        sym,
        kind,
        addend,
    }
}

/// The hand-built translation unit. `entry` is the name of the function that prints a line
/// and calls the gcc-compiled `report()` (`main` for executables, `lib_entry` in the shared
/// library). All data access is PIC, so the same object links every way.
fn build_module(entry: &str) -> ObjectModule {
    let mut m = ObjectModule::new(ObjTarget::x86_64());
    m.set_file_name("hand.c");
    let text = m.standard_section(SectionKind::Text);
    let strs = m.standard_section(SectionKind::ReadOnlyStrings);
    let rodata = m.standard_section(SectionKind::ReadOnlyData);
    let data = m.standard_section(SectionKind::Data);
    let bss = m.standard_section(SectionKind::Bss);
    let tdata = m.standard_section(SectionKind::TlsData);
    let init = m.standard_section(SectionKind::InitArray);
    let mysec = m.add_section("mysec", SectionKind::user("mysec", false, false), 1);

    // Strings: `.LC0` stays in the symbol table because a relocation with a nonzero addend
    // refers to it in a merge section (as gas); `str_local` is a file-static.
    let lc0 = m.declare(".LC0");
    let off = m.append(strs, b"hello from neverc\0", 1);
    m.define(
        lc0,
        strs,
        off,
        0,
        SymbolInfo::new(SymKind::NoType, Binding::Local),
    )
    .unwrap();
    let str_local = m.declare("str_local");
    m.append(rodata, b"padding\0", 1);
    let off = m.append(rodata, b"pointed string\0", 1);
    m.define(str_local, rodata, off, 15, SymbolInfo::local_object())
        .unwrap();

    // Symbols referenced before they are defined.
    let counter = m.declare("counter");
    let puts = m.declare("puts");
    let report = m.declare("report");
    let hidden_var = m.declare("hidden_var");

    // entry: push %rbp; mov %rsp,%rbp; lea .LC0(%rip),%rdi; call puts@PLT;
    // mov counter@GOTPCREL(%rip),%rax; incl (%rax); incl (%rax); call report@PLT;
    // xor %eax,%eax; pop %rbp; ret
    let code: &[u8] = &[
        0x55, 0x48, 0x89, 0xe5, 0x48, 0x8d, 0x3d, 0, 0, 0, 0, 0xe8, 0, 0, 0, 0, 0x48, 0x8b, 0x05,
        0, 0, 0, 0, 0xff, 0x00, 0xff, 0x00, 0xe8, 0, 0, 0, 0, 0x31, 0xc0, 0x5d, 0xc3,
    ];
    let main_off = m.append_with_fixups(
        text,
        code,
        16,
        &[
            fx(7, lc0, RelocKind::Pc32, -4),
            fx(12, puts, RelocKind::Plt32, -4),
            fx(19, counter, RelocKind::RexGotPcRelX, -4),
            fx(28, report, RelocKind::Plt32, -4),
        ],
    );
    let main_sym = m.declare(entry);
    m.define(
        main_sym,
        text,
        main_off,
        code.len() as u64,
        SymbolInfo::global_func(),
    )
    .unwrap();

    // get_tls: mov tlsvar@GOTTPOFF(%rip),%rax; mov %fs:(%rax),%eax; ret
    let tlsvar = m.declare("tlsvar");
    let code: &[u8] = &[0x48, 0x8b, 0x05, 0, 0, 0, 0, 0x64, 0x8b, 0x00, 0xc3];
    let get_tls_off = m.append(text, code, 16);
    m.add_fixups(text, get_tls_off, &[fx(3, tlsvar, RelocKind::GotTpOff, -4)]);
    let get_tls = m.declare("get_tls");
    m.define(get_tls, text, get_tls_off, 11, SymbolInfo::global_func())
        .unwrap();

    // static_helper (file-static): mov $42,%eax; ret
    let static_helper = m.declare("static_helper");
    let off = m.append(text, &[0xb8, 42, 0, 0, 0, 0xc3], 16);
    m.define(static_helper, text, off, 6, SymbolInfo::local_func())
        .unwrap();
    // call_static: jmp static_helper  (PLT32 keeps the local symbol, as gas does)
    let call_static = m.declare("call_static");
    let off = m.append(text, &[0xe9, 0, 0, 0, 0], 16);
    m.add_reloc(
        text,
        fx(off as u32 + 1, static_helper, RelocKind::Plt32, -4),
    );
    m.define(call_static, text, off, 5, SymbolInfo::global_func())
        .unwrap();

    // ctor (file-static, in .init_array): addl $100, hidden_var(%rip); ret
    let ctor = m.declare("ctor");
    let off = m.append(text, &[0x83, 0x05, 0, 0, 0, 0, 100, 0xc3], 16);
    m.add_reloc(text, fx(off as u32 + 2, hidden_var, RelocKind::Pc32, -5));
    m.define(ctor, text, off, 8, SymbolInfo::local_func())
        .unwrap();
    let slot = m.append(init, &[0; 8], 8);
    m.add_reloc(init, fx(slot as u32, ctor, RelocKind::Abs64, 0));

    // get_weak_missing, in its own section (-ffunction-sections):
    // mov weak_missing@GOTPCREL(%rip),%rax; ret
    let fsec = m.symbol_section(SectionKind::Text, "get_weak_missing", 16);
    let weak_missing = m.declare("weak_missing");
    m.set_weak(weak_missing);
    let off = m.append(fsec, &[0x48, 0x8b, 0x05, 0, 0, 0, 0, 0xc3], 16);
    m.add_reloc(
        fsec,
        fx(off as u32 + 3, weak_missing, RelocKind::RexGotPcRelX, -4),
    );
    let gwm = m.declare("get_weak_missing");
    m.define(gwm, fsec, off, 8, SymbolInfo::global_func())
        .unwrap();

    // Data: msg_ptr = &str_local (R_X86_64_64 against .rodata + offset); weak_def = 7;
    // hidden_var = 99 (hidden).
    let msg_ptr = m.declare("msg_ptr");
    let off = m.append(data, &[0; 8], 8);
    m.add_reloc(data, fx(off as u32, str_local, RelocKind::Abs64, 0));
    m.define(msg_ptr, data, off, 8, SymbolInfo::global_object())
        .unwrap();
    let weak_def = m.declare("weak_def");
    let off = m.append(data, &7i32.to_le_bytes(), 4);
    m.define(weak_def, data, off, 4, SymbolInfo::global_object())
        .unwrap();
    m.set_weak(weak_def);
    let off = m.append(data, &99i32.to_le_bytes(), 4);
    m.define(
        hidden_var,
        data,
        off,
        4,
        SymbolInfo::global_object().with_visibility(Visibility::Hidden),
    )
    .unwrap();

    // A label (no symbol) the relocation reaches as .rodata + 0.
    let pad = m.label(rodata, 0);
    let off = m.append(data, &[0; 8], 8);
    m.add_reloc(data, fx(off as u32, pad, RelocKind::Abs64, 0));

    // bss counter and its alias (defined before its target is).
    let counter_alias = m.declare("counter_alias");
    m.define_alias(counter_alias, counter, SymbolInfo::global_object())
        .unwrap();
    let off = m.append_bss(bss, 4, 4);
    m.define(counter, bss, off, 4, SymbolInfo::global_object())
        .unwrap();

    // -fcommon tentative definition.
    let common = m.declare("common_var");
    m.define_common(common, 8, 8).unwrap();

    // TLS: __thread int tlsvar = 5;
    let off = m.append(tdata, &5i32.to_le_bytes(), 4);
    m.define(
        tlsvar,
        tdata,
        off,
        4,
        SymbolInfo::new(SymKind::Tls, Binding::Global),
    )
    .unwrap();

    // __attribute__((section("mysec"))) int secvar = 0x1234;
    let secvar = m.declare("secvar");
    let off = m.append(mysec, &0x1234i32.to_le_bytes(), 4);
    m.define(secvar, mysec, off, 4, SymbolInfo::global_object())
        .unwrap();

    // A declared but unused extern does not appear.
    m.declare("unused_extern");

    cfi::write_eh_frame(
        &mut m,
        &[
            FrameDescription {
                func_sym: main_sym,
                start: main_off as u32,
                len: 36,
                ops: vec![
                    (1, CfaOp::PushRbp),
                    (4, CfaOp::MovRspRbp),
                    (35, CfaOp::AfterLeave),
                ],
            },
            FrameDescription {
                func_sym: get_tls,
                start: get_tls_off as u32,
                len: 11,
                ops: vec![],
            },
        ],
    )
    .unwrap();
    m
}

const HELPER_C: &str = r#"
#include <stdio.h>
extern int counter, counter_alias, weak_def, hidden_var, secvar;
extern long common_var;
extern char *msg_ptr;
extern __thread int tlsvar;
int get_tls(void);
void *get_weak_missing(void);
int call_static(void);
void report(void) {
    common_var += 3;
    printf("report: counter=%d alias=%d ptr=%s weak_def=%d common=%ld hidden=%d tls=%d/%d "
           "weak_missing=%d static=%d secvar=%d\n",
           counter, counter_alias, msg_ptr, weak_def, common_var, hidden_var, tlsvar,
           get_tls(), get_weak_missing() == 0, call_static(), secvar);
}
"#;

const EXPECTED_OUTPUT: &str = "hello from neverc\n\
report: counter=2 alias=2 ptr=pointed string weak_def=7 common=3 hidden=199 tls=5/5 \
weak_missing=1 static=42 secvar=4660\n";

/// `readelf -sW` as name -> "value size type bind vis ndx" (section index replaced by name).
fn symbols(obj: &Path) -> BTreeMap<String, String> {
    let sections = sections(obj);
    let by_index: BTreeMap<String, String> = sections
        .iter()
        .map(|(name, s)| (s.split(' ').next().unwrap().to_string(), name.clone()))
        .collect();
    let out = run(Command::new("readelf").arg("-sW").arg(obj));
    let mut map = BTreeMap::new();
    for line in out.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 8 || !f[0].ends_with(':') || f[0] == "Num:" {
            continue;
        }
        let ndx = by_index.get(f[6]).cloned().unwrap_or(f[6].to_string());
        let value = u64::from_str_radix(f[1], 16).unwrap();
        let v = format!("{value} {} {} {} {} {ndx}", f[2], f[3], f[4], f[5]);
        assert!(
            map.insert(f[7].to_string(), v).is_none(),
            "duplicate {}",
            f[7]
        );
    }
    map
}

/// `readelf -SW` as name -> "index type flags align".
fn sections(obj: &Path) -> BTreeMap<String, String> {
    let out = run(Command::new("readelf").arg("-SW").arg(obj));
    let mut map = BTreeMap::new();
    for line in out.lines() {
        let Some(rest) = line.trim_start().strip_prefix('[') else {
            continue;
        };
        let (idx, rest) = rest.split_once(']').unwrap();
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.is_empty() || f[0] == "Name" || idx.trim() == "0" {
            continue;
        }
        // name type addr off size es [flags] lk inf al
        let flags = if f.len() == 10 { f[6] } else { "-" };
        let align = f[f.len() - 1];
        map.insert(
            f[0].to_string(),
            format!("{} {} {flags} {align}", idx.trim(), f[1]),
        );
    }
    map
}

/// `readelf -rW` as "section: offset type target" lines.
fn relocs(obj: &Path) -> Vec<String> {
    let out = run(Command::new("readelf").arg("-rW").arg(obj));
    let mut v = Vec::new();
    let mut cur = String::new();
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("Relocation section '") {
            cur = rest.split('\'').next().unwrap().to_string();
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 5 || !f[2].starts_with("R_") {
            continue;
        }
        let off = u64::from_str_radix(f[0], 16).unwrap();
        v.push(format!("{cur}: {off} {} {}", f[2], f[4..].join(" ")));
    }
    v
}

#[test]
fn symbols_sections_and_relocations_are_as_gas_writes_them() {
    if !have("readelf") {
        return;
    }
    let dir = scratch("readelf");
    let obj = dir.join("hand.o");
    std::fs::write(&obj, build_module("main").write().unwrap()).unwrap();

    let syms = symbols(&obj);
    let expect = [
        ("hand.c", "0 0 FILE LOCAL DEFAULT ABS"),
        (".LC0", "0 0 NOTYPE LOCAL DEFAULT .rodata.str1.1"),
        ("str_local", "8 15 OBJECT LOCAL DEFAULT .rodata"),
        ("static_helper", "64 6 FUNC LOCAL DEFAULT .text"),
        ("ctor", "96 8 FUNC LOCAL DEFAULT .text"),
        ("main", "0 36 FUNC GLOBAL DEFAULT .text"),
        ("puts", "0 0 NOTYPE GLOBAL DEFAULT UND"),
        ("report", "0 0 NOTYPE GLOBAL DEFAULT UND"),
        ("get_tls", "48 11 FUNC GLOBAL DEFAULT .text"),
        ("call_static", "80 5 FUNC GLOBAL DEFAULT .text"),
        ("weak_missing", "0 0 NOTYPE WEAK DEFAULT UND"),
        (
            "get_weak_missing",
            "0 8 FUNC GLOBAL DEFAULT .text.get_weak_missing",
        ),
        ("msg_ptr", "0 8 OBJECT GLOBAL DEFAULT .data"),
        ("weak_def", "8 4 OBJECT WEAK DEFAULT .data"),
        ("hidden_var", "12 4 OBJECT GLOBAL HIDDEN .data"),
        ("counter_alias", "0 4 OBJECT GLOBAL DEFAULT .bss"),
        ("counter", "0 4 OBJECT GLOBAL DEFAULT .bss"),
        ("common_var", "8 8 OBJECT GLOBAL DEFAULT COM"),
        ("tlsvar", "0 4 TLS GLOBAL DEFAULT .tdata"),
        ("secvar", "0 4 OBJECT GLOBAL DEFAULT mysec"),
    ];
    let named: BTreeMap<String, String> = syms
        .iter()
        .filter(|(_, v)| !v.contains(" SECTION "))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let want: BTreeMap<String, String> = expect
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(
        named, want,
        "symbol table (.LC0 kept for a merge-section reloc; no label, no unused_extern)"
    );

    let secs = sections(&obj);
    let flags: BTreeMap<&str, String> = secs
        .iter()
        .map(|(k, v)| (k.as_str(), v.split_once(' ').unwrap().1.to_string()))
        .collect();
    for (name, want) in [
        (".text", "PROGBITS AX 16"),
        (".rodata.str1.1", "PROGBITS AMS 1"),
        (".rodata", "PROGBITS A 1"),
        (".data", "PROGBITS WA 8"),
        (".bss", "NOBITS WA 4"),
        (".tdata", "PROGBITS WAT 4"),
        (".init_array", "INIT_ARRAY WA 8"),
        ("mysec", "PROGBITS WA 4"),
        (".text.get_weak_missing", "PROGBITS AX 16"),
        (".eh_frame", "PROGBITS A 8"),
        (".note.GNU-stack", "PROGBITS - 1"),
        (".rela.text", "RELA I 8"),
        (".rela.eh_frame", "RELA I 8"),
    ] {
        assert_eq!(flags.get(name).map(String::as_str), Some(want), "{name}");
    }

    let r = relocs(&obj);
    let want = [
        ".rela.text: 7 R_X86_64_PC32 .LC0 - 4",
        ".rela.text: 12 R_X86_64_PLT32 puts - 4",
        ".rela.text: 19 R_X86_64_REX_GOTPCRELX counter - 4",
        ".rela.text: 28 R_X86_64_PLT32 report - 4",
        ".rela.text: 51 R_X86_64_GOTTPOFF tlsvar - 4",
        ".rela.text: 81 R_X86_64_PLT32 static_helper - 4",
        ".rela.text: 98 R_X86_64_PC32 hidden_var - 5",
        ".rela.data: 0 R_X86_64_64 .rodata + 8",
        ".rela.data: 16 R_X86_64_64 .rodata + 0",
        ".rela.init_array: 0 R_X86_64_64 .text + 60",
        ".rela.text.get_weak_missing: 3 R_X86_64_REX_GOTPCRELX weak_missing - 4",
        ".rela.eh_frame: 32 R_X86_64_PC32 .text + 0",
        ".rela.eh_frame: 64 R_X86_64_PC32 .text + 30",
    ];
    assert_eq!(r, want);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn output_is_deterministic() {
    let a = build_module("main").write().unwrap();
    let b = build_module("main").write().unwrap();
    let c = build_module("main").clone().write().unwrap();
    assert_eq!(a, b);
    assert_eq!(a, c);
}

fn link_and_run(test: &str, extra: &[&str]) {
    if !have("cc") {
        return;
    }
    let dir = scratch(test);
    let obj = dir.join("hand.o");
    std::fs::write(&obj, build_module("main").write().unwrap()).unwrap();
    let helper = dir.join("helper.c");
    std::fs::write(&helper, HELPER_C).unwrap();
    let exe = dir.join("prog");
    run(Command::new("cc")
        .args(extra)
        .arg("-Wl,--fatal-warnings")
        .arg("-o")
        .arg(&exe)
        .arg(&obj)
        .arg(&helper));
    assert_eq!(run(&mut Command::new(&exe)), EXPECTED_OUTPUT);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn links_and_runs_as_default_pie() {
    link_and_run("pie", &[]);
}

#[test]
fn links_and_runs_as_no_pie() {
    link_and_run("nopie", &["-no-pie"]);
}

#[test]
fn links_and_runs_with_gc_sections() {
    link_and_run("gc", &["-Wl,--gc-sections"]);
}

#[test]
fn links_and_runs_in_a_shared_library() {
    if !have("cc") {
        return;
    }
    let dir = scratch("shared");
    let obj = dir.join("hand.o");
    std::fs::write(&obj, build_module("lib_entry").write().unwrap()).unwrap();
    let helper = dir.join("helper.c");
    std::fs::write(&helper, HELPER_C).unwrap();
    let lib = dir.join("libhand.so");
    run(Command::new("cc")
        .args(["-shared", "-fPIC", "-Wl,--fatal-warnings", "-o"])
        .arg(&lib)
        .arg(&obj)
        .arg(&helper));
    let main_c = dir.join("main.c");
    std::fs::write(
        &main_c,
        "int lib_entry(void);\nint main(void) { return lib_entry(); }\n",
    )
    .unwrap();
    let exe = dir.join("prog");
    run(Command::new("cc")
        .arg("-o")
        .arg(&exe)
        .arg(&main_c)
        .arg(&lib)
        .arg(format!("-Wl,-rpath,{}", dir.display())));
    assert_eq!(run(&mut Command::new(&exe)), EXPECTED_OUTPUT);
    // The hidden symbol stays out of the dynamic symbol table; the default one is exported.
    let dynsyms = run(Command::new("readelf")
        .arg("--dyn-syms")
        .arg("-W")
        .arg(&lib));
    assert!(!dynsyms.contains("hidden_var"));
    assert!(dynsyms.contains(" counter_alias"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_are_reported() {
    let mut m = ObjectModule::new(ObjTarget::x86_64());
    let text = m.standard_section(SectionKind::Text);
    let f = m.declare("f");
    m.define(f, text, 0, 0, SymbolInfo::global_func()).unwrap();
    assert!(m.define(f, text, 0, 0, SymbolInfo::global_func()).is_err());
    let t = m.declare("t");
    assert!(m
        .define(
            t,
            text,
            0,
            4,
            SymbolInfo::new(SymKind::Tls, Binding::Global)
        )
        .is_err());
    assert!(m.define_common(f, 4, 4).is_err());
    let c = m.declare("c");
    assert!(m.define_common(c, 4, 3).is_err());
    // Aliases resolve through chains.
    let g = m.declare("g");
    m.define_alias(g, f, SymbolInfo::global_func()).unwrap();
    let h = m.declare("h");
    m.define_alias(h, g, SymbolInfo::global_func()).unwrap();
    assert_eq!(m.symbol_location(h), Some((text, 0)));
    m.write().unwrap();

    // A cycle of aliases.
    let mut m = ObjectModule::new(ObjTarget::x86_64());
    let a = m.declare("a");
    let b = m.declare("b");
    m.define_alias(a, b, SymbolInfo::global_func()).unwrap();
    m.define_alias(b, a, SymbolInfo::global_func()).unwrap();
    assert!(m.write().unwrap_err().contains("alias cycle"));

    // A file-static referenced but never defined.
    let mut m = ObjectModule::new(ObjTarget::x86_64());
    let text = m.standard_section(SectionKind::Text);
    let s = m.declare("s");
    m.define(s, text, 0, 0, SymbolInfo::local_func()).unwrap();
    let t = m.declare("t");
    m.append(text, &[0xe8, 0, 0, 0, 0], 1);
    m.add_reloc(text, fx(1, t, RelocKind::Plt32, -4));
    m.write().unwrap();
    let mut m2 = m.clone();
    let u = m2.declare("u");
    m2.set_weak(u);
    m2.write().unwrap();
    // Not yet mapped for other targets.
    let mut m = ObjectModule::new(ObjTarget {
        arch: neverc_codegen::object_file::ObjArch::RiscV64,
        big_endian: false,
        e_flags: 0,
    });
    let text = m.standard_section(SectionKind::Text);
    let x = m.declare("x");
    m.append(text, &[0; 8], 4);
    m.add_reloc(text, fx(0, x, RelocKind::Abs64, 0));
    assert!(m.write().unwrap_err().contains("not mapped"));
    // An x86-64 kind on AArch64.
    let mut m = ObjectModule::new(ObjTarget::aarch64());
    let text = m.standard_section(SectionKind::Text);
    let x = m.declare("x");
    m.append(text, &[0; 8], 4);
    m.add_reloc(text, fx(0, x, RelocKind::Plt32, 0));
    assert!(m.write().unwrap_err().contains("does not exist on AArch64"));

    // A relocation past the bytes.
    let mut m = ObjectModule::new(ObjTarget::x86_64());
    let data = m.standard_section(SectionKind::Data);
    let x = m.declare("x");
    m.append(data, &[0; 4], 4);
    m.add_reloc(data, fx(0, x, RelocKind::Abs64, 0));
    assert!(m.write().unwrap_err().contains("past the end"));
}

#[test]
fn headers_of_the_other_targets() {
    use neverc_codegen::object_file::ObjArch;
    if !have("readelf") {
        return;
    }
    let dir = scratch("targets");
    for (arch, big_endian, e_flags, class, machine, data, flags) in [
        (
            ObjArch::AArch64,
            false,
            0,
            "ELF64",
            "AArch64",
            "little",
            "0x0",
        ),
        (
            ObjArch::RiscV64,
            false,
            5,
            "ELF64",
            "RISC-V",
            "little",
            "0x5",
        ),
        (
            ObjArch::RiscV32,
            false,
            0,
            "ELF32",
            "RISC-V",
            "little",
            "0x0",
        ),
        (
            ObjArch::Arm,
            false,
            0x0500_0400,
            "ELF32",
            "ARM",
            "little",
            "0x5000400",
        ),
        (
            ObjArch::Mips,
            true,
            0x7000_1007,
            "ELF32",
            "MIPS R3000",
            "big",
            "0x70001007",
        ),
        (
            ObjArch::Mips64,
            false,
            0,
            "ELF64",
            "MIPS R3000",
            "little",
            "0x0",
        ),
        (
            ObjArch::Avr,
            false,
            0x85,
            "ELF32",
            "Atmel AVR 8-bit microcontroller",
            "little",
            "0x85",
        ),
    ] {
        let mut m = ObjectModule::new(ObjTarget {
            arch,
            big_endian,
            e_flags,
        });
        let text = m.standard_section(SectionKind::Text);
        let f = m.declare("f");
        let off = m.append(text, &[0; 4], 4);
        m.define(f, text, off, 4, SymbolInfo::global_func())
            .unwrap();
        let obj = dir.join(format!("{arch:?}.o"));
        std::fs::write(&obj, m.write().unwrap()).unwrap();
        let h = run(Command::new("readelf").arg("-hW").arg(&obj));
        let field = |name: &str| {
            h.lines()
                .find_map(|l| l.trim().strip_prefix(name))
                .map(|v| v.trim_start_matches(':').trim().to_string())
                .unwrap_or_default()
        };
        assert_eq!(field("Class"), class, "{arch:?}");
        assert_eq!(field("Machine"), machine, "{arch:?}");
        assert!(field("Data").contains(data), "{arch:?}");
        assert!(field("Flags").starts_with(flags), "{arch:?}: {h}");
        assert_eq!(field("Type"), "REL (Relocatable file)", "{arch:?}");
        let syms = symbols(&obj);
        assert_eq!(syms["f"], "0 4 FUNC GLOBAL DEFAULT .text", "{arch:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_other_section_kinds_and_symbol_attributes() {
    if !have("readelf") {
        return;
    }
    let mut m = ObjectModule::new(ObjTarget::x86_64());
    m.set_comment("GCC: (neverc) test");
    let text = m.standard_section(SectionKind::Text);
    let f = m.declare("f");
    let off = m.append(text, &[0xc3], 16);
    m.define(
        f,
        text,
        off,
        1,
        SymbolInfo::global_func().with_visibility(Visibility::Protected),
    )
    .unwrap();
    let g = m.declare("g");
    let off = m.append(text, &[0xc3], 16);
    m.define(
        g,
        text,
        off,
        1,
        SymbolInfo::new(SymKind::Func, Binding::Weak).with_visibility(Visibility::Hidden),
    )
    .unwrap();
    let i = m.declare("i");
    m.define(
        i,
        text,
        off,
        1,
        SymbolInfo::global_func().with_visibility(Visibility::Internal),
    )
    .unwrap();

    // Per-symbol sections.
    let bss_big = m.symbol_section(SectionKind::Bss, "big", 16);
    let big = m.declare("big");
    let off = m.append_bss(bss_big, 64, 16);
    m.define(big, bss_big, off, 64, SymbolInfo::local_object())
        .unwrap();
    let ro_x = m.symbol_section(SectionKind::ReadOnlyStrings, "x", 1);
    let x = m.declare("x");
    let off = m.append(ro_x, b"x\0", 1);
    m.define(x, ro_x, off, 2, SymbolInfo::global_object())
        .unwrap();

    // TLS: zero-initialized global, a file-static referenced local-exec, an extern.
    let tbss = m.standard_section(SectionKind::TlsBss);
    let tz = m.declare("tls_zero");
    let off = m.append_bss(tbss, 4, 4);
    m.define(
        tz,
        tbss,
        off,
        4,
        SymbolInfo::new(SymKind::Tls, Binding::Global),
    )
    .unwrap();
    let lt = m.declare("lt");
    let off = m.append_bss(tbss, 8, 8);
    m.define(
        lt,
        tbss,
        off,
        8,
        SymbolInfo::new(SymKind::Tls, Binding::Local),
    )
    .unwrap();
    let ext_tls = m.declare("ext_tls");
    let ext_hidden = m.declare("ext_hidden");
    m.set_visibility(ext_hidden, Visibility::Hidden);
    // mov %fs:lt@tpoff,%eax; mov ext_tls@gottpoff(%rip),%rax; lea ext_hidden(%rip),%rax
    let code = [
        0x64, 0x8b, 0x04, 0x25, 0, 0, 0, 0, 0x48, 0x8b, 0x05, 0, 0, 0, 0, 0x48, 0x8d, 0x05, 0, 0,
        0, 0, 0xc3,
    ];
    let base = m.append(text, &code, 16);
    m.add_fixups(
        text,
        base,
        &[
            fx(4, lt, RelocKind::TpOff32, 0),
            fx(11, ext_tls, RelocKind::GotTpOff, -4),
            fx(18, ext_hidden, RelocKind::Pc32, -4),
        ],
    );

    // .fini_array, .data.rel.ro pointing into a merge section with a zero addend.
    let fini = m.standard_section(SectionKind::FiniArray);
    let off = m.append(fini, &[0; 8], 8);
    m.add_reloc(fini, fx(off as u32, f, RelocKind::Abs64, 0));
    let strs = m.standard_section(SectionKind::ReadOnlyStrings);
    m.append(strs, b"first\0", 1);
    let second = m.declare(".LC1");
    let off = m.append(strs, b"second\0", 1);
    m.define(
        second,
        strs,
        off,
        0,
        SymbolInfo::new(SymKind::NoType, Binding::Local),
    )
    .unwrap();
    let relro = m.standard_section(SectionKind::ReadOnlyDataWithRel);
    let cptr = m.declare("cptr");
    let off = m.append(relro, &[0; 8], 8);
    m.add_reloc(relro, fx(off as u32, second, RelocKind::Abs64, 0));
    m.define(cptr, relro, off, 8, SymbolInfo::global_object())
        .unwrap();

    // Named sections, flags from their first occupant and their name.
    for (name, func, ro) in [
        ("mytext", true, false),
        ("myro", false, true),
        ("mydata", false, false),
        (".bss.custom", false, false),
        (".tdata.custom", false, true),
    ] {
        let k = SectionKind::user(name, func, ro);
        let s = m.add_section(name, k, 4);
        if k.is_nobits() {
            m.append_bss(s, 4, 4);
        } else {
            m.append(s, &[1, 2, 3, 4], 4);
        }
    }

    let dir = scratch("kinds");
    let obj = dir.join("kinds.o");
    std::fs::write(&obj, m.write().unwrap()).unwrap();
    let syms = symbols(&obj);
    let named: Vec<String> = syms
        .iter()
        .filter(|(_, v)| !v.contains(" SECTION "))
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    assert_eq!(
        named,
        [
            "big: 0 64 OBJECT LOCAL DEFAULT .bss.big",
            "cptr: 0 8 OBJECT GLOBAL DEFAULT .data.rel.ro",
            "ext_hidden: 0 0 NOTYPE GLOBAL HIDDEN UND",
            "ext_tls: 0 0 TLS GLOBAL DEFAULT UND",
            "f: 0 1 FUNC GLOBAL PROTECTED .text",
            "g: 16 1 FUNC WEAK HIDDEN .text",
            "i: 16 1 FUNC GLOBAL INTERNAL .text",
            "lt: 8 8 TLS LOCAL DEFAULT .tbss",
            "tls_zero: 0 4 TLS GLOBAL DEFAULT .tbss",
            "x: 0 2 OBJECT GLOBAL DEFAULT .rodata.x",
        ]
    );
    let secs = sections(&obj);
    for (name, want) in [
        (".bss.big", "NOBITS WA 16"),
        (".rodata.x", "PROGBITS A 1"),
        (".tbss", "NOBITS WAT 8"),
        (".fini_array", "FINI_ARRAY WA 8"),
        (".data.rel.ro", "PROGBITS WA 8"),
        ("mytext", "PROGBITS AX 4"),
        ("myro", "PROGBITS A 4"),
        ("mydata", "PROGBITS WA 4"),
        (".bss.custom", "NOBITS WA 4"),
        (".tdata.custom", "PROGBITS WAT 4"),
        (".comment", "PROGBITS MS 1"),
    ] {
        let got = secs.get(name).map(|v| v.split_once(' ').unwrap().1);
        assert_eq!(got, Some(want), "{name}");
    }
    assert_eq!(
        relocs(&obj),
        [
            ".rela.text: 36 R_X86_64_TPOFF32 lt + 0",
            ".rela.text: 43 R_X86_64_GOTTPOFF ext_tls - 4",
            ".rela.text: 50 R_X86_64_PC32 ext_hidden - 4",
            ".rela.fini_array: 0 R_X86_64_64 f + 0",
            ".rela.data.rel.ro: 0 R_X86_64_64 .rodata.str1.1 + 6",
        ]
    );
    let comment = run(Command::new("readelf").args(["-p", ".comment"]).arg(&obj));
    assert!(comment.contains("GCC: (neverc) test"), "{comment}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn code_padding_is_nops_and_data_padding_zeros() {
    let mut m = ObjectModule::new(ObjTarget::x86_64());
    let text = m.standard_section(SectionKind::Text);
    let data = m.standard_section(SectionKind::Data);
    m.append(text, &[0xc3], 1);
    assert_eq!(m.append(text, &[0xc3], 16), 16);
    assert_eq!(m.section_data_mut(text)[1..16], [0x90; 15]);
    m.append(data, &[1], 1);
    assert_eq!(m.append(data, &[2], 8), 8);
    assert_eq!(m.section_data_mut(data)[1..8], [0; 7]);
    assert_eq!(m.section_size(text), 17);
    // The same name gives the same section and symbol.
    assert_eq!(m.add_section(".text", SectionKind::Text, 32), text);
    assert_eq!(m.declare("a"), m.declare("a"));
    assert_eq!(m.lookup("b"), None);
}
