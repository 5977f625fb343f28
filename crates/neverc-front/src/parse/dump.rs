//! The syntax tree as indented text (`-fdump-ast` and the parser's tests): one line per
//! declaration or statement with `@line:col`, declarators in words ("pointer to int"),
//! expressions as s-expressions.

use super::ast::*;
use super::ctok::{Enc, FloatSuffix, T};
use crate::source::{Loc, SourceMap};
use crate::token::{Interner, Symbol};
use std::fmt::Write;

pub fn dump(ast: &Ast, sm: &SourceMap, interner: &Interner) -> String {
    let mut d = Dumper {
        ast,
        sm,
        interner,
        out: String::new(),
    };
    for &item in &ast.items {
        d.decl(item, 0);
    }
    d.out
}

struct Dumper<'a> {
    ast: &'a Ast,
    sm: &'a SourceMap,
    interner: &'a Interner,
    out: String,
}

impl Dumper<'_> {
    fn name(&self, s: Symbol) -> String {
        self.interner.str(s).into_owned()
    }

    fn at(&self, loc: Loc) -> String {
        let (l, c) = self.sm.line_col(loc);
        format!("@{l}:{c}")
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn attrs(&self, attrs: &[Attr]) -> String {
        let mut s = String::new();
        for a in attrs {
            let name = self.name(a.name);
            let args = a.args.map(|(b, e)| {
                let mut t = String::new();
                for (i, tok) in self.ast.tokens[b as usize..e as usize].iter().enumerate() {
                    let sp = self.name(tok.spelling(&self.ast.lits));
                    let glue = matches!(sp.as_str(), "," | ")") || t.ends_with('(') || i == 0;
                    if !glue {
                        t.push(' ');
                    }
                    t.push_str(&sp);
                    let _ = tok.kind == T::Eof;
                }
                t
            });
            let body = match args {
                Some(a) => format!("{name}({a})"),
                None => name,
            };
            let w = match a.syntax {
                AttrSyntax::Gnu => format!(" __attribute__(({body}))"),
                AttrSyntax::Declspec => format!(" __declspec({body})"),
                AttrSyntax::Std(None) => format!(" [[{body}]]"),
                AttrSyntax::Std(Some(ns)) => format!(" [[{}::{body}]]", self.name(ns)),
            };
            s.push_str(&w);
        }
        s
    }

    fn quals(q: u8) -> String {
        let mut s = String::new();
        for (bit, w) in [
            (qual::CONST, "const "),
            (qual::VOLATILE, "volatile "),
            (qual::RESTRICT, "restrict "),
            (qual::ATOMIC, "_Atomic "),
        ] {
            if q & bit != 0 {
                s.push_str(w);
            }
        }
        s
    }

    /// Storage class and function specifiers, then the type.
    fn specs(&self, id: SpecsId) -> String {
        let (a, b) = self.specs_parts(id);
        format!("{a}{b}")
    }

    fn specs_parts(&self, id: SpecsId) -> (String, String) {
        let s = self.ast.spec(id);
        let mut o = String::new();
        if let Some(st) = s.storage {
            o.push_str(match st {
                Storage::Typedef => "typedef ",
                Storage::Extern => "extern ",
                Storage::Static => "static ",
                Storage::Auto => "auto ",
                Storage::Register => "register ",
            });
        }
        if s.thread_local {
            o.push_str("_Thread_local ");
        }
        if s.inline {
            o.push_str("inline ");
        }
        if s.noreturn {
            o.push_str("_Noreturn ");
        }
        if s.constexpr {
            o.push_str("constexpr ");
        }
        for a in &s.align {
            match a {
                AlignSpec::Type(t) => {
                    let _ = write!(o, "_Alignas({}) ", self.type_name(*t));
                }
                AlignSpec::Expr(e) => {
                    let _ = write!(o, "_Alignas({}) ", self.expr(*e, 0));
                }
            }
        }
        let mut t = Self::quals(s.quals);
        t.push_str(&self.type_spec(s.ty));
        t.push_str(&self.attrs(&s.attrs));
        (o, t)
    }

    fn int_name(sign: Option<bool>, r: IntRank) -> String {
        let base = match r {
            IntRank::Short => "short",
            IntRank::Int => "int",
            IntRank::Long => "long",
            IntRank::LongLong => "long long",
            IntRank::Int128 => "__int128",
        };
        match sign {
            Some(true) => format!("signed {base}"),
            Some(false) => format!("unsigned {base}"),
            None => base.to_string(),
        }
    }

    fn char_name(sign: Option<bool>) -> &'static str {
        match sign {
            Some(true) => "signed char",
            Some(false) => "unsigned char",
            None => "char",
        }
    }

    fn type_spec(&self, t: TypeSpec) -> String {
        match t {
            TypeSpec::None => "<no type>".into(),
            TypeSpec::Void => "void".into(),
            TypeSpec::Bool => "_Bool".into(),
            TypeSpec::Char(s) => Self::char_name(s).into(),
            TypeSpec::Int(s, r) => Self::int_name(s, r),
            TypeSpec::Float => "float".into(),
            TypeSpec::Double => "double".into(),
            TypeSpec::LongDouble => "long double".into(),
            TypeSpec::FloatN(n, x) => format!("_Float{n}{}", if x { "x" } else { "" }),
            TypeSpec::Float128 => "__float128".into(),
            TypeSpec::Float80 => "__float80".into(),
            TypeSpec::Decimal(n) => format!("_Decimal{n}"),
            TypeSpec::Complex(c) => {
                let r = match c {
                    ComplexOf::Float => "float".into(),
                    ComplexOf::Double => "double".into(),
                    ComplexOf::LongDouble => "long double".into(),
                    ComplexOf::Int(s, r) => Self::int_name(s, r),
                    ComplexOf::Char(s) => Self::char_name(s).into(),
                    ComplexOf::FloatN(n, x) => format!("_Float{n}{}", if x { "x" } else { "" }),
                    ComplexOf::Float128 => "__float128".into(),
                };
                format!("_Complex {r}")
            }
            TypeSpec::Record(r) => {
                let rec = self.ast.record(r);
                let kw = match rec.kind {
                    RecordKind::Struct => "struct",
                    RecordKind::Union => "union",
                };
                let name = rec.name.map_or("<anonymous>".to_string(), |n| self.name(n));
                let mut s = format!("{kw}{} {name}", self.attrs(&rec.attrs));
                if let Some(fields) = &rec.fields {
                    s.push_str(" {");
                    for f in fields {
                        s.push(' ');
                        match f {
                            Field::Members { specs, list, .. } => {
                                let sp = self.specs(*specs);
                                if list.is_empty() {
                                    let _ = write!(s, "{sp};");
                                }
                                for (i, fd) in list.iter().enumerate() {
                                    if i > 0 {
                                        s.push(' ');
                                    }
                                    match &fd.decl {
                                        Some(d) => s.push_str(&self.declarator(d, &sp)),
                                        None => {
                                            let _ = write!(s, "<unnamed>: {sp}");
                                        }
                                    }
                                    if let Some(b) = fd.bits {
                                        let _ = write!(s, " : {}", self.expr(b, 0));
                                    }
                                    s.push(';');
                                }
                            }
                            Field::StaticAssert(d) => {
                                if let DeclKind::StaticAssert { cond, .. } = &self.ast.decl(*d).kind
                                {
                                    let _ = write!(s, "_Static_assert {};", self.expr(*cond, 0));
                                }
                            }
                        }
                    }
                    s.push_str(" }");
                }
                s
            }
            TypeSpec::Enum(e) => {
                let en = self.ast.enum_def(e);
                let name = en.name.map_or("<anonymous>".to_string(), |n| self.name(n));
                let mut s = format!("enum{} {name}", self.attrs(&en.attrs));
                if let Some(t) = en.fixed {
                    let _ = write!(s, " : {}", self.type_name(t));
                }
                if let Some(list) = &en.enumerators {
                    s.push_str(" {");
                    for (i, e) in list.iter().enumerate() {
                        if i > 0 {
                            s.push(',');
                        }
                        let _ = write!(s, " {}", self.name(e.name));
                        if let Some(v) = e.value {
                            let _ = write!(s, " = {}", self.expr(v, 0));
                        }
                    }
                    s.push_str(" }");
                }
                s
            }
            TypeSpec::Typedef(n) => self.name(n),
            TypeSpec::TypeofExpr(e, u) => {
                format!(
                    "{}({})",
                    if u { "typeof_unqual" } else { "typeof" },
                    self.expr(e, 0)
                )
            }
            TypeSpec::TypeofType(t, u) => {
                format!(
                    "{}(<{}>)",
                    if u { "typeof_unqual" } else { "typeof" },
                    self.type_name(t)
                )
            }
            TypeSpec::Atomic(t) => format!("_Atomic(<{}>)", self.type_name(t)),
            TypeSpec::AutoType => "__auto_type".into(),
        }
    }

    /// `name: derivations specs`, the derivations in words.
    fn declarator(&self, d: &Declarator, specs: &str) -> String {
        self.declarator_with(d, "", specs)
    }

    /// `storage` (e.g. `static `) goes after the name.
    fn declarator_with(&self, d: &Declarator, storage: &str, specs: &str) -> String {
        let mut s = String::new();
        if let Some(n) = d.name {
            let _ = write!(s, "{}: ", self.name(n));
        }
        s.push_str(storage);
        for der in &d.derived {
            match der {
                Derived::Pointer { quals, attrs } => {
                    let _ = write!(s, "{}pointer{} to ", Self::quals(*quals), self.attrs(attrs));
                }
                Derived::Array {
                    size,
                    star,
                    is_static,
                    quals,
                    ..
                } => {
                    let mut inner = String::new();
                    if *is_static {
                        inner.push_str("static ");
                    }
                    inner.push_str(&Self::quals(*quals));
                    if *star {
                        inner.push('*');
                    }
                    if let Some(e) = size {
                        inner.push_str(&self.expr(*e, 0));
                    }
                    let _ = write!(s, "array[{}] of ", inner.trim_end());
                }
                Derived::Function {
                    params,
                    variadic,
                    kr_names,
                    ..
                } => {
                    let mut ps: Vec<String> = params
                        .iter()
                        .map(|p| self.declarator(&p.decl, &self.specs(p.specs)))
                        .collect();
                    if let Some(k) = kr_names {
                        ps.extend(k.iter().map(|(n, _)| self.name(*n)));
                        if k.is_empty() {
                            ps.push("<no prototype>".into());
                        }
                    }
                    if *variadic {
                        ps.push("...".into());
                    }
                    let _ = write!(s, "function({}) returning ", ps.join(", "));
                }
            }
        }
        s.push_str(specs);
        s.push_str(&self.attrs(&d.attrs));
        s
    }

    fn type_name(&self, t: TypeNameId) -> String {
        let tn = self.ast.type_name(t);
        self.declarator(&tn.decl, &self.specs(tn.specs))
    }

    fn str_lit(&self, i: u32) -> String {
        let Some(s) = self.ast.lits.strs.get(i as usize) else {
            return "\"\"".into();
        };
        let mut o = String::from(s.enc.prefix());
        o.push('"');
        for &u in &s.units {
            match u {
                0x22 => o.push_str("\\\""),
                0x5c => o.push_str("\\\\"),
                0x0a => o.push_str("\\n"),
                0x20..=0x7e => o.push(u as u8 as char),
                _ if matches!(s.enc, Enc::None | Enc::Utf8) => {
                    let _ = write!(o, "\\x{u:02x}");
                }
                _ => {
                    let _ = write!(o, "\\x{u:x}");
                }
            }
        }
        o.push('"');
        o
    }

    fn init(&self, id: InitId, indent: usize) -> String {
        match self.ast.init(id) {
            Init::Expr(e) => self.expr(*e, indent),
            Init::List { items, .. } => {
                let mut s = String::from("{");
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    s.push(' ');
                    for d in &it.designators {
                        s.push_str(&self.designator(d, indent));
                    }
                    if !it.designators.is_empty() {
                        s.push_str(" = ");
                    }
                    s.push_str(&self.init(it.init, indent));
                }
                s.push_str(" }");
                s
            }
        }
    }

    fn designator(&self, d: &Designator, indent: usize) -> String {
        match d {
            Designator::Field(n, _) => format!(".{}", self.name(*n)),
            Designator::Index(e) => format!("[{}]", self.expr(*e, indent)),
            Designator::Range(a, b) => {
                format!("[{} ... {}]", self.expr(*a, indent), self.expr(*b, indent))
            }
        }
    }

    fn expr(&self, id: ExprId, indent: usize) -> String {
        let e = self.ast.expr(id);
        let x = |i: ExprId| self.expr(i, indent);
        match &e.kind {
            ExprKind::Ident(n) => self.name(*n),
            ExprKind::Int(i) => {
                let l = self.ast.lits.ints[*i as usize];
                let mut s = l.value.to_string();
                if l.unsigned {
                    s.push('u');
                }
                s.push_str(["", "l", "ll"][l.longs as usize]);
                if l.imaginary {
                    s.push('i');
                }
                s
            }
            ExprKind::Float(i) => {
                let f = &self.ast.lits.floats[*i as usize];
                let mut s = f.text.clone();
                match f.suffix {
                    FloatSuffix::None => {}
                    FloatSuffix::F => s.push('f'),
                    FloatSuffix::L => s.push('l'),
                    FloatSuffix::Q => s.push('q'),
                    FloatSuffix::W => s.push('w'),
                    FloatSuffix::D(n) => s.push_str(match n {
                        32 => "df",
                        64 => "dd",
                        _ => "dl",
                    }),
                    FloatSuffix::FN(n, xx) => {
                        let _ = write!(s, "f{n}{}", if xx { "x" } else { "" });
                    }
                }
                if f.imaginary {
                    s.push('i');
                }
                s
            }
            ExprKind::Char(i) => {
                let c = self.ast.lits.chars[*i as usize];
                format!("{}'{}'", c.enc.prefix(), c.value)
            }
            ExprKind::Str(i) => self.str_lit(*i),
            ExprKind::BoolLit(b) => b.to_string(),
            ExprKind::Nullptr => "nullptr".into(),
            ExprKind::Paren(e) => format!("(paren {})", x(*e)),
            ExprKind::Unary(op, e) => {
                let o = match op {
                    UnOp::Plus => "+",
                    UnOp::Neg => "-",
                    UnOp::Not => "!",
                    UnOp::BitNot => "~",
                    UnOp::Deref => "*",
                    UnOp::Addr => "&",
                    UnOp::PreInc => "pre++",
                    UnOp::PreDec => "pre--",
                    UnOp::PostInc => "post++",
                    UnOp::PostDec => "post--",
                    UnOp::Real => "__real__",
                    UnOp::Imag => "__imag__",
                    UnOp::Extension => "__extension__",
                };
                format!("({o} {})", x(*e))
            }
            ExprKind::Binary(op, a, b) => format!("({} {} {})", op.as_str(), x(*a), x(*b)),
            ExprKind::Assign(op, a, b) => {
                let o = op.map_or("=".to_string(), |o| format!("{}=", o.as_str()));
                format!("({o} {} {})", x(*a), x(*b))
            }
            ExprKind::Cond(c, m, r) => match m.get() {
                Some(m) => format!("(? {} {} {})", x(*c), x(m), x(*r)),
                None => format!("(?: {} {})", x(*c), x(*r)),
            },
            ExprKind::Comma(a, b) => format!("(, {} {})", x(*a), x(*b)),
            ExprKind::Call(f, args) => {
                let mut s = format!("(call {}", x(*f));
                for a in self.ast.list(*args) {
                    s.push(' ');
                    s.push_str(&x(*a));
                }
                s.push(')');
                s
            }
            ExprKind::Index(a, i) => format!("([] {} {})", x(*a), x(*i)),
            ExprKind::Member { base, name, arrow } => {
                format!(
                    "({} {} {})",
                    if *arrow { "->" } else { "." },
                    x(*base),
                    self.name(*name)
                )
            }
            ExprKind::Cast(t, e) => format!("(cast <{}> {})", self.type_name(*t), x(*e)),
            ExprKind::CompoundLit(t, i) => {
                format!(
                    "(compound-literal <{}> {})",
                    self.type_name(*t),
                    self.init(*i, indent)
                )
            }
            ExprKind::SizeofExpr(e) => format!("(sizeof {})", x(*e)),
            ExprKind::SizeofType(t) => format!("(sizeof <{}>)", self.type_name(*t)),
            ExprKind::AlignofExpr(e) => format!("(_Alignof {})", x(*e)),
            ExprKind::AlignofType(t, _) => format!("(_Alignof <{}>)", self.type_name(*t)),
            ExprKind::Generic(c, assocs) => {
                let mut s = format!("(_Generic {}", x(*c));
                for (t, e) in assocs.iter() {
                    let tn = t.map_or("default".to_string(), |t| {
                        format!("<{}>", self.type_name(t))
                    });
                    let _ = write!(s, " ({tn}: {})", x(*e));
                }
                s.push(')');
                s
            }
            ExprKind::StmtExpr(s) => {
                let mut sub = Dumper {
                    ast: self.ast,
                    sm: self.sm,
                    interner: self.interner,
                    out: String::new(),
                };
                sub.stmt(*s, indent + 1);
                let mut r = String::from("(stmt-expr\n");
                r.push_str(&sub.out);
                for _ in 0..indent {
                    r.push_str("  ");
                }
                r.push(')');
                r
            }
            ExprKind::LabelAddr(n) => format!("(&& {})", self.name(*n)),
            ExprKind::VaArg(e, t) => format!("(va_arg {} <{}>)", x(*e), self.type_name(*t)),
            ExprKind::Offsetof(t, path) => {
                let mut s = format!("(offsetof <{}> ", self.type_name(*t));
                for (i, d) in path.iter().enumerate() {
                    let part = self.designator(d, indent);
                    s.push_str(if i == 0 { &part[1..] } else { &part });
                }
                s.push(')');
                s
            }
            ExprKind::TypesCompatible(a, b) => {
                format!(
                    "(types_compatible <{}> <{}>)",
                    self.type_name(*a),
                    self.type_name(*b)
                )
            }
            ExprKind::ChooseExpr(c, a, b) => format!("(choose_expr {} {} {})", x(*c), x(*a), x(*b)),
            ExprKind::Error => "<error>".into(),
        }
    }

    fn decl(&mut self, id: DeclId, indent: usize) {
        let d = self.ast.decl(id);
        let at = self.at(d.loc);
        match &d.kind {
            DeclKind::Vars { specs, list } => {
                let (st, sp) = self.specs_parts(*specs);
                if list.is_empty() {
                    self.line(indent, &format!("Decl {at} {st}{sp}"));
                }
                for idecl in list {
                    let mut s = format!(
                        "Decl {} {}",
                        self.at(idecl.decl.loc),
                        self.declarator_with(&idecl.decl, &st, &sp)
                    );
                    if let Some(l) = idecl.asm_label {
                        let _ = write!(s, " asm({})", self.str_lit(l));
                    }
                    if let Some(i) = idecl.init {
                        let _ = write!(s, " = {}", self.init(i, indent));
                    }
                    self.line(indent, &s);
                }
            }
            DeclKind::FunctionDef {
                specs,
                decl,
                asm_label,
                kr_decls,
                body,
                ..
            } => {
                let (st, sp) = self.specs_parts(*specs);
                let mut s = format!(
                    "FunctionDef {} {}",
                    self.at(decl.loc),
                    self.declarator_with(decl, &st, &sp)
                );
                if let Some(l) = asm_label {
                    let _ = write!(s, " asm({})", self.str_lit(*l));
                }
                self.line(indent, &s);
                for &k in kr_decls {
                    self.decl(k, indent + 1);
                }
                self.stmt(*body, indent + 1);
            }
            DeclKind::StaticAssert { cond, msg } => {
                let mut s = format!("StaticAssert {at} {}", self.expr(*cond, indent));
                if let Some(m) = msg {
                    let _ = write!(s, " {}", self.str_lit(*m));
                }
                self.line(indent, &s);
            }
            DeclKind::Asm(s) => {
                let t = format!("Asm {at} {}", self.str_lit(*s));
                self.line(indent, &t);
            }
            DeclKind::Empty => self.line(indent, &format!("Empty {at}")),
            DeclKind::Error => self.line(indent, &format!("ErrorDecl {at}")),
        }
    }

    fn operands(&self, ops: &[AsmOperand], indent: usize) -> String {
        let v: Vec<String> = ops
            .iter()
            .map(|o| {
                let n = o
                    .name
                    .map_or(String::new(), |n| format!("[{}] ", self.name(n)));
                format!(
                    "{n}{} {}",
                    self.str_lit(o.constraint),
                    self.expr(o.expr, indent)
                )
            })
            .collect();
        v.join(", ")
    }

    fn stmt(&mut self, id: StmtId, indent: usize) {
        let s = self.ast.stmt(id);
        let at = self.at(s.loc);
        let e = |this: &Self, x: ExprId| this.expr(x, indent);
        match &s.kind {
            StmtKind::Compound(items) => {
                self.line(indent, &format!("Compound {at}"));
                for &i in items {
                    self.stmt(i, indent + 1);
                }
            }
            StmtKind::Decl(d) => self.decl(*d, indent),
            StmtKind::LocalLabels(names) => {
                let n: Vec<String> = names.iter().map(|(n, _)| self.name(*n)).collect();
                self.line(indent, &format!("LocalLabels {at} {}", n.join(", ")));
            }
            StmtKind::Expr(None) => self.line(indent, &format!("Null {at}")),
            StmtKind::Expr(Some(x)) => {
                let t = format!("Expr {at} {}", e(self, *x));
                self.line(indent, &t);
            }
            StmtKind::If(c, t, el) => {
                let l = format!("If {at} {}", e(self, *c));
                self.line(indent, &l);
                self.stmt(*t, indent + 1);
                if let Some(el) = el {
                    self.line(indent, "Else");
                    self.stmt(*el, indent + 1);
                }
            }
            StmtKind::Switch(c, b) => {
                let l = format!("Switch {at} {}", e(self, *c));
                self.line(indent, &l);
                self.stmt(*b, indent + 1);
            }
            StmtKind::While(c, b) => {
                let l = format!("While {at} {}", e(self, *c));
                self.line(indent, &l);
                self.stmt(*b, indent + 1);
            }
            StmtKind::DoWhile(b, c) => {
                let l = format!("DoWhile {at} {}", e(self, *c));
                self.line(indent, &l);
                self.stmt(*b, indent + 1);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let c = cond.map_or("-".to_string(), |c| e(self, c));
                let st = step.map_or("-".to_string(), |c| e(self, c));
                match init {
                    ForInit::None => {
                        self.line(indent, &format!("For {at} init - cond {c} step {st}"))
                    }
                    ForInit::Expr(i) => {
                        let l = format!("For {at} init {} cond {c} step {st}", e(self, *i));
                        self.line(indent, &l);
                    }
                    ForInit::Decl(d) => {
                        self.line(indent, &format!("For {at} init decl cond {c} step {st}"));
                        self.decl(*d, indent + 1);
                    }
                }
                self.stmt(*body, indent + 1);
            }
            StmtKind::Goto(n) => {
                let l = format!("Goto {at} {}", self.name(*n));
                self.line(indent, &l);
            }
            StmtKind::GotoComputed(x) => {
                let l = format!("Goto {at} * {}", e(self, *x));
                self.line(indent, &l);
            }
            StmtKind::Continue => self.line(indent, &format!("Continue {at}")),
            StmtKind::Break => self.line(indent, &format!("Break {at}")),
            StmtKind::Return(x) => {
                let l = match x {
                    Some(x) => format!("Return {at} {}", e(self, *x)),
                    None => format!("Return {at}"),
                };
                self.line(indent, &l);
            }
            StmtKind::Label(n, attrs, b) => {
                let l = format!("Label {at} {}{}", self.name(*n), self.attrs(attrs));
                self.line(indent, &l);
                self.stmt(*b, indent + 1);
            }
            StmtKind::Case(lo, hi, b) => {
                let l = match hi {
                    Some(h) => format!("Case {at} {} ... {}", e(self, *lo), e(self, *h)),
                    None => format!("Case {at} {}", e(self, *lo)),
                };
                self.line(indent, &l);
                self.stmt(*b, indent + 1);
            }
            StmtKind::Default(b) => {
                self.line(indent, &format!("Default {at}"));
                self.stmt(*b, indent + 1);
            }
            StmtKind::Asm(a) => {
                let mut l = format!("Asm {at}");
                for (f, w) in [
                    (a.volatile, " volatile"),
                    (a.inline, " inline"),
                    (a.goto, " goto"),
                ] {
                    if f {
                        l.push_str(w);
                    }
                }
                let _ = write!(l, " {}", self.str_lit(a.template));
                if !a.basic {
                    let _ = write!(l, " : {}", self.operands(&a.outputs, indent));
                    let _ = write!(l, " : {}", self.operands(&a.inputs, indent));
                    let c: Vec<String> = a.clobbers.iter().map(|&c| self.str_lit(c)).collect();
                    let _ = write!(l, " : {}", c.join(", "));
                    let n: Vec<String> = a.labels.iter().map(|(n, _)| self.name(*n)).collect();
                    let _ = write!(l, " : {}", n.join(", "));
                }
                self.line(indent, &l);
            }
            StmtKind::Error => self.line(indent, &format!("ErrorStmt {at}")),
        }
    }
}
