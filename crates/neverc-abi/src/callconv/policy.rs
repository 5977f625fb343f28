//! Which functions get a custom convention when no attribute says so: the global policy
//! of the command line.
//!
//! Two spellings are accepted for the same four settings: neverc's own
//! (`-fcallconv-all`, `-fcallconv-spec=S`, `-fcallconv-prefix=P`,
//! `-fcallconv-shuffle[=SEED]`) and NeverC's plugin arguments
//! (`-fplugin-arg=org.neverc.example.custom-callconv:cc-all|ccspec=S|ccprefix=P|ccshuffle`),
//! which neverc implements itself rather than by loading a plugin.
//!
//! A policy file (`-fcallconv-policy=FILE`) adds rules, tried in order before the global
//! mode; the first whose name test matches decides:
//!
//! ```toml
//! # a comment
//! [[rule]]
//! prefix = "secret_"              # or: pattern = "crypto_*_round" (* and ?), or: name = "f"
//! spec = "gpr:r10,r11;ret:rdx"    # or: shuffle = true / shuffle = 7 (a seed), or: standard = true
//! ```
//!
//! The file is a small subset of TOML read by hand (no dependency): comments, `[[rule]]`
//! tables, and `key = value` with basic or literal strings, integers and booleans.

use super::spec::Spec;
use crate::plan::fnv1a32;

/// The plugin name whose arguments neverc understands.
pub const PLUGIN_NAME: &str = "org.neverc.example.custom-callconv";

/// The spec of global mode when none is given.
pub const DEFAULT_POLICY_SPEC: &str = "gpr:r10,r11,rsi,rdi;ret:rdx";

/// The four layouts `-fcallconv-shuffle` chooses among (neverc's own, each a valid
/// x86-64 spec: integer pools in different orders, vector pools too, different result
/// registers).
pub const SHUFFLE_LAYOUTS: [&str; 4] = [
    "gpr:r9,r8,rcx,rdx,rsi,rdi;xmm:xmm7,xmm6,xmm5,xmm4,xmm3,xmm2;ret:rdx",
    "gpr:r10,rdi,r8,rsi,r9,rcx;xmm:xmm3,xmm1,xmm2,xmm0;ret:rcx;ret_xmm:xmm2",
    "gpr:rcx,r10,rdx,r9,rax,r8;xmm:xmm5,xmm0,xmm6,xmm1;ret:r8",
    "gpr:rsi,rax,rdi,r11,rdx,r10;xmm:xmm2,xmm4,xmm0,xmm6;ret:r9;ret_xmm:xmm1",
];

/// The spec of global mode on AArch64 when none is given: the counterpart of
/// [`DEFAULT_POLICY_SPEC`] (temporaries instead of the standard argument registers, the
/// result elsewhere than x0).
pub const DEFAULT_POLICY_SPEC_AARCH64: &str = "gpr:x9,x10,x11,x12;ret:x13";

/// The four layouts of `-fcallconv-shuffle` on AArch64 (valid AArch64 specs).
pub const SHUFFLE_LAYOUTS_AARCH64: [&str; 4] = [
    "gpr:x7,x6,x5,x4,x3,x2;fpr:v7,v6,v5,v4,v3,v2;ret:x1",
    "gpr:x9,x0,x10,x1,x11,x2;fpr:v3,v1,v2,v0;ret:x2;ret_fpr:v2",
    "gpr:x2,x12,x3,x13,x18,x4;fpr:v5,v16,v6,v17;ret:x4",
    "gpr:x14,x0,x15,x9,x3,x10;fpr:v18,v4,v0,v19;ret:x9;ret_fpr:v1",
];

/// The command line's policy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// The target is AArch64: the default spec and the shuffle layouts are its own.
    pub aarch64: bool,
    /// Global mode: every function selected gets a custom convention.
    pub all: bool,
    /// The spec of global mode ([`DEFAULT_POLICY_SPEC`] when `None`).
    pub spec: Option<String>,
    /// Only functions whose names start with this.
    pub prefix: Option<String>,
    /// Choose among [`SHUFFLE_LAYOUTS`] by function name, with this seed.
    pub shuffle: Option<u64>,
    /// Rules of policy files, tried in order before the global mode.
    pub rules: Vec<Rule>,
}

/// Which functions a rule is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameTest {
    Prefix(String),
    /// `*` matches any run of characters, `?` any one.
    Pattern(String),
    Exact(String),
}

/// What a rule gives the functions it matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Spec(String),
    /// One of [`SHUFFLE_LAYOUTS`], by name and this seed.
    Shuffle(u64),
    /// The standard convention.
    Standard,
}

/// One rule of a policy file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub test: NameTest,
    pub action: Action,
}

impl NameTest {
    pub fn matches(&self, name: &str) -> bool {
        match self {
            NameTest::Prefix(p) => name.starts_with(p.as_str()),
            NameTest::Exact(n) => name == n,
            NameTest::Pattern(p) => glob(p.as_bytes(), name.as_bytes()),
        }
    }
}

/// `*` and `?` matching, iterative with one backtrack point.
fn glob(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if pi < p.len() && (p[pi] == b'?' || p[pi] == s[si]) {
            pi += 1;
            si += 1;
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, si));
            pi += 1;
        } else if let Some((sp, ss)) = star {
            pi = sp + 1;
            si = ss + 1;
            star = Some((sp, ss + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

fn shuffled(name: &str, seed: u64, aarch64: bool) -> &'static str {
    // By name, so every file compiled with the same seed agrees.
    let h = fnv1a32(name.as_bytes()) ^ (seed as u32) ^ ((seed >> 32) as u32);
    let layouts = if aarch64 {
        &SHUFFLE_LAYOUTS_AARCH64
    } else {
        &SHUFFLE_LAYOUTS
    };
    layouts[(h % 4) as usize]
}

fn flag_value(v: Option<&str>, what: &str) -> Result<bool, String> {
    match v.map(|s| s.to_ascii_lowercase()).as_deref() {
        None | Some("1") | Some("true") | Some("yes") | Some("on") => Ok(true),
        Some("0") | Some("false") | Some("no") | Some("off") => Ok(false),
        Some(other) => Err(format!("'{other}' is not a value for {what} (1 or 0)")),
    }
}

impl Policy {
    /// Applies one `-f` option (without `-f`); `Ok(false)` when it is not a policy
    /// option. Errors name the option.
    pub fn apply(&mut self, opt: &str) -> Result<bool, String> {
        if opt == "callconv-all" {
            self.all = true;
        } else if opt == "no-callconv-all" {
            self.all = false;
        } else if let Some(s) = opt.strip_prefix("callconv-spec=") {
            self.set_spec(s, "-fcallconv-spec")?;
        } else if let Some(p) = opt.strip_prefix("callconv-prefix=") {
            self.prefix = Some(p.to_string());
        } else if opt == "callconv-shuffle" {
            self.shuffle = Some(0);
        } else if let Some(seed) = opt.strip_prefix("callconv-shuffle=") {
            self.shuffle = Some(parse_seed(seed)?);
        } else if opt == "no-callconv-shuffle" {
            self.shuffle = None;
        } else if let Some(arg) = opt.strip_prefix("plugin-arg=") {
            let Some((plugin, rest)) = arg.split_once(':') else {
                return Err(format!("-fplugin-arg={arg}: expected <plugin>:<option>"));
            };
            if plugin != PLUGIN_NAME {
                return Err(format!(
                    "-fplugin-arg={arg}: neverc loads no plugins; it implements only '{PLUGIN_NAME}'"
                ));
            }
            let (key, val) = match rest.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (rest, None),
            };
            match key {
                "cc-all" => self.all = flag_value(val, "cc-all")?,
                "ccshuffle" => {
                    self.shuffle = flag_value(val, "ccshuffle")?.then_some(0);
                }
                "ccspec" => self.set_spec(val.unwrap_or(""), "ccspec")?,
                "ccprefix" => self.prefix = Some(val.unwrap_or("").to_string()),
                _ => {
                    return Err(format!(
                        "-fplugin-arg={arg}: '{key}' is not an option of {PLUGIN_NAME} \
                         (cc-all, ccspec, ccprefix, ccshuffle)"
                    ))
                }
            }
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    fn set_spec(&mut self, s: &str, what: &str) -> Result<(), String> {
        // Quotes a shell left in (`ccspec="gpr:r10"` through some build systems).
        let s = s.trim().trim_matches('"');
        Spec::parse(s).map_err(|e| format!("{what}: {e}"))?;
        self.spec = Some(s.to_string());
        Ok(())
    }

    /// Is any function selected by this policy?
    pub fn active(&self) -> bool {
        self.all || !self.rules.is_empty()
    }

    /// Adds the rules of a policy file; errors say `line N: ...`.
    pub fn add_policy_file(&mut self, text: &str) -> Result<(), String> {
        self.rules.extend(parse_policy_file(text)?);
        Ok(())
    }

    /// Does the policy name this function explicitly (a policy-file rule, or a prefix with
    /// the global mode), rather than take it because it is defined here? Only such
    /// functions are given a convention where they are merely declared: the global mode
    /// alone covers definitions, so that a library function a file declares itself
    /// (`int puts(const char *);`) is never called with a custom convention.
    pub fn names_explicitly(&self, name: &str) -> bool {
        self.rules.iter().any(|r| r.test.matches(name))
            || (self.all
                && self
                    .prefix
                    .as_ref()
                    .is_some_and(|p| name.starts_with(p.as_str())))
    }

    /// The spec for a function of this name, if the policy selects it.
    pub fn spec_for(&self, name: &str) -> Option<&str> {
        if name == "main" {
            return None;
        }
        if let Some(rule) = self.rules.iter().find(|r| r.test.matches(name)) {
            return match &rule.action {
                Action::Spec(s) => Some(s.as_str()),
                Action::Shuffle(seed) => Some(shuffled(name, *seed, self.aarch64)),
                Action::Standard => None,
            };
        }
        if !self.all {
            return None;
        }
        if let Some(p) = &self.prefix {
            if !name.starts_with(p.as_str()) {
                return None;
            }
        }
        if let Some(seed) = self.shuffle {
            return Some(shuffled(name, seed, self.aarch64));
        }
        let default = if self.aarch64 {
            DEFAULT_POLICY_SPEC_AARCH64
        } else {
            DEFAULT_POLICY_SPEC
        };
        Some(self.spec.as_deref().unwrap_or(default))
    }
}

fn parse_seed(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|_| format!("-fcallconv-shuffle={s}: the seed is not a number"))
}

/// A value of the TOML subset.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Str(String),
    Int(i64),
    Bool(bool),
}

fn parse_value(v: &str) -> Result<(Value, &str), String> {
    if let Some(rest) = v.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = rest.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Ok((Value::Str(out), &rest[i + 1..])),
                '\\' => match chars.next().map(|(_, c)| c) {
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    other => return Err(format!("unknown escape '\\{}'", other.unwrap_or(' '))),
                },
                c => out.push(c),
            }
        }
        return Err("unterminated string".into());
    }
    if let Some(rest) = v.strip_prefix('\'') {
        let end = rest.find('\'').ok_or("unterminated string")?;
        return Ok((Value::Str(rest[..end].to_string()), &rest[end + 1..]));
    }
    let end = v
        .find(|c: char| c.is_whitespace() || c == '#')
        .unwrap_or(v.len());
    let (word, rest) = v.split_at(end);
    let value = match word {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        w => {
            let digits = w.replace('_', "");
            let n = match digits.strip_prefix("0x") {
                Some(h) => i64::from_str_radix(h, 16),
                None => digits.parse(),
            };
            Value::Int(n.map_err(|_| format!("'{w}' is not a string, integer or boolean"))?)
        }
    };
    Ok((value, rest))
}

fn set_once<T>(line_no: usize, slot: &mut Option<T>, v: T, what: &str) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!(
            "line {line_no}: this rule has more than one {what}"
        ));
    }
    *slot = Some(v);
    Ok(())
}

/// Reads a policy file (see the module comment).
pub fn parse_policy_file(text: &str) -> Result<Vec<Rule>, String> {
    let mut tables: Vec<(usize, Vec<(String, Value)>)> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let err = |m: String| format!("line {line_no}: {m}");
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('[') {
            let head = line.split('#').next().unwrap().trim();
            if head.replace(' ', "") != "[[rule]]" {
                return Err(err(format!("'{head}': only [[rule]] tables are known")));
            }
            tables.push((line_no, Vec::new()));
            continue;
        }
        let Some((key, rest)) = line.split_once('=') else {
            return Err(err("expected 'key = value'".into()));
        };
        let key = key.trim();
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(err(format!("'{key}' is not a key")));
        }
        let (value, tail) = parse_value(rest.trim()).map_err(err)?;
        let tail = tail.trim();
        if !tail.is_empty() && !tail.starts_with('#') {
            return Err(err(format!("unexpected '{tail}' after the value")));
        }
        let Some((_, table)) = tables.last_mut() else {
            return Err(err(format!("'{key}' outside a [[rule]] table")));
        };
        if table.iter().any(|(k, _)| k == key) {
            return Err(err(format!("'{key}' given twice in one rule")));
        }
        table.push((key.to_string(), value));
    }
    let mut rules = Vec::new();
    for (line_no, table) in tables {
        let err = |m: &str| format!("line {line_no}: this rule {m}");
        let mut test = None;
        let mut action = None;
        for (key, value) in table {
            match (key.as_str(), value) {
                ("prefix", Value::Str(p)) => {
                    set_once(line_no, &mut test, NameTest::Prefix(p), "name test")?
                }
                ("pattern", Value::Str(p)) => {
                    set_once(line_no, &mut test, NameTest::Pattern(p), "name test")?
                }
                ("name", Value::Str(p)) => {
                    set_once(line_no, &mut test, NameTest::Exact(p), "name test")?
                }
                ("spec", Value::Str(s)) => {
                    Spec::parse(&s).map_err(|e| err(&format!("has an {e}")))?;
                    set_once(line_no, &mut action, Action::Spec(s), "action")?
                }
                ("shuffle", Value::Bool(true)) => {
                    set_once(line_no, &mut action, Action::Shuffle(0), "action")?
                }
                ("shuffle", Value::Int(seed)) if seed >= 0 => {
                    set_once(line_no, &mut action, Action::Shuffle(seed as u64), "action")?
                }
                ("standard", Value::Bool(true)) => {
                    set_once(line_no, &mut action, Action::Standard, "action")?
                }
                (k, v) => return Err(err(&format!("cannot use {k} = {v:?}"))),
            }
        }
        rules.push(Rule {
            test: test.ok_or_else(|| err("has no prefix, pattern or name"))?,
            action: action.ok_or_else(|| err("has no spec, shuffle or standard"))?,
        });
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(opts: &[&str]) -> Policy {
        let mut p = Policy::default();
        for o in opts {
            assert_eq!(p.apply(o), Ok(true), "{o}");
        }
        p
    }

    #[test]
    fn both_spellings_give_the_same_policy() {
        let ours = policy(&[
            "callconv-all",
            "callconv-spec=gpr:r9,r8;ret:rax",
            "callconv-prefix=secret_",
        ]);
        let theirs = policy(&[
            "plugin-arg=org.neverc.example.custom-callconv:cc-all",
            "plugin-arg=org.neverc.example.custom-callconv:ccspec=gpr:r9,r8;ret:rax",
            "plugin-arg=org.neverc.example.custom-callconv:ccprefix=secret_",
        ]);
        assert_eq!(ours, theirs);
        assert_eq!(ours.spec_for("secret_add"), Some("gpr:r9,r8;ret:rax"));
        assert_eq!(ours.spec_for("public_add"), None);
        assert!(ours.names_explicitly("secret_add") && !ours.names_explicitly("public_add"));
        assert!(!policy(&["callconv-all"]).names_explicitly("f"));
        let a = policy(&["callconv-shuffle"]);
        let b = policy(&["plugin-arg=org.neverc.example.custom-callconv:ccshuffle=true"]);
        assert_eq!(a, b);
    }

    #[test]
    fn nothing_without_all_and_never_main() {
        let p = policy(&["callconv-spec=gpr:r10"]);
        assert_eq!(p.spec_for("f"), None);
        let p = policy(&["callconv-all"]);
        assert_eq!(p.spec_for("f"), Some(DEFAULT_POLICY_SPEC));
        assert_eq!(p.spec_for("main"), None);
        let p = policy(&["plugin-arg=org.neverc.example.custom-callconv:cc-all=0"]);
        assert_eq!(p.spec_for("f"), None);
    }

    #[test]
    fn shuffle_is_deterministic_and_uses_all_four_layouts() {
        let p = policy(&["callconv-all", "callconv-shuffle=7"]);
        let q = policy(&["callconv-all", "callconv-shuffle=7"]);
        let names: Vec<String> = (0..64).map(|i| format!("f{i}")).collect();
        let mut seen = [false; 4];
        for n in &names {
            let s = p.spec_for(n).unwrap();
            assert_eq!(Some(s), q.spec_for(n));
            seen[SHUFFLE_LAYOUTS.iter().position(|l| *l == s).unwrap()] = true;
        }
        assert_eq!(seen, [true; 4]);
        // Another seed gives another assignment.
        let r = policy(&["callconv-all", "callconv-shuffle=8"]);
        assert!(names.iter().any(|n| r.spec_for(n) != p.spec_for(n)));
        for l in SHUFFLE_LAYOUTS {
            Spec::parse(l).unwrap();
        }
    }

    #[test]
    fn bad_options_are_errors() {
        let mut p = Policy::default();
        assert!(p.apply("callconv-spec=gpr").is_err());
        assert!(p.apply("callconv-shuffle=x").is_err());
        assert!(p.apply("plugin-arg=other.plugin:cc-all").is_err());
        assert!(p
            .apply("plugin-arg=org.neverc.example.custom-callconv:bogus")
            .is_err());
        assert!(p
            .apply("plugin-arg=org.neverc.example.custom-callconv:cc-all=maybe")
            .is_err());
        assert_eq!(p.apply("omit-frame-pointer"), Ok(false));
    }

    #[test]
    fn policy_files_give_rules_tried_in_order() {
        let text = r#"
# neverc policy
[[rule]]
name = "keep_me"          # exact name
standard = true

[[rule]]
prefix = "secret_"
spec = "gpr:r10,r11;ret:rdx"

[[ rule ]]
pattern = 'crypto_*_r?'
shuffle = 7

[[rule]]
pattern = "*_hot"
spec = "args:rcx,\"stack\""
"#;
        let text = text.replace("\\\"stack\\\"", "stack");
        let rules = parse_policy_file(&text).unwrap();
        assert_eq!(rules.len(), 4);
        let mut p = Policy::default();
        p.add_policy_file(&text).unwrap();
        assert_eq!(p.spec_for("secret_x"), Some("gpr:r10,r11;ret:rdx"));
        assert_eq!(p.spec_for("keep_me"), None);
        assert_eq!(
            p.spec_for("crypto_aes_r1"),
            Some(shuffled("crypto_aes_r1", 7, false))
        );
        assert_eq!(p.spec_for("crypto_aes_r12"), None);
        assert_eq!(p.spec_for("loop_hot"), Some("args:rcx,stack"));
        assert_eq!(p.spec_for("main"), None);
        assert_eq!(p.spec_for("other"), None);
        // The global mode covers what no rule matches.
        p.apply("callconv-all").unwrap();
        assert_eq!(p.spec_for("other"), Some(DEFAULT_POLICY_SPEC));
        assert_eq!(p.spec_for("keep_me"), None);
    }

    #[test]
    fn glob_patterns() {
        for (p, s, m) in [
            ("*", "", true),
            ("a*b", "ab", true),
            ("a*b", "axxb", true),
            ("a*b", "axxbc", false),
            ("a?c", "abc", true),
            ("a?c", "ac", false),
            ("*_x_*", "f_x_g", true),
            ("**a", "ba", true),
        ] {
            assert_eq!(glob(p.as_bytes(), s.as_bytes()), m, "{p} {s}");
        }
    }

    #[test]
    fn bad_policy_files_name_the_line() {
        for (text, msg) in [
            (
                "prefix = \"a\"",
                "line 1: 'prefix' outside a [[rule]] table",
            ),
            ("[rule]", "line 1: '[rule]': only [[rule]] tables are known"),
            ("[[rule]]\nprefix = \"a", "line 2: unterminated string"),
            (
                "[[rule]]\nprefix = a",
                "line 2: 'a' is not a string, integer or boolean",
            ),
            (
                "[[rule]]\nprefix = \"a\" x",
                "line 2: unexpected 'x' after the value",
            ),
            (
                "[[rule]]\nprefix = \"a\"",
                "line 1: this rule has no spec, shuffle or standard",
            ),
            (
                "[[rule]]\nspec = \"gpr:r10\"",
                "line 1: this rule has no prefix, pattern or name",
            ),
            (
                "[[rule]]\nprefix = \"a\"\nname = \"b\"\nstandard = true",
                "line 1: this rule has more than one name test",
            ),
            (
                "[[rule]]\nprefix = \"a\"\nprefix = \"b\"",
                "line 3: 'prefix' given twice in one rule",
            ),
            (
                "[[rule]]\nprefix = \"a\"\nspec = \"gpr\"",
                "line 1: this rule has an invalid calling convention spec",
            ),
            (
                "[[rule]]\nprefix = \"a\"\ncolour = 1",
                "line 1: this rule cannot use colour = Int(1)",
            ),
        ] {
            let e = parse_policy_file(text).unwrap_err();
            assert!(e.starts_with(msg), "{text:?}: {e}");
        }
    }
}
