//! Small helpers: run the guard on bytes, build agent events, check allow/deny output.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What one run of the guard gave back.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Path of the built binary.
pub fn guard_path() -> &'static str {
    env!("CARGO_BIN_EXE_heredoc-guard")
}

/// Runs `command` with `stdin` piped in, and collects what it gave back.
pub fn run_command(mut command: Command, stdin: &[u8]) -> Run {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A binary another test just wrote can be briefly "busy" (ETXTBSY) while a process
    // forked meanwhile still holds its write descriptor: retry for a moment.
    let mut tries = 0;
    let mut child = loop {
        match command.spawn() {
            Err(e) if e.raw_os_error() == Some(26) && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => break other.expect("spawn"),
        }
    };
    let mut pipe = child.stdin.take().expect("stdin pipe");
    let input = stdin.to_vec();
    // Write from a thread: a large event must not dead-lock against a full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("stdin writer");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs the guard with `args`, `stdin` and the ledger at `ledger`.
pub fn run_with(args: &[&str], stdin: &[u8], ledger: &Path) -> Run {
    let mut command = Command::new(guard_path());
    command.args(args).env("HEREDOC_GUARD_LEDGER", ledger);
    run_command(command, stdin)
}

/// Runs the guard in hook mode on `stdin` with extra environment: `(name, Some(value))`
/// sets a variable, `(name, None)` removes it.
pub fn run_env(stdin: &[u8], env: &[(&str, Option<&str>)]) -> Run {
    let mut command = Command::new(guard_path());
    for (name, value) in env {
        match value {
            Some(v) => command.env(name, v),
            None => command.env_remove(name),
        };
    }
    run_command(command, stdin)
}

/// Runs the guard in hook mode on `stdin`.
pub fn run(stdin: &[u8], ledger: &Path) -> Run {
    run_with(&[], stdin, ledger)
}

/// A Claude Code PreToolUse event for a Bash command.
pub fn claude_event(command: &str) -> Vec<u8> {
    serde_json::json!({
        "session_id": "abc123",
        "transcript_path": "/home/u/.claude/projects/x/t.jsonl",
        "cwd": "/home/u/project",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run it", "timeout": 120000},
        "tool_use_id": "toolu_01"
    })
    .to_string()
    .into_bytes()
}

/// A Codex PreToolUse event for a Bash command.
pub fn codex_event(command: &str) -> Vec<u8> {
    serde_json::json!({
        "session_id": "s-1",
        "turn_id": "t-1",
        "transcript_path": null,
        "cwd": "/home/u/project",
        "hook_event_name": "PreToolUse",
        "model": "gpt-5-codex",
        "permission_mode": "default",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "call_1"
    })
    .to_string()
    .into_bytes()
}

/// Checks an allow: exit 0 and nothing at all printed. Returns a problem, if any.
pub fn allow_problem(run: &Run) -> Option<String> {
    if run.code == Some(0) && run.stdout.is_empty() && run.stderr.is_empty() {
        None
    } else {
        Some(format!("expected a silent allow, got {run:?}"))
    }
}

/// Checks a deny: exit 2, the reason on stderr, and exactly one JSON line on stdout with
/// exactly the three fields, the same reason. Returns the reason or a problem.
pub fn deny_reason(run: &Run) -> Result<String, String> {
    if run.code != Some(2) {
        return Err(format!("expected exit 2, got {run:?}"));
    }
    let line = run
        .stdout
        .strip_suffix('\n')
        .filter(|l| !l.contains('\n'))
        .ok_or_else(|| format!("stdout is not one line: {:?}", run.stdout))?;
    let v: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("stdout not JSON: {e}"))?;
    let top = v.as_object().ok_or("stdout not an object")?;
    if top.len() != 1 {
        return Err(format!("extra top-level fields: {line}"));
    }
    let inner = top
        .get("hookSpecificOutput")
        .and_then(|h| h.as_object())
        .ok_or("no hookSpecificOutput")?;
    let mut keys: Vec<&str> = inner.keys().map(String::as_str).collect();
    keys.sort_unstable();
    if keys
        != [
            "hookEventName",
            "permissionDecision",
            "permissionDecisionReason",
        ]
    {
        return Err(format!("wrong fields: {keys:?}"));
    }
    if inner["hookEventName"] != "PreToolUse" || inner["permissionDecision"] != "deny" {
        return Err(format!("wrong values: {line}"));
    }
    let reason = inner["permissionDecisionReason"]
        .as_str()
        .ok_or("reason not a string")?
        .to_owned();
    if reason.trim().is_empty() {
        return Err("empty reason".to_owned());
    }
    let stderr_first = run.stderr.lines().next().unwrap_or("");
    if stderr_first != reason {
        return Err(format!(
            "stderr {stderr_first:?} differs from reason {reason:?}"
        ));
    }
    Ok(reason)
}

/// The `rule` of the last ledger line.
pub fn last_ledger_rule(ledger: &Path) -> Option<String> {
    let text = std::fs::read_to_string(ledger).ok()?;
    let last = text.lines().last()?;
    let v: serde_json::Value = serde_json::from_str(last).ok()?;
    v.get("rule")?.as_str().map(str::to_owned)
}

/// Puts the built guard at `path` without opening a file for writing where possible (a
/// hard link), so that no process forked meanwhile holds a write descriptor that would make
/// executing it fail with ETXTBSY. Replace it only by removing it first.
pub fn place_guard(path: &Path) {
    if std::fs::hard_link(guard_path(), path).is_err() {
        std::fs::copy(guard_path(), path).expect("copy the guard");
    }
}

/// The launcher line install writes, for the binary `quoted` (already quoted for sh, as
/// `'/abs/path'`), written out here as docs/install.md shows it: not taken from the code.
pub fn launcher(quoted: &str) -> String {
    format!(
        "{}{}{}{quoted}",
        r#"sh -c 'if case $0 in */*) [ -f "$0" ] && [ -x "$0" ];; *) command -v "$0" >/dev/null 2>&1;; esac; then "$0"; rc=$?; else rc=127; fi; if [ "$rc" -eq 0 ] || [ "$rc" -eq 2 ]; then exit "$rc"; fi; if [ "$rc" -eq 126 ] || [ "$rc" -eq 127 ]; then case $0 in */*) w="$0 does not exist or is not executable";; *) w="$0 was not found on PATH";; esac; echo "heredoc-guard is missing: $w, so every shell command is blocked. "#,
        r#"Install it (npm install -g heredoc-guard, or cargo install --locked heredoc-guard; see https://github.com/heredoc-guard/heredoc-guard), or remove its hook: the heredoc-guard entry under hooks.PreToolUse in ~/.claude/settings.json, .claude/settings.local.json, .claude/settings.json or ~/.codex/hooks.json, or for the Claude Code plugin: claude plugin disable heredoc-guard" >&2; "#,
        r#"else echo "heredoc-guard: the guard failed (exit status $rc); denying the command" >&2; fi; exit 2' "#
    )
}

/// The rule of the last record in `ledger`, or a problem.
pub fn ledger_rule(ledger: &Path) -> String {
    last_ledger_rule(ledger).unwrap_or_else(|| format!("no ledger record in {}", ledger.display()))
}

/// The reason of a command's deny by the limit named `which` (`"reading work"`), checked
/// without the clock ([`heredoc_guard::check_command_without_clock`]: a slower machine
/// must not turn the work budget this pins into the time limit): fails the test when the
/// command is allowed, denied by a rule, or by another limit.
pub fn work_limit_reason(command: &str, which: &str) -> String {
    let denial = heredoc_guard::check_command_without_clock(command)
        .into_denial()
        .unwrap_or_else(|| panic!("allowed, not denied by the {which} limit"));
    assert_eq!(denial.rule.id(), "inspection-limit", "{}", denial.reason);
    assert!(
        denial
            .reason
            .starts_with(&format!("inspection limit: {which}")),
        "{}",
        denial.reason
    );
    denial.reason
}

/// A throwaway HOME for the guard process (the real HOME is never read), with a
/// `project/` directory its events run in.
pub struct GuardHome {
    pub dir: tempfile::TempDir,
}

impl GuardHome {
    /// Nothing installed.
    pub fn bare() -> GuardHome {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        GuardHome { dir }
    }

    /// The user-level hooks as `install claude` and `install codex` write them, running
    /// the built guard inside the launcher (written out here, as docs/install.md shows it),
    /// and Codex's trust entry for its hook in `~/.codex/config.toml`.
    pub fn guarded() -> GuardHome {
        let home = GuardHome::bare();
        let quoted = format!("'{}'", guard_path());
        let hooks = |matcher: &str| {
            serde_json::json!({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [
                {"type": "command", "command": launcher(&quoted), "timeout": 30, "onFailure": "block"}]}]}})
            .to_string()
        };
        home.write(
            ".claude/settings.json",
            &hooks("Bash|Monitor|mcp__workspace__bash"),
        );
        home.write(".codex/hooks.json", &hooks("^Bash$"));
        home.write(
            ".codex/config.toml",
            &format!(
                "[hooks.state.\"{}/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:0\"\n",
                home.path().display()
            ),
        );
        home
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn project(&self) -> std::path::PathBuf {
        self.path().join("project")
    }

    /// Writes `text` to `rel` in this HOME, creating its directories.
    pub fn write(&self, rel: &str, text: &str) {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().expect("a parent")).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// [`claude_event`], run in this HOME's project.
    pub fn claude_event(&self, command: &str) -> Vec<u8> {
        self.event(claude_event(command))
    }

    /// [`codex_event`], run in this HOME's project.
    pub fn codex_event(&self, command: &str) -> Vec<u8> {
        self.event(codex_event(command))
    }

    fn event(&self, event: Vec<u8>) -> Vec<u8> {
        let mut v: serde_json::Value = serde_json::from_slice(&event).expect("event");
        v["cwd"] = serde_json::Value::from(self.project().to_string_lossy().into_owned());
        v.to_string().into_bytes()
    }

    /// Runs the guard in hook mode on `stdin` with HOME here (and none of the agents'
    /// home variables), the ledger at `ledger`.
    pub fn run(&self, stdin: &[u8], ledger: &Path) -> Run {
        let mut command = Command::new(guard_path());
        command
            .env("HOME", self.path())
            .env("HEREDOC_GUARD_LEDGER", ledger)
            .current_dir(self.project());
        for var in [
            "CLAUDE_CONFIG_DIR",
            "CODEX_HOME",
            "GEMINI_CLI_HOME",
            "COPILOT_HOME",
        ] {
            command.env_remove(var);
        }
        run_command(command, stdin)
    }
}
