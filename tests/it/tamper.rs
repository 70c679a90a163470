//! The `guard-tamper` rule through the built binary, as the agents call it, in throwaway
//! homes (the guard process's HOME; the real one is never read): with the user-level hooks
//! installed, what changes the guard, its binary or the files that hold its hook is denied
//! however the command is laid out, and reading them passes; with nothing installed, or
//! for a project's own settings, writing them is an ordinary task; a visible switch-off
//! written to settings is denied either way. (More cases: fixtures/self-protection.txt.)

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::{GuardHome, allow_problem, deny_reason, last_ledger_rule, run_command};

/// Checks that `command` is denied by `guard-tamper` in `home`, as both agents' events.
fn assert_denied(home: &GuardHome, command: &str) {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    for event in [home.claude_event(command), home.codex_event(command)] {
        let r = home.run(&event, &ledger);
        let reason = deny_reason(&r).unwrap_or_else(|e| panic!("{command}: {e}"));
        assert!(
            reason.contains("from a terminal") && reason.contains("heredoc-guard"),
            "{command}: {reason}"
        );
        assert_eq!(
            last_ledger_rule(&ledger).as_deref(),
            Some("guard-tamper"),
            "{command}"
        );
    }
}

fn assert_allowed(home: &GuardHome, command: &str) {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    for event in [home.claude_event(command), home.codex_event(command)] {
        let r = home.run(&event, &ledger);
        assert_eq!(allow_problem(&r), None, "{command}");
    }
}

/// Removing or rewriting the files that hold the hook, however the command is laid out:
/// routes a scanner of the text missed (a `<<` inside quotes, a comment or arithmetic hid
/// the lines after it), wrappers, nested shell text, code, paths as the shell spells them.
const DENIED_WHEN_GUARDED: [&str; 30] = [
    "echo \"<<X\"\nrm ~/.claude/settings.json\nX",
    "x=1 # <<E\nrm ~/.codex/hooks.json\nE",
    "echo $((1<<X))\nrm ~/.claude/settings.json\nX",
    "cat <<< hi\nrm ~/.claude/settings.json",
    "sudo -E rm ~/.claude/settings.json",
    "rm \"${HOME}/.claude/settings.json\"",
    "cd ~/.claude && rm settings.json",
    "cd .. && rm .claude/settings.json",
    "rm ~/.c*/hooks.json",
    "rm -rf ~/.codex",
    "mv ~/.claude ~/.claude.off",
    "bash -c -- 'rm ~/.claude/settings.json'",
    "eval eval eval rm ~/.claude/settings.json",
    "x=$(rm ~/.claude/settings.json)",
    "cat <<'EOF' | sh\nrm ~/.codex/hooks.json\nEOF",
    "exec -a x heredoc-guard uninstall claude",
    "heredoc-guard uninstall claude",
    "npm uninstall -g heredoc-guard",
    "claude plugin disable heredoc-guard@heredoc-guard",
    "codex features disable hooks",
    "jq 'del(.hooks)' ~/.claude/settings.json > /tmp/s && mv /tmp/s ~/.claude/settings.json",
    "echo '{}' > ~/.codex/hooks.json",
    "sed -i 's/heredoc-guard/true/' ~/.codex/hooks.json",
    "perl -pi -e 's/heredoc-guard/true/' ~/.claude/settings.json",
    "cp /tmp/settings.json ~/.claude/",
    "chmod 000 ~/.claude/settings.json",
    "sed -i '/hooks.state/d' ~/.codex/config.toml",
    "node -e \"require('fs').unlinkSync(require('os').homedir() + '/.codex/hooks.json')\"",
    "sudo rm /etc/claude-code/managed-settings.d/heredoc-guard.json",
    "echo x >> /etc/codex/requirements.toml",
];

/// Reading the files that hold the hook, and the guard's read-only commands.
const ALLOWED_WHEN_GUARDED: [&str; 10] = [
    "cat ~/.claude/settings.json",
    "jq .hooks ~/.codex/hooks.json",
    "grep -n heredoc-guard ~/.codex/hooks.json ~/.codex/config.toml",
    "cp ~/.claude/settings.json /tmp/backup.json",
    "python3 -c \"import json,os;print(json.load(open(os.path.expanduser('~/.claude/settings.json'))))\"",
    "heredoc-guard doctor",
    "heredoc-guard explain 'heredoc-guard uninstall claude'",
    "heredoc-guard log --since 1d",
    "echo heredoc-guard uninstall is how you remove it",
    "cat > notes.md <<'EOF'\nrm ~/.claude/settings.json\nheredoc-guard uninstall claude\nEOF",
];

#[test]
fn with_the_hook_installed_changing_the_guard_or_its_files_is_denied_however_laid_out() {
    let home = GuardHome::guarded();
    for command in DENIED_WHEN_GUARDED {
        assert_denied(&home, command);
    }
}

#[test]
fn with_the_hook_installed_reading_its_files_and_the_guard_s_read_only_commands_pass() {
    let home = GuardHome::guarded();
    for command in ALLOWED_WHEN_GUARDED {
        assert_allowed(&home, command);
    }
}

#[test]
fn with_nothing_installed_the_same_files_are_ordinary_files() {
    let home = GuardHome::bare();
    for command in [
        "rm ~/.claude/settings.json",
        "rm -rf ~/.codex",
        "echo '{}' > ~/.codex/hooks.json",
        "cat > ~/.claude/settings.json <<'EOF'\n{\"theme\": \"dark\"}\nEOF",
        "jq '.model = \"opus\"' ~/.claude/settings.json > /tmp/s && mv /tmp/s ~/.claude/settings.json",
        "sed -i 's/dark/light/' ~/.claude/settings.json",
        "python3 -c \"import json; json.dump({'model': 'opus'}, open('.claude/settings.json', 'w'))\"",
    ] {
        assert_allowed(&home, command);
    }
    // The guard's own CLI and a visible switch-off are denied whatever is installed: the
    // guard runs, so some install of it is in force.
    assert_denied(&home, "heredoc-guard uninstall claude");
    assert_denied(
        &home,
        "mkdir -p .claude && echo '{\"disableAllHooks\": true}' > .claude/settings.json",
    );
}

#[test]
fn a_project_install_protects_the_project_s_files_and_nothing_else() {
    let home = GuardHome::bare();
    let hook = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "heredoc-guard"}]}]}});
    home.write("project/.claude/settings.local.json", &hook.to_string());
    for command in [
        "rm .claude/settings.local.json",
        "git checkout -- .claude/settings.local.json",
        "rm -rf .claude",
        "cd .. && rm -rf project",
    ] {
        assert_denied(&home, command);
    }
    for command in [
        "cat > .claude/settings.json <<'EOF'\n{\"permissions\": {\"allow\": [\"Bash(npm test)\"]}}\nEOF",
        "rm -rf .claude/commands",
        "rm ~/.claude/settings.json",
    ] {
        assert_allowed(&home, command);
    }
}

#[test]
fn the_guard_s_binary_and_a_new_one_on_path_are_the_guard() {
    let home = GuardHome::guarded();
    let bin = home.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    crate::support::place_guard(&bin.join("heredoc-guard"));
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let run = |command: &str| {
        let mut c = std::process::Command::new(crate::support::guard_path());
        c.env("HOME", home.path())
            .env("PATH", &path)
            .env("HEREDOC_GUARD_LEDGER", &ledger);
        run_command(c, &home.claude_event(command))
    };
    for command in [
        "rm \"$(command -v heredoc-guard)\"",
        "rm $(which heredoc-guard)",
        "cp /bin/true ~/bin/heredoc-guard",
        "printf '#!/bin/sh\\nexit 0' > ~/bin/heredoc-guard",
        "rm -rf ~/bin",
        &format!("rm {}", crate::support::guard_path()),
    ] {
        let r = run(command);
        assert!(deny_reason(&r).is_ok(), "{command}: {r:?}");
        assert_eq!(last_ledger_rule(&ledger).as_deref(), Some("guard-tamper"));
    }
    for command in ["ls -l \"$(command -v heredoc-guard)\"", "rm -rf ~/bin2"] {
        assert_eq!(allow_problem(&run(command)), None, "{command}");
    }
}

#[test]
fn a_settings_file_symlinked_elsewhere_is_protected_through_its_target() {
    let home = GuardHome::bare();
    let hook =
        serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [{"command": "heredoc-guard"}]}]}});
    home.write("dotfiles/claude.json", &hook.to_string());
    std::fs::create_dir_all(home.path().join(".claude")).unwrap();
    std::os::unix::fs::symlink(
        home.path().join("dotfiles/claude.json"),
        home.path().join(".claude/settings.json"),
    )
    .unwrap();
    assert_denied(&home, "echo '{}' > ~/dotfiles/claude.json");
    assert_denied(&home, "rm -rf ~/dotfiles");
    assert_allowed(&home, "cat ~/dotfiles/claude.json");
}

/// The check reads the files a command names at check time, but never waits on one: a
/// FIFO (or a file too large to read) in a hook file's place counts as holding the hook,
/// and the verdict comes at once.
#[test]
fn a_fifo_in_place_of_the_settings_is_not_waited_on_and_counts_as_holding_the_hook() {
    let home = GuardHome::bare();
    std::fs::create_dir_all(home.path().join(".claude")).unwrap();
    let fifo = home.path().join(".claude/settings.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo");
    let started = Instant::now();
    assert_denied(&home, "echo '{}' > ~/.claude/settings.json");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(Path::new(&fifo).exists());
    home.write(".codex/hooks.json", &" ".repeat(1 << 20));
    assert_denied(&home, "rm ~/.codex/hooks.json");
}

#[test]
fn a_monitor_command_that_removes_the_hook_file_is_denied_too() {
    let home = GuardHome::guarded();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l.jsonl");
    let event = serde_json::json!({
        "session_id": "s", "transcript_path": "/t.jsonl", "cwd": home.project(),
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": "Monitor",
        "tool_input": {"command": "rm ~/.claude/settings.json; tail -f log", "description": "watch"},
        "tool_use_id": "toolu_1"
    })
    .to_string()
    .into_bytes();
    let r = home.run(&event, &ledger);
    assert!(deny_reason(&r).is_ok(), "{r:?}");
    assert_eq!(last_ledger_rule(&ledger).as_deref(), Some("guard-tamper"));
}

#[test]
fn explain_shows_the_same_verdict_and_rule() {
    let dir = tempfile::tempdir().unwrap();
    let r = crate::support::run_with(
        &["explain", "--json", "heredoc-guard uninstall claude"],
        b"",
        &dir.path().join("l"),
    );
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.stdout.contains("guard-tamper"), "{}", r.stdout);
}

/// The rule reads the reader's readings, so it reads within their limits: a command over
/// the command size, or holding more heredoc operators than the reader follows, is denied
/// as a limit; and a long line holding many heredocs (naming no file of the guard's) meets
/// the reading's work limit, not a limit of a check of its own.
#[test]
fn commands_naming_the_guard_beyond_the_limits_are_denied_as_limits() {
    use heredoc_guard::check_command;
    let huge = format!("rm ~/.claude/settings.json {}", "a".repeat(5 << 20));
    let reason = check_command(&huge).into_denial().expect("denied").reason;
    assert!(
        reason.starts_with("inspection limit: command size"),
        "{reason}"
    );

    let many = format!(
        "rm ~/.claude/settings.json {}\n{}",
        "cat <<E ".repeat(heredoc_guard::reader::MAX_HEREDOCS + 1),
        "E\n".repeat(heredoc_guard::reader::MAX_HEREDOCS + 1)
    );
    let reason = check_command(&many).into_denial().expect("denied").reason;
    assert!(
        reason.starts_with("inspection limit: number of heredocs"),
        "{reason}"
    );

    let long_line = format!(
        "echo settings {}{}\n{}",
        "x|".repeat(200_000),
        " cat <<E".repeat(999),
        "E\n".repeat(999)
    );
    crate::support::work_limit_reason(&long_line, "reading work");
}
