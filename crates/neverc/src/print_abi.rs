//! `--print-abi`: how every function declared in a C file (or in declarations given on
//! the command line) is called on the target: each record's layout with its padding, and
//! each function's call plan, as a table or as JSON (`-fprint-abi=json`).

use crate::options::Options;
use crate::preprocess;
use neverc_abi::{plan_call, CallPlan, Flags, Machine, Place, Signature};
use neverc_front::diag::Diagnostics;
use neverc_front::sema::{Kind, OrdKind, TypeId, TypeTable};
use neverc_front::token::Interner;
use std::fmt::Write as _;
use std::path::PathBuf;

/// One function's answer.
struct Entry {
    name: String,
    c_type: String,
    plan: Result<CallPlan, String>,
    /// Parameter (or result) types by value index, for the table.
    value_types: Vec<String>,
}

/// One member of a record: offset, size, (bit offset, width) of a bit-field, name, type.
type MemberOut = (u64, u64, Option<(u64, u64)>, String, String);

/// A record's layout.
struct RecordOut {
    name: String,
    size: u64,
    align: u32,
    members: Vec<MemberOut>,
}

pub fn print_abi(
    opts: &Options,
    target: &'static neverc_target::Target,
    resource: Option<&PathBuf>,
) -> i32 {
    let json = opts.print_abi_json;
    let mut status = 0;
    let mut out = String::new();
    for input in &opts.inputs {
        // An existing file, or declarations written on the command line.
        let (name, path, raw) = match std::fs::read(&input.path) {
            Ok(b) => (input.path.clone(), Some(PathBuf::from(&input.path)), b),
            Err(_) if input.path.contains('(') || input.path.contains(';') => {
                let mut text = input.path.clone();
                if !text.trim_end().ends_with(';') && !text.trim_end().ends_with('}') {
                    text.push(';');
                }
                ("<command line>".to_string(), None, text.into_bytes())
            }
            Err(e) => {
                eprintln!(
                    "neverc: error: {}: {}",
                    input.path,
                    neverc_front::pp::io_error_text(&e)
                );
                status = 1;
                continue;
            }
        };
        let mut diags = Diagnostics::stderr();
        diags.policy = opts.warnings.clone();
        let mut pp = preprocess::make_preprocessor(opts, target, resource, &name, path, raw, diags);
        let ast = neverc_front::parse::parse(&mut pp);
        if pp.fatal() || pp.diags.has_errors() {
            pp.finish();
            status = 1;
            continue;
        }
        let mut typed = neverc_front::sema::check_target(&ast, &mut pp, target);
        pp.finish();
        if pp.diags.has_errors() {
            status = 1;
            continue;
        }
        let machine = Machine::from(target);
        // Functions declared in the input itself (not its headers), in order, once each.
        let mut seen = std::collections::HashSet::new();
        let mut entries = Vec::new();
        let mut records: Vec<TypeId> = Vec::new();
        let n_ords = typed.ords.len();
        for i in 0..n_ords {
            let ord = typed.ords[i].clone();
            let OrdKind::Object { implicit, .. } = ord.kind else {
                continue;
            };
            if implicit || !matches!(typed.types.kind(ord.ty), Kind::Func(_)) {
                continue;
            }
            let file = pp
                .sm
                .file(ord.loc.file)
                .presumed(ord.loc.offset)
                .1
                .to_string();
            if file != name {
                continue;
            }
            let fname = pp.interner.str(ord.name).into_owned();
            if !seen.insert(fname.clone()) {
                continue;
            }
            entries.push(entry(
                &mut typed.types,
                &pp.interner,
                machine,
                fname,
                ord.ty,
                &mut records,
            ));
        }
        let recs: Vec<RecordOut> = records
            .iter()
            .filter_map(|&r| record_out(&typed.types, &pp.interner, machine, r))
            .collect();
        let conv = neverc_abi::Convention::for_target(machine)
            .map(|c| format!("{c:?}"))
            .unwrap_or_default();
        if json {
            write_json(
                &mut out,
                &name,
                target.triple,
                &conv,
                &recs,
                &entries,
                target.arch,
            );
        } else {
            write_table(
                &mut out,
                &name,
                target.triple,
                &conv,
                &recs,
                &entries,
                target.arch,
            );
        }
    }
    print!("{out}");
    status
}

/// The signature of a function type as irgen passes it (K&R: promoted arguments).
fn entry(
    types: &mut TypeTable,
    interner: &Interner,
    machine: Machine,
    name: String,
    fty: TypeId,
    records: &mut Vec<TypeId>,
) -> Entry {
    let c_type = types.name(fty, interner).replace(",  ", ", ");
    let func = types.func(fty).cloned().unwrap();
    let mut value_types = vec![types.name(func.ret, interner)];
    let mut params = Vec::new();
    let mut bad = None;
    let ret = types.unqual(func.ret);
    collect_records(types, ret, records);
    let ret_abi = match types.kind(ret) {
        Kind::Void => Some(neverc_abi::Type::Void),
        _ => types.to_abi(ret),
    };
    for &p in &func.params {
        let p = if func.proto { p } else { types.promote(p) };
        collect_records(types, p, records);
        value_types.push(types.name(p, interner));
        match types.to_abi(p) {
            Some(t) => params.push(t),
            None => bad = Some(format!("parameter of type '{}'", types.name(p, interner))),
        }
    }
    let plan = match (ret_abi, bad) {
        (Some(r), None) => {
            let sig = if func.variadic {
                let n = params.len();
                Signature::variadic(r, params, n)
            } else {
                Signature::new(r, params)
            };
            plan_call(machine, &sig).map_err(|e| e.to_string())
        }
        (None, _) => Err("the result type has no layout".to_string()),
        (_, Some(b)) => Err(format!("a {b} has no layout")),
    };
    Entry {
        name,
        c_type,
        plan,
        value_types,
    }
}

fn collect_records(types: &TypeTable, t: TypeId, out: &mut Vec<TypeId>) {
    match types.kind(t) {
        Kind::Record(r) => {
            if out
                .iter()
                .any(|&x| matches!(types.kind(x), Kind::Record(y) if y == r))
            {
                return;
            }
            out.push(t);
            for m in &types.records[*r as usize].members {
                collect_records(types, m.ty, out);
            }
        }
        Kind::Array(e, _) => collect_records(types, *e, out),
        _ => {}
    }
}

fn record_out(types: &TypeTable, interner: &Interner, m: Machine, t: TypeId) -> Option<RecordOut> {
    let Kind::Record(r) = *types.kind(t) else {
        return None;
    };
    let abi = types.to_abi(t)?;
    let neverc_abi::Type::Record(rec) = &abi else {
        return None;
    };
    let lay = neverc_abi::record_layout(rec, m);
    let info = &types.records[r as usize];
    let members = info
        .members
        .iter()
        .zip(&lay.fields)
        .map(|(mem, fl)| {
            let name = mem
                .name
                .map(|n| interner.str(n).into_owned())
                .unwrap_or_else(|| "(unnamed)".into());
            let size = types.size_align(mem.ty).map(|s| s.0).unwrap_or(0);
            let bits = mem.bits.map(|_| (fl.bit_offset, fl.bit_size));
            (fl.offset(), size, bits, name, types.name(mem.ty, interner))
        })
        .collect();
    Some(RecordOut {
        name: types.name(t, interner),
        size: lay.size,
        align: lay.align,
        members,
    })
}

fn place(arch: neverc_target::Arch, p: Place) -> String {
    match p {
        Place::Reg(r) => neverc_target::registers::schema(arch)
            .name(r)
            .map(str::to_string)
            .unwrap_or_else(|| format!("reg{r}")),
        Place::Stack(o) => format!("stack+{o}"),
    }
}

fn flags_text(f: Flags) -> String {
    if f.0 == 0 {
        String::new()
    } else {
        format!("{f}")
    }
}

fn write_table(
    out: &mut String,
    file: &str,
    triple: &str,
    conv: &str,
    recs: &[RecordOut],
    entries: &[Entry],
    arch: neverc_target::Arch,
) {
    let _ = writeln!(out, "{file}: target {triple}, convention {conv}");
    for r in recs {
        let _ = writeln!(out, "\n{}  (size {}, align {})", r.name, r.size, r.align);
        let _ = writeln!(out, "  {:>6}  {:>5}  member", "offset", "size");
        let mut end = 0u64;
        for (off, size, bits, name, ty) in &r.members {
            if let Some((bo, bw)) = bits {
                let _ = writeln!(
                    out,
                    "  {:>6}  {:>5}  {name}: {ty} : {bw} (bits {bo}..{})",
                    format!("{}.{}", bo / 8, bo % 8),
                    "-",
                    bo + bw
                );
                end = end.max((bo + bw).div_ceil(8));
                continue;
            }
            if *off > end {
                let _ = writeln!(out, "  {:>6}  {:>5}  (padding)", end, off - end);
            }
            let _ = writeln!(out, "  {off:>6}  {size:>5}  {name}: {ty}");
            end = end.max(off + size);
        }
        if r.size > end {
            let _ = writeln!(out, "  {:>6}  {:>5}  (padding)", end, r.size - end);
        }
    }
    for e in entries {
        // `int(const char *, ...)` read as a declaration: `int printf(const char *, ...)`.
        let decl = match e.c_type.find('(') {
            Some(i) => format!("{} {}{}", &e.c_type[..i], e.name, &e.c_type[i..]),
            None => e.name.clone(),
        };
        let _ = writeln!(out, "\n{}", decl.replace(",  ", ", "));
        match &e.plan {
            Err(why) => {
                let _ = writeln!(out, "  no plan: {why}");
            }
            Ok(p) => {
                // One row per location: what it carries, which bytes, where, how.
                let mut rows: Vec<(String, &neverc_abi::Location)> = Vec::new();
                for l in &p.returns {
                    let what = if l.flags.contains(Flags::SRET) {
                        "result address (hidden argument)".to_string()
                    } else if l.flags.contains(Flags::SRET_OUT) {
                        "result address (returned)".to_string()
                    } else {
                        format!("result: {}", e.value_types[0])
                    };
                    rows.push((what, l));
                }
                for l in &p.arguments {
                    let what = if l.flags.contains(Flags::VA_COUNT) {
                        "vector registers used".to_string()
                    } else {
                        let ty = e
                            .value_types
                            .get(l.value as usize + 1)
                            .cloned()
                            .unwrap_or_default();
                        format!("argument {}: {ty}", l.value + 1)
                    };
                    rows.push((what, l));
                }
                let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
                for (what, l) in rows {
                    let line = format!(
                        "  {what:<w$}  bytes {:>3}..{:<3}  {:<9} {}",
                        l.offset,
                        l.offset + l.size,
                        place(arch, l.place),
                        flags_text(l.flags)
                    );
                    let _ = writeln!(out, "{}", line.trim_end());
                }
                let saved: Vec<String> = p
                    .callee_saved
                    .iter()
                    .map(|&r| place(arch, Place::Reg(r)))
                    .collect();
                let _ = writeln!(
                    out,
                    "  stack area {} bytes; callee-saved {}",
                    p.stack,
                    saved.join(" ")
                );
                let _ = writeln!(out, "  plan {p}");
            }
        }
    }
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn write_json(
    out: &mut String,
    file: &str,
    triple: &str,
    conv: &str,
    recs: &[RecordOut],
    entries: &[Entry],
    arch: neverc_target::Arch,
) {
    let _ = write!(
        out,
        "{{\"file\":{},\"target\":{},\"convention\":{},\"records\":[",
        json_str(file),
        json_str(triple),
        json_str(conv)
    );
    for (i, r) in recs.iter().enumerate() {
        let members: Vec<String> = r
            .members
            .iter()
            .map(|(off, size, bits, name, ty)| {
                let b = match bits {
                    Some((bo, bw)) => format!(",\"bit_offset\":{bo},\"bit_width\":{bw}"),
                    None => String::new(),
                };
                format!(
                    "{{\"name\":{},\"type\":{},\"offset\":{off},\"size\":{size}{b}}}",
                    json_str(name),
                    json_str(ty)
                )
            })
            .collect();
        let _ = write!(
            out,
            "{}{{\"type\":{},\"size\":{},\"align\":{},\"members\":[{}]}}",
            if i > 0 { "," } else { "" },
            json_str(&r.name),
            r.size,
            r.align,
            members.join(",")
        );
    }
    out.push_str("],\"functions\":[");
    for (i, e) in entries.iter().enumerate() {
        let loc_json = |l: &neverc_abi::Location| {
            format!(
                "{{\"value\":{},\"offset\":{},\"size\":{},\"place\":{},\"flags\":{}}}",
                l.value,
                l.offset,
                l.size,
                json_str(&place(arch, l.place)),
                json_str(&flags_text(l.flags))
            )
        };
        let body = match &e.plan {
            Ok(p) => format!(
                "\"plan\":{},\"stack\":{},\"returns\":[{}],\"arguments\":[{}]",
                json_str(&p.to_string()),
                p.stack,
                p.returns.iter().map(loc_json).collect::<Vec<_>>().join(","),
                p.arguments
                    .iter()
                    .map(loc_json)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Err(why) => format!("\"error\":{}", json_str(why)),
        };
        let _ = write!(
            out,
            "{}{{\"name\":{},\"type\":{},{body}}}",
            if i > 0 { "," } else { "" },
            json_str(&e.name),
            json_str(&e.c_type)
        );
    }
    out.push_str("]}\n");
}
