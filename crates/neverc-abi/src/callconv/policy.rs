//! Which functions get a custom convention when no attribute says so: the global policy
//! of the command line.
//!
//! Two spellings are accepted for the same four settings: neverc's own
//! (`-fcallconv-all`, `-fcallconv-spec=S`, `-fcallconv-prefix=P`,
//! `-fcallconv-shuffle[=SEED]`) and NeverC's plugin arguments
//! (`-fplugin-arg=org.neverc.example.custom-callconv:cc-all|ccspec=S|ccprefix=P|ccshuffle`),
//! which neverc implements itself rather than by loading a plugin.

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

/// The command line's policy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// Global mode: every function selected gets a custom convention.
    pub all: bool,
    /// The spec of global mode ([`DEFAULT_POLICY_SPEC`] when `None`).
    pub spec: Option<String>,
    /// Only functions whose names start with this.
    pub prefix: Option<String>,
    /// Choose among [`SHUFFLE_LAYOUTS`] by function name, with this seed.
    pub shuffle: Option<u64>,
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
        self.all
    }

    /// The spec for a function of this name, if the policy selects it.
    pub fn spec_for(&self, name: &str) -> Option<&str> {
        if !self.all || name == "main" {
            return None;
        }
        if let Some(p) = &self.prefix {
            if !name.starts_with(p.as_str()) {
                return None;
            }
        }
        if let Some(seed) = self.shuffle {
            // By name, so every file compiled with the same seed agrees.
            let h = fnv1a32(name.as_bytes()) ^ (seed as u32) ^ ((seed >> 32) as u32);
            return Some(SHUFFLE_LAYOUTS[(h % 4) as usize]);
        }
        Some(self.spec.as_deref().unwrap_or(DEFAULT_POLICY_SPEC))
    }
}

fn parse_seed(s: &str) -> Result<u64, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|_| format!("-fcallconv-shuffle={s}: the seed is not a number"))
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
}
