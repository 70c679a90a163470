//! Two things for the build:
//!
//! - Compiles the real-client suite (tests/it/clients) in as not ignored when
//!   HEREDOC_GUARD_CLIENT_TESTS=1; `.ci/run` sets it.
//! - `HEREDOC_GUARD_COMMIT` for `--version`: the commit the binary is built from. Taken
//!   from `HEREDOC_GUARD_COMMIT` in the environment when set (a packager's override), else
//!   from `.cargo_vcs_info.json` (what `cargo package` records, so a crate from crates.io
//!   names its commit), else from `git rev-parse HEAD` when the package directory is a git
//!   checkout's top level; else `unknown`. Nothing here fails the build.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=HEREDOC_GUARD_CLIENT_TESTS");
    println!("cargo::rustc-check-cfg=cfg(client_tests)");
    if std::env::var_os("HEREDOC_GUARD_CLIENT_TESTS").is_some_and(|v| v == "1") {
        println!("cargo::rustc-cfg=client_tests");
    }

    println!("cargo::rerun-if-env-changed=HEREDOC_GUARD_COMMIT");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let commit = std::env::var("HEREDOC_GUARD_COMMIT")
        .ok()
        .filter(|c| is_commit(c))
        .or_else(|| from_vcs_info(&manifest))
        .or_else(|| from_git(&manifest))
        .map(|c| c.chars().take(12).collect::<String>())
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo::rustc-env=HEREDOC_GUARD_COMMIT={commit}");
}

fn is_commit(s: &str) -> bool {
    s.len() >= 7 && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `"sha1": "<hex>"` in `.cargo_vcs_info.json`, read without a JSON parser.
fn from_vcs_info(manifest: &Path) -> Option<String> {
    let file = manifest.join(".cargo_vcs_info.json");
    if !file.exists() {
        return None;
    }
    println!("cargo::rerun-if-changed={}", file.display());
    let text = std::fs::read_to_string(file).ok()?;
    let rest = &text[text.find("\"sha1\"")? + 6..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let sha = &rest[..rest.find('"')?];
    is_commit(sha).then(|| sha.to_owned())
}

fn git(manifest: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(manifest)
        .args(args)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    Some(text.trim().to_owned())
}

/// `git rev-parse HEAD` when `manifest` is the top level of a git checkout (not a crate
/// unpacked somewhere inside an unrelated repository); reruns when HEAD or its branch moves.
fn from_git(manifest: &Path) -> Option<String> {
    let top = git(manifest, &["rev-parse", "--show-toplevel"])?;
    let same = std::fs::canonicalize(&top).ok()? == std::fs::canonicalize(manifest).ok()?;
    if !same {
        return None;
    }
    for path in [
        Some("HEAD".to_owned()),
        git(manifest, &["symbolic-ref", "-q", "HEAD"]),
    ]
    .into_iter()
    .flatten()
    {
        if let Some(p) = git(manifest, &["rev-parse", "--git-path", &path]) {
            let p = if Path::new(&p).is_absolute() {
                PathBuf::from(p)
            } else {
                manifest.join(p)
            };
            watch(&p);
        }
    }
    if let Some(p) = git(manifest, &["rev-parse", "--git-path", "packed-refs"]) {
        let p = if Path::new(&p).is_absolute() {
            PathBuf::from(p)
        } else {
            manifest.join(p)
        };
        watch(&p);
    }
    let sha = git(manifest, &["rev-parse", "HEAD"])?;
    is_commit(&sha).then_some(sha)
}

/// Reruns the build script when `path` changes; a path that does not exist is not named
/// (cargo would then rerun it on every build).
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo::rerun-if-changed={}", path.display());
    }
}
