//! A throwaway HOME for the set-up commands: its own copy of the guard in `bin/`, PATH
//! holding only that and the system directories (no agent unless a test adds one), and a
//! `work/` directory to run in.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{Run, run_command};

pub struct Sandbox {
    pub dir: tempfile::TempDir,
    /// Extra directories put first on PATH.
    pub path_front: Vec<PathBuf>,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        crate::support::place_guard(&dir.path().join("bin/heredoc-guard"));
        Sandbox {
            dir,
            path_front: Vec::new(),
        }
    }

    pub fn home(&self) -> &Path {
        self.dir.path()
    }

    pub fn guard(&self) -> PathBuf {
        self.home().join("bin/heredoc-guard")
    }

    pub fn claude_settings(&self) -> PathBuf {
        self.home().join(".claude/settings.json")
    }

    pub fn codex_hooks(&self) -> PathBuf {
        self.home().join(".codex/hooks.json")
    }

    pub fn write(&self, relative: &str, text: &str) -> PathBuf {
        let p = self.home().join(relative);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Runs this sandbox's guard with `args` (HOME, PATH and cwd set; nothing else).
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, b"", &[])
    }

    pub fn run_with(&self, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Run {
        let mut dirs = self.path_front.clone();
        dirs.push(self.home().join("bin"));
        dirs.extend(["/usr/bin", "/bin"].map(PathBuf::from));
        let mut command = Command::new(self.guard());
        command
            .args(args)
            .env_clear()
            .env("HOME", self.home())
            .env("PATH", std::env::join_paths(dirs).unwrap())
            .env("SHELL", "/bin/sh")
            .current_dir(self.home().join("work"));
        for (k, v) in env {
            command.env(k, v);
        }
        run_command(command, stdin)
    }
}

pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}
