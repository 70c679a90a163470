//! Differential fuzzing: mutated heredoc commands through the guard and through the real
//! shells. When the guard allows a command that holds the word `canary`, every shell runs
//! it in a sandbox: as written; with each bare heredoc delimiter quoted (`<<EOF` ->
//! `<<'EOF'`); and with every line this test's own crude scan takes for a heredoc body
//! blanked. A shell that runs the canary only when the delimiter is unquoted has expanded
//! a body the guard let through; one that runs it only while the body lines are there has
//! run body text, as a substitution or as code, whatever the quoting: either is a bypass,
//! and a crash. The decision is the shells' alone; the guard's reading is never consulted.
//!
//! Shells: `../shared/shells/bash-*` (3.2, 4.4, 5.1, 5.2, 5.3), bash 5.2 with extglob,
//! and zsh when installed. Each runs with `env -i`, a PATH holding only `cat`, `true` and
//! `canary`, a fresh working directory, a 2 s limit, and, when the fuzzer runs as root,
//! as user nobody.
#![no_main]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

struct Oracle {
    name: String,
    argv: Vec<String>,
}

struct Sandbox {
    dir: PathBuf,
    shells: Vec<Oracle>,
    as_nobody: bool,
}

fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("heredoc-guard-difffuzz-{}", std::process::id()));
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).expect("sandbox dir");
        for tool in ["cat", "true"] {
            let _ = std::os::unix::fs::symlink(Path::new("/bin").join(tool), bin.join(tool));
        }
        let canary = bin.join("canary");
        std::fs::write(
            &canary,
            format!("#!/bin/sh\necho ran >> {}/ran\n", dir.display()),
        )
        .expect("canary");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&canary, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).expect("chmod");
        let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/shells");
        let mut shells = Vec::new();
        for v in heredoc_guard::reader::Shell::ALL
            .into_iter()
            .filter_map(heredoc_guard::reader::Shell::bash_version)
        {
            let p = shared.join(format!("bash-{v}"));
            if p.exists() {
                shells.push(Oracle {
                    name: format!("bash-{v}"),
                    argv: vec![p.display().to_string()],
                });
            }
        }
        let p52 = shared.join("bash-5.2");
        if p52.exists() {
            shells.push(Oracle {
                name: "bash-5.2+extglob".into(),
                argv: vec![p52.display().to_string(), "-O".into(), "extglob".into()],
            });
            // As Claude Code runs it.
            shells.push(Oracle {
                name: "bash-5.2+aliases".into(),
                argv: vec![
                    p52.display().to_string(),
                    "-O".into(),
                    "expand_aliases".into(),
                ],
            });
        }
        for zsh in ["/usr/bin/zsh", "/bin/zsh"] {
            if Path::new(zsh).exists() {
                shells.push(Oracle {
                    name: "zsh".into(),
                    argv: vec![zsh.into()],
                });
                break;
            }
        }
        if shells.is_empty() {
            shells.push(Oracle {
                name: "bash".into(),
                argv: vec!["/bin/bash".into()],
            });
        }
        // Running as root (uid 0 in /proc/self/status): the shells then run as nobody.
        let as_nobody = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("Uid:"))
                    .map(|l| l.split_whitespace().nth(1) == Some("0"))
            })
            .unwrap_or(false);
        eprintln!(
            "differential fuzz: shells {}",
            shells
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        Sandbox {
            dir,
            shells,
            as_nobody,
        }
    })
}

/// Whether `shell` runs the canary when it runs `command`.
fn canary_runs(sb: &Sandbox, shell: &Oracle, command: &str) -> bool {
    let ran = sb.dir.join("ran");
    let work = sb.dir.join("work");
    let _ = std::fs::remove_file(&ran);
    let _ = std::fs::remove_dir_all(&work);
    if std::fs::create_dir(&work).is_err() {
        return false;
    }
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(&work, std::fs::Permissions::from_mode(0o777));
    let mut argv: Vec<String> = vec!["-s".into(), "KILL".into(), "2".into()];
    if sb.as_nobody {
        argv.extend(
            [
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--",
            ]
            .map(String::from),
        );
    }
    argv.extend(shell.argv.iter().cloned());
    let status = Command::new("/usr/bin/timeout")
        .args(&argv)
        .arg("-c")
        .arg(command)
        .env_clear()
        .env("PATH", sb.dir.join("bin"))
        .env("HOME", &work)
        .current_dir(&work)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    status.is_ok() && ran.exists()
}

/// The command with every bare-word delimiter quoted: `<<EOF` / `<<-EOF` / `<< EOF`
/// become `<<'EOF'`. A crude text edit of the test's own, not the guard's reading.
fn quote_delimiters(command: &str) -> String {
    let b = command.as_bytes();
    let mut out = Vec::with_capacity(b.len() + 16);
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'<'
            && b.get(i + 1) == Some(&b'<')
            && b.get(i + 2) != Some(&b'<')
            && (i == 0 || b[i - 1] != b'<')
        {
            let mut j = i + 2;
            if b.get(j) == Some(&b'-') {
                j += 1;
            }
            while matches!(b.get(j), Some(b' ' | b'\t')) {
                j += 1;
            }
            let start = j;
            while b
                .get(j)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            {
                j += 1;
            }
            out.extend_from_slice(&b[i..start]);
            if j > start {
                out.push(b'\'');
                out.extend_from_slice(&b[start..j]);
                out.push(b'\'');
            }
            i = j;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The command with every line a plain reading takes for a heredoc body blanked: after a
/// line holding `<<WORD` outside quotes and comments, the lines up to the one that is the
/// word (quotes removed; leading tabs stripped for `<<-`). A crude text edit of the test's
/// own, not the guard's reading.
fn blank_bodies(command: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut pending: Vec<(String, bool)> = Vec::new();
    for line in command.split('\n') {
        if let Some((word, tabs)) = pending.first().cloned() {
            let check = if tabs {
                line.trim_start_matches('\t')
            } else {
                line
            };
            if check == word {
                pending.remove(0);
                out.push(line.to_owned());
            } else {
                out.push(String::new());
            }
            continue;
        }
        pending.extend(operators(line));
        out.push(line.to_owned());
    }
    out.join("\n")
}

/// The heredoc operators of one line outside quotes and comments: each delimiter with its
/// quotes and backslashes removed, and whether it is `<<-`.
fn operators(line: &str) -> Vec<(String, bool)> {
    let b = line.as_bytes();
    let mut found = Vec::new();
    let mut quote = 0u8;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match (quote, c) {
            (0, b'#') if i == 0 || b[i - 1].is_ascii_whitespace() => break,
            (0, b'\'') | (0, b'"') => quote = c,
            (q, _) if q != 0 && c == q => quote = 0,
            (0 | b'"', b'\\') => i += 1,
            (0, b'<') if b.get(i + 1) == Some(&b'<') && b.get(i + 2) != Some(&b'<') => {
                let mut j = i + 2;
                let tabs = b.get(j) == Some(&b'-');
                if tabs {
                    j += 1;
                }
                while matches!(b.get(j), Some(b' ' | b'\t')) {
                    j += 1;
                }
                let mut word = String::new();
                while let Some(&w) = b.get(j) {
                    if w.is_ascii_whitespace() || b";&|<>()".contains(&w) {
                        break;
                    }
                    if !matches!(w, b'\'' | b'"' | b'\\') {
                        word.push(w as char);
                    }
                    j += 1;
                }
                if !word.is_empty() {
                    found.push((word, tabs));
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

fuzz_target!(|data: &[u8]| {
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    let Ok(command) = std::str::from_utf8(data) else {
        return;
    };
    if !command.contains("canary") || !command.contains("<<") || command.contains('\0') {
        return;
    }
    if !heredoc_guard::check_command(command).is_allow() {
        return;
    }
    let sb = sandbox();
    let quoted = quote_delimiters(command);
    let blanked = blank_bodies(command);
    for shell in &sb.shells {
        if !canary_runs(sb, shell, command) {
            continue;
        }
        if !canary_runs(sb, shell, &quoted) {
            eprintln!(
                "BYPASS: {} runs the canary from a heredoc body the guard allowed (only while its delimiter is unquoted):\n{command}",
                shell.name
            );
            std::process::abort();
        }
        if blanked != command && !canary_runs(sb, shell, &blanked) {
            eprintln!(
                "BYPASS: {} runs the canary from heredoc body text the guard allowed (only while the body lines are there):\n{command}",
                shell.name
            );
            std::process::abort();
        }
    }
});
