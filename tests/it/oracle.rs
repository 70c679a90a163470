//! The shells are the oracle: run a command in real shells, each in a sandbox, and see
//! whether it ran the canary. The sandbox is a fresh temp dir, `env -i`, a PATH holding
//! only `cat`, `true` and `canary`, stdin from /dev/null, and a timeout. Nothing here asks
//! the guard anything.
//!
//! The shells: bash 3.2, 4.4, 5.1, 5.2 and 5.3 from `../shared/shells/` (CI has them;
//! `HEREDOC_GUARD_SHELLS_DIR` points elsewhere), the system's bash, bash 5.2 with `extglob`,
//! with `expand_aliases` (as Claude Code runs it) and with the history list on, and zsh.
//! With `CI=true` or `HEREDOC_GUARD_REQUIRE_SHELLS=1` a missing one fails the run;
//! otherwise the suites use what they find, and say which (and what they skipped) on the
//! terminal, outside libtest's capture.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Words the generator writes only in heredoc bodies (tests/it/generator.rs). Each is a
/// command in the sandbox that runs the canary: a shell that runs one of them as a command
/// ran heredoc text, even where it did not run the word `canary`.
pub const BODY_ONLY_WORDS: [&str; 17] = [
    "plain", "text", "hash", "ends", "off", "50%", "a", "b", "c", "x", "EOF", "END-X", "_1", "EOS",
    "Z9", "E.O", "it's",
];

/// One shell the oracle runs commands in.
#[derive(Clone, Debug)]
pub struct Oracle {
    pub name: String,
    pub path: PathBuf,
    /// Extra arguments before `-c`.
    pub args: Vec<&'static str>,
    /// A line run before the command (a setting the shell has before it reads it).
    pub prefix: &'static str,
}

fn find(candidates: &[&str]) -> Option<PathBuf> {
    candidates.iter().map(PathBuf::from).find(|p| p.exists())
}

/// Where bash is, if anywhere (the system's).
pub fn bash_path() -> Option<PathBuf> {
    find(&["/bin/bash", "/usr/bin/bash"])
}

/// Whether every pinned shell must be there (CI).
pub fn shells_required() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
        || std::env::var("HEREDOC_GUARD_REQUIRE_SHELLS").as_deref() == Ok("1")
}

/// Writes a line for the person running the tests: straight to the terminal's stderr,
/// which libtest does not capture (it captures `print!` and `eprint!` only).
pub fn tell(line: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(format!("{line}\n").as_bytes());
}

/// The pinned shells not found here (empty when all are).
pub fn missing_shells() -> &'static [String] {
    shells();
    MISSING.get().map_or(&[], Vec::as_slice)
}

static MISSING: OnceLock<Vec<String>> = OnceLock::new();

/// Every shell the oracle can use here; with [`shells_required`], all of them or a panic.
pub fn shells() -> &'static [Oracle] {
    static SHELLS: OnceLock<Vec<Oracle>> = OnceLock::new();
    SHELLS.get_or_init(|| {
        let shared = std::env::var_os("HEREDOC_GUARD_SHELLS_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/shells"));
        let mut out = Vec::new();
        let mut missing = Vec::new();
        for v in heredoc_guard::reader::Shell::ALL
            .into_iter()
            .filter_map(heredoc_guard::reader::Shell::bash_version)
        {
            let p = shared.join(format!("bash-{v}"));
            if p.exists() {
                out.push(Oracle {
                    name: format!("bash-{v}"),
                    path: p.clone(),
                    args: vec![],
                    prefix: "",
                });
                if v == "5.2" {
                    out.push(Oracle {
                        name: "bash-5.2+extglob".to_owned(),
                        path: p.clone(),
                        args: vec!["-O", "extglob"],
                        prefix: "",
                    });
                    // As Claude Code runs it: its shell snapshot turns alias expansion on.
                    out.push(Oracle {
                        name: "bash-5.2+aliases".to_owned(),
                        path: p.clone(),
                        args: vec!["-O", "expand_aliases"],
                        prefix: "",
                    });
                    // With the history list on (as an interactive shell has it), so that
                    // `fc` and `history` can replay what the command holds.
                    out.push(Oracle {
                        name: "bash-5.2+history".to_owned(),
                        path: p,
                        args: vec![],
                        prefix: "set -o history\n",
                    });
                }
            } else {
                missing.push(format!("bash-{v} ({})", p.display()));
            }
        }
        match bash_path() {
            Some(p) => out.push(Oracle {
                name: "system bash".to_owned(),
                path: p,
                args: vec![],
                prefix: "",
            }),
            None => missing.push("system bash (/bin/bash)".to_owned()),
        }
        match find(&["/usr/bin/zsh", "/bin/zsh"]) {
            Some(p) => out.push(Oracle {
                name: "zsh".to_owned(),
                path: p,
                args: vec![],
                prefix: "",
            }),
            None => missing.push("zsh".to_owned()),
        }
        if !missing.is_empty() && shells_required() {
            panic!(
                "every pinned shell is required here (CI=true or HEREDOC_GUARD_REQUIRE_SHELLS=1) and these are missing: {}",
                missing.join(", ")
            );
        }
        tell(&format!(
            "oracle shells: {}{}",
            out.iter()
                .map(|o| o.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            if missing.is_empty() {
                String::new()
            } else {
                format!(
                    "; not found here, so not judged by: {} (CI has them; see CONTRIBUTING.md, Tests)",
                    missing.join(", ")
                )
            }
        ));
        let _ = MISSING.set(missing);
        out
    })
}

fn find_tool(name: &str) -> PathBuf {
    ["/bin", "/usr/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("{name} not found"))
}

/// What a sandboxed run showed.
#[derive(Debug, Clone, Copy)]
pub struct Outcome {
    pub canary_ran: bool,
    /// The shell reported a syntax error (or similar) on stderr.
    pub syntax_error: bool,
    pub timed_out: bool,
}

/// The locales whose characters may end in a `\\` byte (GBK, Big5, GB18030), built once
/// with `localedef` under the tests' temp dir: where a command switches to one, bash reads
/// `中\\` as one character. `None` where `localedef` or the charmaps are missing (the
/// `locales` package; CI installs it).
pub fn locales() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("locales");
        std::fs::create_dir_all(&dir).ok()?;
        for (name, input, charmap) in [
            ("zh_CN.GBK", "zh_CN", "GBK"),
            ("zh_TW.BIG5", "zh_TW", "BIG5"),
            ("zh_CN.GB18030", "zh_CN", "GB18030"),
        ] {
            let out = dir.join(name);
            if out.join("LC_CTYPE").exists() {
                continue;
            }
            let built = Command::new("localedef")
                .args(["-i", input, "-f", charmap])
                .arg(&out)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !built {
                return None;
            }
        }
        Some(dir)
    })
    .as_deref()
}

/// A fresh directory with a `bin/` holding only the allowed commands.
pub struct Sandbox {
    dir: tempfile::TempDir,
    /// `LOCPATH` for the shells ([`locales`]): the only locales they then find are those.
    locpath: Option<PathBuf>,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let dir = tempfile::tempdir().expect("sandbox dir");
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).expect("bin dir");
        std::os::unix::fs::symlink(find_tool("true"), bin.join("true")).expect("symlink");
        std::os::unix::fs::symlink(find_tool("cat"), bin.join("cat")).expect("symlink");
        let ran = dir.path().join("canary-ran");
        let script = format!("#!/bin/sh\necho ran >> '{}'\n", ran.display());
        // Heredoc text that only becomes arguments of a command the author wrote (bash 3.2
        // ending `$(…)` at a body's `)`) runs nothing: a run is a word run as a command.
        use std::os::unix::fs::PermissionsExt;
        for name in std::iter::once("canary").chain(BODY_ONLY_WORDS) {
            let path = bin.join(name);
            std::fs::write(&path, &script).expect("canary");
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        std::fs::create_dir(dir.path().join("work")).expect("work dir");
        Sandbox { dir, locpath: None }
    }

    /// A sandbox whose shells find the locales in `dir` ([`locales`]).
    pub fn with_locales(dir: &Path) -> Sandbox {
        Sandbox {
            locpath: Some(dir.to_path_buf()),
            ..Sandbox::new()
        }
    }

    /// Runs `command` with `shell -c`.
    pub fn run(&self, shell: &Oracle, command: &str) -> Outcome {
        let ran = self.dir.path().join("canary-ran");
        let _ = std::fs::remove_file(&ran);
        let work = self.dir.path().join("work");
        let mut cmd = Command::new(&shell.path);
        cmd.args(&shell.args)
            .arg("-c")
            .arg(format!("{}{command}", shell.prefix))
            .env_clear()
            .env("PATH", self.dir.path().join("bin"))
            .env("HOME", &work);
        if let Some(l) = &self.locpath {
            cmd.env("LOCPATH", l);
        }
        let mut child = cmd
            .current_dir(&work)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            // A group of its own: what it leaves running (a coprocess, a background job)
            // is ended with it, or its standard error would never close.
            .process_group(0)
            .spawn()
            .expect("spawn shell");
        let group = nix::unistd::Pid::from_raw(child.id() as i32);
        let start = Instant::now();
        let mut timed_out = false;
        // Most runs end within a few milliseconds: look often at first (a fixed 1 ms nap
        // left the two workers idle half the time), then every millisecond.
        let mut nap = Duration::from_micros(50);
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if start.elapsed() > Duration::from_secs(5) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    timed_out = true;
                    break;
                }
                Ok(None) => {
                    std::thread::sleep(nap);
                    nap = (nap * 2).min(Duration::from_millis(1));
                }
                Err(_) => break,
            }
        }
        // What it started in the background (a process substitution, a coprocess) may
        // still run the canary: it gets the rest of the time (its standard error closes
        // when it ends), then the group is ended.
        let (tx, rx) = std::sync::mpsc::channel();
        if let Some(mut e) = child.stderr.take() {
            std::thread::spawn(move || {
                use std::io::Read;
                let mut text = String::new();
                let _ = e.read_to_string(&mut text);
                let _ = tx.send(text);
            });
        } else {
            let _ = tx.send(String::new());
        }
        let left = Duration::from_secs(5).saturating_sub(start.elapsed());
        let stderr = match rx.recv_timeout(left) {
            Ok(text) => text,
            Err(_) => {
                timed_out = true;
                let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
                rx.recv_timeout(Duration::from_secs(5)).unwrap_or_default()
            }
        };
        let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
        // Whatever the commands wrote in the work dir goes, for the next run.
        if let Ok(entries) = std::fs::read_dir(&work) {
            for e in entries.flatten() {
                let _ = std::fs::remove_file(e.path());
            }
        }
        Outcome {
            canary_ran: ran.exists(),
            syntax_error: stderr.contains("syntax error")
                || stderr.contains("parse error")
                || stderr.contains("unexpected EOF")
                || stderr.contains("unexpected end of file")
                || stderr.contains("bad substitution")
                || stderr.contains("unmatched"),
            timed_out,
        }
    }
}

#[test]
fn sandbox_sees_a_canary_that_runs_and_one_that_does_not_in_every_shell() {
    let sb = Sandbox::new();
    for shell in shells() {
        assert!(sb.run(shell, "canary").canary_ran, "{}", shell.name);
        assert!(!sb.run(shell, "true").canary_ran, "{}", shell.name);
        assert!(!sb.run(shell, "echo canary").canary_ran, "{}", shell.name);
        assert!(sb.run(shell, "plain text").canary_ran, "{}", shell.name);
        assert!(
            !sb.run(shell, "no-such-command").canary_ran,
            "{}",
            shell.name
        );
        assert!(
            !sb.run(shell, "cat /dev/null plain").canary_ran,
            "{}",
            shell.name
        );
        assert!(!sb.run(shell, "cat /dev/null").canary_ran, "{}", shell.name);
    }
}
