//! `.eh_frame` written by `cfi`: checked with `readelf --debug-dump=frames`, then proven by
//! unwinding. A gcc-compiled program calls through three hand-encoded functions of ours
//! (with a frame pointer and a saved rbx; frameless with a stack adjustment in its own
//! `.text.NAME` section; with an early return between remember/restore state) into a gcc
//! callback that walks the stack with `_Unwind_Backtrace` and names each frame by
//! `_Unwind_FindEnclosingFunction`, which only works if our FDEs are right.

use std::path::PathBuf;
use std::process::Command;

use neverc_codegen::cfi::{self, x86_64_reg, CfaOp, FrameDescription};
use neverc_codegen::object_file::{ObjTarget, ObjectModule, SectionKind, SymbolInfo};

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

fn build() -> ObjectModule {
    let mut m = ObjectModule::new(ObjTarget::x86_64());
    let text = m.standard_section(SectionKind::Text);
    let mut frames = Vec::new();

    // through(cb): push %rbp; mov %rsp,%rbp; push %rbx; sub $8,%rsp; call *%rdi;
    // add $8,%rsp; pop %rbx; pop %rbp; ret
    let code = [
        0x55, 0x48, 0x89, 0xe5, 0x53, 0x48, 0x83, 0xec, 0x08, 0xff, 0xd7, 0x48, 0x83, 0xc4, 0x08,
        0x5b, 0x5d, 0xc3,
    ];
    let off = m.append(text, &code, 16);
    let through = m.declare("through");
    m.define(through, text, off, 18, SymbolInfo::global_func())
        .unwrap();
    frames.push(FrameDescription {
        func_sym: through,
        start: off as u32,
        len: 18,
        ops: vec![
            (1, CfaOp::PushRbp),
            (4, CfaOp::MovRspRbp),
            (
                5,
                CfaOp::SaveReg {
                    reg: x86_64_reg::RBX,
                    cfa_offset: -24,
                },
            ),
            (16, CfaOp::RestoreReg(x86_64_reg::RBX)),
            (17, CfaOp::AfterLeave),
        ],
    });

    // through3(cb, flag): push %rbp; mov %rsp,%rbp; test %esi,%esi; jne 1f; pop %rbp; ret;
    // 1: call *%rdi; pop %rbp; ret
    let code = [
        0x55, 0x48, 0x89, 0xe5, 0x85, 0xf6, 0x75, 0x02, 0x5d, 0xc3, 0xff, 0xd7, 0x5d, 0xc3,
    ];
    let off = m.append(text, &code, 16);
    let through3 = m.declare("through3");
    m.define(through3, text, off, 14, SymbolInfo::global_func())
        .unwrap();
    frames.push(FrameDescription {
        func_sym: through3,
        start: off as u32,
        len: 14,
        ops: vec![
            (1, CfaOp::PushRbp),
            (4, CfaOp::MovRspRbp),
            (8, CfaOp::RememberState),
            (9, CfaOp::AfterLeave),
            (10, CfaOp::RestoreState),
            (13, CfaOp::AfterLeave),
        ],
    });

    // through2(cb), frameless, in .text.through2: sub $8,%rsp; call *%rdi; add $8,%rsp; ret
    let fsec = m.symbol_section(SectionKind::Text, "through2", 16);
    let code = [
        0x48, 0x83, 0xec, 0x08, 0xff, 0xd7, 0x48, 0x83, 0xc4, 0x08, 0xc3,
    ];
    let off = m.append(fsec, &code, 16);
    let through2 = m.declare("through2");
    m.define(through2, fsec, off, 11, SymbolInfo::global_func())
        .unwrap();
    frames.push(FrameDescription {
        func_sym: through2,
        start: off as u32,
        len: 11,
        ops: vec![(4, CfaOp::DefCfaOffset(16)), (10, CfaOp::DefCfaOffset(8))],
    });

    assert_eq!(cfi::write_eh_frame(&mut m, &[]), Ok(None));
    cfi::write_eh_frame(&mut m, &frames).unwrap();
    m
}

const MAIN_C: &str = r#"
#include <stdio.h>
#include <unwind.h>
void through(void (*cb)(void));
void through2(void (*cb)(void));
void through3(void (*cb)(void), int flag);
static void cb1(void), cb2(void), cb3(void);
int main(void);
static int depth, done;
static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg) {
    (void)arg;
    if (done || ++depth > 50) return _URC_NO_REASON;
    void *f = _Unwind_FindEnclosingFunction((void *)(_Unwind_GetIP(ctx) - 1));
    const char *name = f == (void *)cb3 ? "cb3" : f == (void *)through3 ? "through3"
        : f == (void *)cb2 ? "cb2" : f == (void *)through2 ? "through2"
        : f == (void *)cb1 ? "cb1" : f == (void *)through ? "through"
        : f == (void *)main ? "main" : "?";
    printf("%s%s", depth > 1 ? " " : "", name);
    if (f == (void *)main) done = 1;
    return _URC_NO_REASON;
}
__attribute__((noinline)) static void cb3(void) { _Unwind_Backtrace(step, 0); }
__attribute__((noinline)) static void cb2(void) { through3(cb3, 0); through3(cb3, 1); }
__attribute__((noinline)) static void cb1(void) { through2(cb2); }
int main(void) {
    through(cb1);
    printf("\n");
    return 0;
}
"#;

#[test]
fn readelf_shows_the_frames_gcc_would_write() {
    if !have("readelf") {
        return;
    }
    let dir = scratch("frames");
    let obj = dir.join("frames.o");
    std::fs::write(&obj, build().write().unwrap()).unwrap();
    let out = run(Command::new("readelf").arg("--debug-dump=frames").arg(&obj));
    let lines: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != "DW_CFA_nop" && !l.starts_with("File:"))
        .collect();
    let want = [
        "Contents of the .eh_frame section:",
        "00000000 0000000000000014 00000000 CIE",
        "Version:               1",
        "Augmentation:          \"zR\"",
        "Code alignment factor: 1",
        "Data alignment factor: -8",
        "Return address column: 16",
        "Augmentation data:     1b",
        "DW_CFA_def_cfa: r7 (rsp) ofs 8",
        "DW_CFA_offset: r16 (rip) at cfa-8",
        "00000018 0000000000000024 0000001c FDE cie=00000000 pc=0000000000000000..0000000000000012",
        "DW_CFA_advance_loc: 1 to 0000000000000001",
        "DW_CFA_def_cfa_offset: 16",
        "DW_CFA_offset: r6 (rbp) at cfa-16",
        "DW_CFA_advance_loc: 3 to 0000000000000004",
        "DW_CFA_def_cfa_register: r6 (rbp)",
        "DW_CFA_advance_loc: 1 to 0000000000000005",
        "DW_CFA_offset: r3 (rbx) at cfa-24",
        "DW_CFA_advance_loc: 11 to 0000000000000010",
        "DW_CFA_restore: r3 (rbx)",
        "DW_CFA_advance_loc: 1 to 0000000000000011",
        "DW_CFA_def_cfa: r7 (rsp) ofs 8",
        "00000040 0000000000000024 00000044 FDE cie=00000000 pc=0000000000000020..000000000000002e",
        "DW_CFA_advance_loc: 1 to 0000000000000021",
        "DW_CFA_def_cfa_offset: 16",
        "DW_CFA_offset: r6 (rbp) at cfa-16",
        "DW_CFA_advance_loc: 3 to 0000000000000024",
        "DW_CFA_def_cfa_register: r6 (rbp)",
        "DW_CFA_advance_loc: 4 to 0000000000000028",
        "DW_CFA_remember_state",
        "DW_CFA_advance_loc: 1 to 0000000000000029",
        "DW_CFA_def_cfa: r7 (rsp) ofs 8",
        "DW_CFA_advance_loc: 1 to 000000000000002a",
        "DW_CFA_restore_state",
        "DW_CFA_advance_loc: 3 to 000000000000002d",
        "DW_CFA_def_cfa: r7 (rsp) ofs 8",
        "00000068 0000000000000014 0000006c FDE cie=00000000 pc=0000000000000000..000000000000000b",
        "DW_CFA_advance_loc: 4 to 0000000000000004",
        "DW_CFA_def_cfa_offset: 16",
        "DW_CFA_advance_loc: 6 to 000000000000000a",
        "DW_CFA_def_cfa_offset: 8",
    ];
    assert_eq!(lines, want, "{out}");

    let relocs = run(Command::new("readelf").arg("-rW").arg(&obj));
    let targets: Vec<String> = relocs
        .lines()
        .filter(|l| l.contains("R_X86_64_PC32"))
        .map(|l| l.split_whitespace().skip(4).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        targets,
        [".text + 0", ".text + 20", ".text.through2 + 0"],
        "{relocs}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gcc_code_unwinds_through_our_frames() {
    if !have("cc") {
        return;
    }
    let dir = scratch("unwind");
    let obj = dir.join("frames.o");
    std::fs::write(&obj, build().write().unwrap()).unwrap();
    let main_c = dir.join("main.c");
    std::fs::write(&main_c, MAIN_C).unwrap();
    for (name, flags) in [("pie", &[][..]), ("nopie", &["-no-pie"][..])] {
        let exe = dir.join(name);
        run(Command::new("cc")
            .args(["-O0", "-Wl,--fatal-warnings", "-o"])
            .arg(&exe)
            .args(flags)
            .arg(&main_c)
            .arg(&obj));
        assert_eq!(
            run(&mut Command::new(&exe)),
            "cb3 through3 cb2 through2 cb1 through main\n",
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
