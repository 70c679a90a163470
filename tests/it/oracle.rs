//! The shell as oracle: run a command in real bash in a sandbox and see whether it ran the
//! canary. The sandbox is a fresh temp dir, `env -i`, a PATH holding only `cat`, `true`
//! and `canary`, stdin from /dev/null, and a timeout.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where bash is, if anywhere.
pub fn bash_path() -> Option<PathBuf> {
    ["/bin/bash", "/usr/bin/bash"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// Where zsh is, if installed.
pub fn zsh_path() -> Option<PathBuf> {
    ["/bin/zsh", "/usr/bin/zsh"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

fn find_tool(name: &str) -> PathBuf {
    ["/bin", "/usr/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.exists())
        .unwrap_or_else(|| panic!("{name} not found"))
}

/// What a sandboxed run showed.
#[derive(Debug)]
pub struct Outcome {
    pub canary_ran: bool,
    /// The shell reported a syntax error (or similar) on stderr.
    pub syntax_error: bool,
    pub timed_out: bool,
}

/// A fresh directory with a `bin/` holding only the allowed commands.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let dir = tempfile::tempdir().expect("sandbox dir");
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).expect("bin dir");
        for tool in ["cat", "true"] {
            std::os::unix::fs::symlink(find_tool(tool), bin.join(tool)).expect("symlink");
        }
        let ran = dir.path().join("canary-ran");
        let script = format!("#!/bin/sh\necho ran >> '{}'\n", ran.display());
        let canary = bin.join("canary");
        std::fs::write(&canary, script).expect("canary");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&canary, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        std::fs::create_dir(dir.path().join("work")).expect("work dir");
        Sandbox { dir }
    }

    /// Runs `command` with `shell -c`.
    pub fn run(&self, shell: &Path, command: &str) -> Outcome {
        let ran = self.dir.path().join("canary-ran");
        let _ = std::fs::remove_file(&ran);
        let mut child = Command::new(shell)
            .arg("-c")
            .arg(command)
            .env_clear()
            .env("PATH", self.dir.path().join("bin"))
            .env("HOME", self.dir.path().join("work"))
            .current_dir(self.dir.path().join("work"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn shell");
        let start = Instant::now();
        let mut timed_out = false;
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if start.elapsed() > Duration::from_secs(5) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    timed_out = true;
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => break,
            }
        }
        let mut stderr = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read;
            let _ = e.read_to_string(&mut stderr);
        }
        Outcome {
            canary_ran: ran.exists(),
            syntax_error: stderr.contains("syntax error")
                || stderr.contains("parse error")
                || stderr.contains("bad substitution")
                || stderr.contains("unexpected EOF")
                || stderr.contains("here-document"),
            timed_out,
        }
    }
}

#[test]
fn sandbox_sees_a_canary_that_runs_and_one_that_does_not() {
    let bash = bash_path().expect("bash");
    let sb = Sandbox::new();
    assert!(sb.run(&bash, "canary").canary_ran);
    assert!(!sb.run(&bash, "true").canary_ran);
    assert!(!sb.run(&bash, "echo canary").canary_ran);
}
