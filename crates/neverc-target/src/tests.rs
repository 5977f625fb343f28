use super::*;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn lookup_by_alias_gives_canonical_row() {
    assert_eq!(
        lookup("x86_64-pc-linux-gnu").unwrap().triple,
        "x86_64-linux-gnu"
    );
    assert!(lookup("x86_64-linux-gnu").is_ok());
    for (alias, canonical) in [
        ("aarch64-unknown-linux-gnu", "aarch64-linux-gnu"),
        ("riscv64-unknown-linux-gnu", "riscv64-linux-gnu"),
        ("riscv32imac-unknown-none-elf", "riscv32-unknown-elf"),
        ("arm-unknown-linux-gnueabihf", "arm-linux-gnueabihf"),
        ("armv7-unknown-linux-gnueabi", "arm-linux-gnueabi"),
        ("mipsel-unknown-linux-gnu", "mipsel-linux-gnu"),
        ("thumbv7m-unknown-none-eabi", "thumbv7m-none-eabi"),
        ("thumbv7em-unknown-none-eabihf", "thumbv7em-none-eabihf"),
        ("thumbv8m.main-unknown-none-eabi", "thumbv8m.main-none-eabi"),
        ("avr-unknown-gnu-atmega328", "avr"),
        ("arm64-apple-darwin", "aarch64-apple-darwin"),
        ("x86_64-windows-msvc", "x86_64-pc-windows-msvc"),
    ] {
        assert_eq!(lookup(alias).unwrap().triple, canonical, "{alias}");
    }
}

#[test]
fn every_spelling_names_one_row() {
    let mut seen = std::collections::HashSet::new();
    for t in TARGETS {
        for name in std::iter::once(&t.triple).chain(t.aliases) {
            assert!(seen.insert(*name), "{name} names two rows");
        }
    }
    assert_eq!(TARGETS.len(), 16);
}

#[test]
fn unknown_target_is_refused_with_the_known_list() {
    let err = lookup("pdp11-unix").unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with(
        "unknown target 'pdp11-unix'; known targets: x86_64-linux-gnu, aarch64-linux-gnu,"
    ));
    assert!(text.ends_with(", aarch64-apple-darwin"));
}

#[test]
fn predefined_macros_parse_and_omit_identity() {
    let t = lookup("x86_64-linux-gnu").unwrap();
    let macros: Vec<_> = t.predefined_macros().collect();
    assert!(macros.contains(&("__x86_64__", "1")));
    assert!(macros.contains(&("__SIZEOF_LONG__", "8")));
    assert!(macros.contains(&("__INT64_C(c)", "c ## L")));
    for t in TARGETS {
        for (name, _) in t.predefined_macros() {
            let bare = name.split('(').next().unwrap();
            assert!(
                !matches!(
                    bare,
                    "__GNUC__"
                        | "__VERSION__"
                        | "__STDC__"
                        | "__STDC_VERSION__"
                        | "__STDC_HOSTED__"
                        | "__clang__"
                        | "__llvm__"
                        | "_MSC_VER"
                        | "__PIC__"
                        | "__OPTIMIZE__"
                        | "linux"
                        | "unix"
                        | "mips"
                        | "AVR"
                        | "__has_include"
                        | "__BLOCKS__"
                ),
                "{}: {name} should have been filtered",
                t.triple
            );
        }
    }
}

/// Parses a C integer constant as gcc and clang print them (`0x7fffL`, `2147483647`).
fn c_int(s: &str) -> u128 {
    let s = s.trim_end_matches(['U', 'L', 'u', 'l']);
    match s.strip_prefix("0x") {
        Some(hex) => u128::from_str_radix(hex, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

fn num(t: &Target, name: &str) -> Option<u32> {
    t.predefined_macro(name).map(|v| c_int(v) as u32)
}

fn signed_max(size: u32) -> u128 {
    (1u128 << (8 * size - 1)) - 1
}

#[test]
fn data_model_matches_predefined_macros() {
    for t in TARGETS {
        let dm = &t.data_model;
        let name = t.triple;
        let size = |m: &str| num(t, m).unwrap_or_else(|| panic!("{name}: no {m}"));
        assert_eq!(size("__CHAR_BIT__"), 8, "{name}");
        assert_eq!(size("__SIZEOF_SHORT__"), dm.short.size, "{name}");
        assert_eq!(size("__SIZEOF_INT__"), dm.int.size, "{name}");
        assert_eq!(size("__SIZEOF_LONG__"), dm.long.size, "{name}");
        assert_eq!(size("__SIZEOF_LONG_LONG__"), dm.long_long.size, "{name}");
        assert_eq!(size("__SIZEOF_POINTER__"), dm.pointer.size, "{name}");
        assert_eq!(size("__SIZEOF_FLOAT__"), dm.float.size, "{name}");
        assert_eq!(size("__SIZEOF_DOUBLE__"), dm.double.size, "{name}");
        assert_eq!(
            size("__SIZEOF_LONG_DOUBLE__"),
            dm.long_double.size,
            "{name}"
        );
        assert_eq!(
            num(t, "__SIZEOF_INT128__"),
            dm.int128.map(|i| i.size),
            "{name}"
        );
        assert_eq!(size("__BIGGEST_ALIGNMENT__"), dm.biggest_align, "{name}");
        assert_eq!(
            t.predefined_macro("__CHAR_UNSIGNED__").is_none(),
            dm.char_signed,
            "{name}"
        );
        assert_eq!(size("__FLT_MANT_DIG__"), 24, "{name}");
        assert_eq!(
            size("__DBL_MANT_DIG__"),
            dm.double_format.mantissa_digits(),
            "{name}"
        );
        assert_eq!(
            size("__LDBL_MANT_DIG__"),
            dm.long_double_format.mantissa_digits(),
            "{name}"
        );
        assert_eq!(
            t.predefined_macro("__BYTE_ORDER__"),
            Some("__ORDER_LITTLE_ENDIAN__"),
            "{name}"
        );
        assert_eq!(
            t.predefined_macro("_LP64").is_some(),
            dm.long.size == 8 && dm.pointer.size == 8,
            "{name}"
        );
        for (max, sz) in [
            ("__SCHAR_MAX__", 1),
            ("__SHRT_MAX__", dm.short.size),
            ("__INT_MAX__", dm.int.size),
            ("__LONG_MAX__", dm.long.size),
            ("__LONG_LONG_MAX__", dm.long_long.size),
        ] {
            assert_eq!(
                c_int(t.predefined_macro(max).unwrap()),
                signed_max(sz),
                "{name}: {max}"
            );
        }
        for (ty, sizeof, want) in [
            ("__SIZE_TYPE__", "__SIZEOF_SIZE_T__", dm.size_type),
            ("__PTRDIFF_TYPE__", "__SIZEOF_PTRDIFF_T__", dm.ptrdiff_type),
            ("__WCHAR_TYPE__", "__SIZEOF_WCHAR_T__", dm.wchar_type),
            ("__WINT_TYPE__", "__SIZEOF_WINT_T__", dm.wint_type),
        ] {
            let spelled = t.predefined_macro(ty).unwrap();
            assert_eq!(
                IntType::from_c_spelling(spelled),
                Some(want),
                "{name}: {ty} is {spelled}"
            );
            assert_eq!(size(sizeof), dm.int_type(want).size, "{name}: {sizeof}");
        }
        let intptr =
            IntType::from_c_spelling(t.predefined_macro("__INTPTR_TYPE__").unwrap()).unwrap();
        assert_eq!(dm.int_type(intptr).size, dm.pointer.size, "{name}");
        // gcc's max_align_t: a long long and a long double, each at its own alignment.
        assert_eq!(
            dm.max_align,
            dm.long_long.align.max(dm.long_double.align),
            "{name}"
        );
        assert!(dm.max_align <= dm.biggest_align, "{name}");
    }
}

#[test]
fn variant_matches_predefined_macros() {
    for t in TARGETS {
        let name = t.triple;
        let has = |m: &str| t.predefined_macro(m).is_some();
        assert_eq!(has("__linux__"), t.os == Os::Linux, "{name}");
        assert_eq!(has("__APPLE__"), t.os == Os::Darwin, "{name}");
        assert_eq!(has("_WIN64"), t.os == Os::Windows, "{name}");
        assert_eq!(has("__ELF__"), t.format == ObjectFormat::Elf, "{name}");
        let arch_macro = match t.arch {
            Arch::X86_64 => "__x86_64__",
            Arch::AArch64 => "__aarch64__",
            Arch::Riscv32 | Arch::Riscv64 => "__riscv",
            Arch::Arm => "__arm__",
            Arch::Mips32 => "__MIPSEL__",
            Arch::Avr => "__AVR__",
        };
        assert!(has(arch_macro), "{name}: {arch_macro}");
        match t.variant {
            Variant::Plain => assert!(matches!(t.arch, Arch::X86_64 | Arch::AArch64), "{name}"),
            Variant::Arm(a) => {
                assert_eq!(t.arch, Arch::Arm);
                assert_eq!(
                    num(t, "__ARM_ARCH"),
                    Some(a.profile.arch_version()),
                    "{name}"
                );
                let profile = if a.profile.is_m_profile() { 'M' } else { 'A' };
                assert_eq!(num(t, "__ARM_ARCH_PROFILE"), Some(profile as u32), "{name}");
                let arch_name = match a.profile {
                    ArmProfile::V7A => "__ARM_ARCH_7A__",
                    ArmProfile::V6M => "__ARM_ARCH_6M__",
                    ArmProfile::V7M => "__ARM_ARCH_7M__",
                    ArmProfile::V7EM => "__ARM_ARCH_7EM__",
                    ArmProfile::V8MBase => "__ARM_ARCH_8M_BASE__",
                    ArmProfile::V8MMain => "__ARM_ARCH_8M_MAIN__",
                };
                assert!(has(arch_name), "{name}: {arch_name}");
                assert_eq!(has("__thumb__"), a.thumb, "{name}");
                assert_eq!(
                    has("__thumb2__"),
                    a.thumb && a.profile.has_thumb2(),
                    "{name}"
                );
                assert_eq!(
                    has("__ARM_PCS_VFP"),
                    a.float_abi == FloatAbi::Hard,
                    "{name}"
                );
                assert_eq!(has("__ARM_PCS"), a.float_abi != FloatAbi::Hard, "{name}");
                assert_eq!(has("__SOFTFP__"), a.float_abi == FloatAbi::Soft, "{name}");
                assert_eq!(has("__ARM_FP"), a.fpu.is_some(), "{name}");
                assert!(!a.profile.is_m_profile() || a.cpu.is_some(), "{name}");
            }
            Variant::Riscv(r) => {
                assert_eq!(num(t, "__riscv_xlen"), Some(r.xlen), "{name}");
                let abi = match r.float_abi {
                    RiscvFloatAbi::Soft => "__riscv_float_abi_soft",
                    RiscvFloatAbi::Single => "__riscv_float_abi_single",
                    RiscvFloatAbi::Double => "__riscv_float_abi_double",
                };
                assert!(has(abi), "{name}: {abi}");
                assert_eq!(
                    t.arch,
                    if r.xlen == 32 {
                        Arch::Riscv32
                    } else {
                        Arch::Riscv64
                    }
                );
                assert!(
                    t.reference_cc
                        .contains(&format!("-mabi={}", r.abi_name()).as_str()),
                    "{name}"
                );
                assert!(
                    t.reference_cc
                        .contains(&format!("-march={}", r.march).as_str()),
                    "{name}"
                );
            }
            Variant::MipsO32 => {
                assert_eq!(t.predefined_macro("_MIPS_SIM"), Some("_ABIO32"), "{name}");
                assert_eq!(num(t, "__mips_isa_rev"), Some(2), "{name}");
                assert!(has("__mips_hard_float"), "{name}");
            }
            Variant::Avr { mcu } => {
                assert_eq!(
                    t.predefined_macro("__AVR_DEVICE_NAME__"),
                    Some(mcu),
                    "{name}"
                );
                assert!(
                    t.reference_cc.contains(&format!("-mmcu={mcu}").as_str()),
                    "{name}"
                );
            }
        }
    }
    let m4f = lookup("thumbv7em-none-eabihf").unwrap().arm().unwrap();
    assert_eq!(
        (m4f.cpu, m4f.fpu, m4f.float_abi),
        (Some("cortex-m4"), Some("fpv4-sp-d16"), FloatAbi::Hard)
    );
    assert_eq!(
        lookup("riscv32-unknown-elf")
            .unwrap()
            .riscv()
            .unwrap()
            .abi_name(),
        "ilp32"
    );
    assert_eq!(
        lookup("riscv64-linux-gnu")
            .unwrap()
            .riscv()
            .unwrap()
            .abi_name(),
        "lp64d"
    );
    assert!(lookup("avr").unwrap().arm().is_none());
}

#[test]
fn reference_commands_match_gen_predef_rows() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/gen-predef.sh");
    let Ok(text) = std::fs::read_to_string(&script) else {
        println!("skipped: {} not found", script.display());
        return;
    };
    let rows = text
        .split("ROWS='")
        .nth(1)
        .unwrap()
        .split('\'')
        .next()
        .unwrap();
    let mut n = 0;
    for line in rows.lines().filter(|l| !l.trim().is_empty()) {
        let mut words = line.split_whitespace();
        let triple = words.next().unwrap();
        let cmd: Vec<&str> = words.collect();
        assert_eq!(lookup(triple).unwrap().triple, triple);
        assert_eq!(
            lookup(triple).unwrap().reference_cc,
            cmd.as_slice(),
            "{triple}"
        );
        n += 1;
    }
    assert_eq!(n, TARGETS.len());
    // And every checked-in table belongs to a row.
    let predef = Path::new(env!("CARGO_MANIFEST_DIR")).join("predef");
    let files = std::fs::read_dir(predef).unwrap().count();
    assert_eq!(files, TARGETS.len());
}

#[test]
fn int_type_spellings() {
    assert_eq!(
        IntType::from_c_spelling("long unsigned int"),
        Some(IntType::ULong)
    );
    assert_eq!(
        IntType::from_c_spelling("long long unsigned int"),
        Some(IntType::ULongLong)
    );
    assert_eq!(
        IntType::from_c_spelling("unsigned short"),
        Some(IntType::UShort)
    );
    assert_eq!(
        IntType::from_c_spelling("short unsigned int"),
        Some(IntType::UShort)
    );
    assert_eq!(
        IntType::from_c_spelling("signed char"),
        Some(IntType::SChar)
    );
    assert_eq!(IntType::from_c_spelling("int"), Some(IntType::Int));
    assert_eq!(
        IntType::from_c_spelling("long long int"),
        Some(IntType::LongLong)
    );
    assert_eq!(IntType::from_c_spelling("char"), None);
    assert_eq!(IntType::from_c_spelling("float"), None);
    assert!(IntType::Long.is_signed() && !IntType::UChar.is_signed());
}

#[test]
fn run_prefix() {
    let arm = lookup("arm-linux-gnueabihf").unwrap();
    if !std::ptr::eq(arm, host()) {
        assert_eq!(
            arm.run_prefix().unwrap(),
            ["qemu-arm", "-L", "/usr/arm-linux-gnueabihf"]
        );
    }
    assert_eq!(host().run_prefix().unwrap(), Vec::<String>::new());
    assert_eq!(lookup("thumbv7m-none-eabi").unwrap().run_prefix(), None);
    assert_eq!(lookup("x86_64-pc-windows-msvc").unwrap().run_prefix(), None);
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("neverc-target-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn mkdir(&self, rel: &str) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(&p).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn linux_sysroot_include_dirs_follow_gcc_order() {
    let s = TempDir::new("linux");
    let t = lookup("aarch64-linux-gnu").unwrap();
    assert_eq!(t.system_include_dirs(Some(&s.0)), Vec::<PathBuf>::new());
    let usr = s.mkdir("usr/include");
    let multi = s.mkdir("usr/include/aarch64-linux-gnu");
    assert_eq!(
        t.system_include_dirs(Some(&s.0)),
        [multi.clone(), usr.clone()]
    );
    let local = s.mkdir("usr/local/include");
    let local_multi = s.mkdir("usr/local/include/aarch64-linux-gnu");
    assert_eq!(
        t.system_include_dirs(Some(&s.0)),
        [local_multi, local, multi, usr]
    );
}

#[test]
fn bare_metal_sysroot_uses_the_first_libc_found() {
    let s = TempDir::new("bare");
    let t = lookup("thumbv7m-none-eabi").unwrap();
    let generic = s.mkdir("include");
    assert_eq!(t.system_include_dirs(Some(&s.0)), [generic]);
    let picolibc = s.mkdir("usr/lib/picolibc/arm-none-eabi/include");
    assert_eq!(t.system_include_dirs(Some(&s.0)), [picolibc]);
    let newlib = s.mkdir("usr/lib/arm-none-eabi/include");
    assert_eq!(t.system_include_dirs(Some(&s.0)), [newlib]);
    // Another target's libc is not ours.
    s.mkdir("usr/lib/avr/include");
    let rv = lookup("riscv32-unknown-elf").unwrap();
    assert_eq!(rv.system_include_dirs(Some(&s.0)), [s.0.join("include")]);
    assert_eq!(
        lookup("avr").unwrap().system_include_dirs(Some(&s.0)),
        [s.0.join("usr/lib/avr/include")]
    );
}

#[test]
fn darwin_and_windows_include_dirs() {
    let s = TempDir::new("sdk");
    let usr = s.mkdir("usr/include");
    let darwin = lookup("aarch64-apple-darwin").unwrap();
    assert_eq!(darwin.system_include_dirs(Some(&s.0)), [usr]);
    assert_eq!(darwin.system_include_dirs(None), Vec::<PathBuf>::new());
    let win = lookup("x86_64-pc-windows-msvc").unwrap();
    assert_eq!(win.system_include_dirs(Some(&s.0)), Vec::<PathBuf>::new());
}

#[test]
fn hosted_and_stdc_predef() {
    let hosted: Vec<_> = TARGETS
        .iter()
        .filter(|t| t.is_hosted())
        .map(|t| t.triple)
        .collect();
    assert_eq!(
        hosted,
        [
            "x86_64-linux-gnu",
            "aarch64-linux-gnu",
            "riscv64-linux-gnu",
            "arm-linux-gnueabihf",
            "arm-linux-gnueabi",
            "mipsel-linux-gnu",
            "x86_64-pc-windows-msvc",
            "aarch64-apple-darwin"
        ]
    );
    assert!(lookup("mipsel-linux-gnu").unwrap().implicit_stdc_predef());
    assert!(!lookup("aarch64-apple-darwin")
        .unwrap()
        .implicit_stdc_predef());
    assert!(!lookup("avr").unwrap().implicit_stdc_predef());
}

/// `_Static_assert`s of every data-model fact, for the reference compiler to check.
fn layout_asserts(t: &Target) -> String {
    let dm = &t.data_model;
    let mut s = String::from("#include <stddef.h>\n#define A(c) _Static_assert(c, #c);\n");
    let mut sa = |ty: &str, v: SizeAlign| {
        s += &format!(
            "A(sizeof({ty}) == {} && _Alignof({ty}) == {})\n",
            v.size, v.align
        );
    };
    sa("short", dm.short);
    sa("int", dm.int);
    sa("long", dm.long);
    sa("long long", dm.long_long);
    sa("void *", dm.pointer);
    sa("float", dm.float);
    sa("double", dm.double);
    sa("long double", dm.long_double);
    if let Some(i) = dm.int128 {
        sa("__int128", i);
    }
    s += &format!("A(((char)-1 < 0) == {})\n", dm.char_signed as u32);
    s += &format!("A(_Alignof(max_align_t) == {})\n", dm.max_align);
    // gcc gives `aligned` without an argument __BIGGEST_ALIGNMENT__; clang may give more.
    if t.reference_cc[0] != "clang" {
        s += &format!(
            "struct big {{ char c __attribute__((aligned)); }}; A(_Alignof(struct big) == {})\n",
            dm.biggest_align
        );
    }
    let c_name = |t: IntType| match t {
        IntType::SChar => "signed char",
        IntType::UChar => "unsigned char",
        IntType::Short => "short",
        IntType::UShort => "unsigned short",
        IntType::Int => "int",
        IntType::UInt => "unsigned int",
        IntType::Long => "long",
        IntType::ULong => "unsigned long",
        IntType::LongLong => "long long",
        IntType::ULongLong => "unsigned long long",
    };
    for (expr, ty) in [
        ("(size_t)0", dm.size_type),
        ("(ptrdiff_t)0", dm.ptrdiff_type),
        ("(wchar_t)0", dm.wchar_type),
        ("(__WINT_TYPE__)0", dm.wint_type),
    ] {
        s += &format!("A(_Generic({expr}, {}: 1, default: 0))\n", c_name(ty));
    }
    s
}

#[test]
fn data_model_matches_reference_compiler() {
    let mut checked = 0;
    for t in TARGETS {
        let src = layout_asserts(t);
        let mut cmd = Command::new(t.reference_cc[0]);
        cmd.args(&t.reference_cc[1..]).args([
            "-ffreestanding",
            "-fsyntax-only",
            "-std=c11",
            "-x",
            "c",
            "-",
        ]);
        let child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let Ok(mut child) = child else {
            println!("skipped {}: {} not installed", t.triple, t.reference_cc[0]);
            continue;
        };
        child
            .stdin
            .take()
            .unwrap()
            .write_all(src.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}: {:?} disagrees:\n{}\n{src}",
            t.triple,
            t.reference_cc,
            String::from_utf8_lossy(&out.stderr)
        );
        checked += 1;
    }
    println!(
        "checked {checked} of {} targets against their reference compiler",
        TARGETS.len()
    );
}
