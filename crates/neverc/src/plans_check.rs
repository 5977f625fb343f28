//! Calling convention plans across files (issue 6).
//!
//! A file that involves custom conventions records, in a section `.neverc.ccplans` of its
//! object, the plan of each global function it defines and of each function of another
//! file it calls directly, one line each: `def NAME PLAN` / `call NAME PLAN`, where PLAN is
//! the plan's text or `std` for the standard convention. A file without the section
//! involves none: everything it defines and calls is standard.
//!
//! When neverc links, and with `neverc --check-plans OBJ...`, every call of a function
//! defined in another object is checked against the definition, and a disagreement names
//! the function and both files. Inputs that are not relocatable ELF64 objects (x86-64 or
//! AArch64; archives, shared libraries) are not checked.

use neverc_abi::callconv::is_custom;
use neverc_ir::{Callee, Module, Op};
use std::collections::BTreeMap;

/// The section holding the records.
pub const SECTION: &str = ".neverc.ccplans";
const STD: &str = "std";

/// The records of a module, or `None` when it involves no custom convention.
pub fn records(m: &Module) -> Option<String> {
    let custom = m
        .functions
        .iter()
        .any(|f| is_custom(&f.plan) || f.plans.iter().any(is_custom));
    if !custom {
        return None;
    }
    let text_of = |p: &neverc_abi::CallPlan| {
        if is_custom(p) {
            p.to_string()
        } else {
            STD.to_string()
        }
    };
    let mut out = String::new();
    let mut calls: BTreeMap<String, String> = BTreeMap::new();
    for f in &m.functions {
        let s = m.sym(f.sym);
        if !s.local && s.binding != neverc_ir::Binding::Local {
            out.push_str(&format!("def {} {}\n", s.name, text_of(&f.plan)));
        }
        for inst in &f.insts {
            let Op::Call(call) = &inst.op else {
                continue;
            };
            if let neverc_ir::Call {
                callee: Callee::Direct(c),
                plan,
                ..
            } = &**call
            {
                let cs = m.sym(*c);
                if !cs.defined && !cs.local {
                    calls
                        .entry(cs.name.clone())
                        .or_insert_with(|| text_of(&f.plans[plan.index()]));
                }
            }
        }
    }
    for (name, plan) in calls {
        out.push_str(&format!("call {name} {plan}\n"));
    }
    Some(out)
}

/// What one object says.
#[derive(Default)]
pub struct ObjectPlans {
    /// Plans of the functions it defines (absent: standard).
    defs: BTreeMap<String, String>,
    /// Plans of the calls it makes to other objects (absent: standard).
    calls: BTreeMap<String, String>,
    /// Global symbols it defines.
    defined: Vec<String>,
    /// Symbols it refers to without defining them.
    undefined: Vec<String>,
}

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}
fn cstr(b: &[u8], o: usize) -> Option<String> {
    let s = b.get(o..)?;
    let end = s.iter().position(|&c| c == 0)?;
    Some(String::from_utf8_lossy(&s[..end]).into_owned())
}

/// Reads the records and symbols of a relocatable little-endian ELF64 object; `None` for
/// anything else.
pub fn read_object(b: &[u8]) -> Option<ObjectPlans> {
    // e_ident: ELF, 64-bit, little-endian; e_type REL.
    if b.get(0..4)? != b"\x7fELF" || b[4] != 2 || b[5] != 1 || u16_at(b, 16)? != 1 {
        return None;
    }
    let shoff = u64_at(b, 0x28)? as usize;
    let shentsize = u16_at(b, 0x3a)? as usize;
    let shnum = u16_at(b, 0x3c)? as usize;
    let shstrndx = u16_at(b, 0x3e)? as usize;
    let sh = |i: usize| shoff + i * shentsize;
    let sec_range = |i: usize| -> Option<(usize, usize)> {
        let off = u64_at(b, sh(i) + 24)? as usize;
        let size = u64_at(b, sh(i) + 32)? as usize;
        (off.checked_add(size)? <= b.len()).then_some((off, size))
    };
    let (stro, _) = sec_range(shstrndx)?;
    let mut out = ObjectPlans::default();
    for i in 0..shnum {
        let name = cstr(b, stro + u32_at(b, sh(i))? as usize)?;
        let ty = u32_at(b, sh(i) + 4)?;
        if name == SECTION {
            let (o, n) = sec_range(i)?;
            for line in String::from_utf8_lossy(&b[o..o + n]).lines() {
                let mut it = line.splitn(3, ' ');
                let (Some(kind), Some(sym), Some(plan)) = (it.next(), it.next(), it.next()) else {
                    continue;
                };
                let map = if kind == "def" {
                    &mut out.defs
                } else {
                    &mut out.calls
                };
                map.insert(sym.to_string(), plan.to_string());
            }
        } else if ty == 2 {
            // SHT_SYMTAB: 24-byte entries; the string table is sh_link.
            let (o, n) = sec_range(i)?;
            let (so, _) = sec_range(u32_at(b, sh(i) + 40)? as usize)?;
            for k in 1..n / 24 {
                let e = o + k * 24;
                let name = cstr(b, so + u32_at(b, e)? as usize)?;
                let bind = b[e + 4] >> 4;
                let shndx = u16_at(b, e + 6)?;
                if name.is_empty() {
                    continue;
                }
                if shndx == 0 {
                    out.undefined.push(name);
                } else if bind != 0 {
                    out.defined.push(name);
                }
            }
        }
    }
    Some(out)
}

/// A plan in a message: its convention id, or all of it when `full`.
fn describe(plan: Option<&String>, full: bool) -> String {
    match plan.map(String::as_str) {
        None | Some(STD) => "the standard convention".to_string(),
        Some(p) if full => format!("plan {p}"),
        Some(p) => {
            let cc = p
                .split(';')
                .find(|f| f.starts_with("cc="))
                .unwrap_or("cc=?");
            format!("a custom convention ({cc})")
        }
    }
}

/// Every disagreement between a call and the definition it reaches, as messages.
/// `objects`: (name shown, contents).
pub fn check(objects: &[(String, ObjectPlans)]) -> Vec<String> {
    let mut errors = Vec::new();
    for (dname, d) in objects {
        for f in &d.defined {
            let def = d.defs.get(f).filter(|p| *p != STD);
            for (cname, c) in objects {
                if std::ptr::eq(c, d) || !c.undefined.contains(f) {
                    continue;
                }
                let call = c.calls.get(f).filter(|p| *p != STD);
                if def != call {
                    // The same convention with another plan (another signature): whole plans.
                    let full = describe(def, false) == describe(call, false);
                    errors.push(format!(
                        "'{f}' is defined in {dname} with {} but {cname} calls it with {}",
                        describe(def, full),
                        describe(call, full)
                    ));
                }
            }
        }
    }
    errors
}

/// `neverc --check-plans OBJ...`: 0 when every call agrees with its definition.
pub fn check_files(paths: &[String]) -> i32 {
    let mut objects = Vec::new();
    for p in paths {
        match std::fs::read(p) {
            Ok(b) => {
                if let Some(o) = read_object(&b) {
                    objects.push((p.clone(), o));
                }
            }
            Err(e) => {
                eprintln!("neverc: error: {p}: {e}");
                return 1;
            }
        }
    }
    report(&objects)
}

/// Prints the disagreements; 1 when there are any.
pub fn report(objects: &[(String, ObjectPlans)]) -> i32 {
    let errors = check(objects);
    for e in &errors {
        eprintln!("neverc: error: calling conventions disagree: {e}");
    }
    i32::from(!errors.is_empty())
}
