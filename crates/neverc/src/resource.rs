//! neverc's own headers (from `neverc-target`) as a directory on disk, where the search
//! path, `-M` dependencies and a user's debugger can find them.
//!
//! An installed neverc keeps them at `<prefix>/lib/neverc/include` beside `bin/neverc`.
//! A neverc run from its build tree writes them once to a cache directory named after a
//! hash of their contents, so a changed header never meets a stale copy.

use std::path::{Path, PathBuf};

/// The directory holding neverc's own headers, created if needed.
pub fn include_dir() -> Result<PathBuf, String> {
    if let Ok(exe) = std::env::current_exe() {
        if let Some(prefix) = exe.parent().and_then(Path::parent) {
            let installed = prefix.join("lib/neverc/include");
            if installed.join("stddef.h").is_file() {
                return Ok(installed);
            }
        }
    }
    let headers = neverc_target::freestanding_headers();
    let hash = content_hash(headers);
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join("neverc").join(format!("include-{hash:016x}"));
    if dir.join(".complete").is_file() {
        return Ok(dir);
    }
    write_headers(&dir, headers)
        .map_err(|e| format!("cannot write neverc's headers to {}: {e}", dir.display()))?;
    Ok(dir)
}

fn content_hash(headers: &[(&str, &str)]) -> u64 {
    // FNV-1a over names and contents: stable across runs and builds.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, text) in headers {
        for b in name.bytes().chain([0]).chain(text.bytes()).chain([0]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Writes into a temporary sibling and renames it into place, so concurrent first runs
/// (a parallel build) never see a half-written directory.
fn write_headers(dir: &Path, headers: &[(&str, &str)]) -> std::io::Result<()> {
    let parent = dir.parent().expect("cache dir has a parent");
    std::fs::create_dir_all(parent)?;
    let tmp = parent.join(format!(
        ".tmp-{}-{}",
        std::process::id(),
        dir.file_name().unwrap().to_string_lossy()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    for (name, text) in headers {
        std::fs::write(tmp.join(name), text)?;
    }
    std::fs::write(tmp.join(".complete"), b"")?;
    match std::fs::rename(&tmp, dir) {
        Ok(()) => Ok(()),
        Err(_) if dir.join(".complete").is_file() => {
            // Another process won the race.
            let _ = std::fs::remove_dir_all(&tmp);
            Ok(())
        }
        Err(e) => Err(e),
    }
}
