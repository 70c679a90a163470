//! Claude Code 2.1.328 with the hook `heredoc-guard install claude` wrote (the launcher
//! with `"onFailure": "block"`, matcher `Bash|Monitor|mcp__workspace__bash`); with
//! `install claude --project` (the personal settings.local.json); with the shared project
//! settings on a machine without heredoc-guard; and with the plugin alone, installed the
//! way `claude plugin install` installs it.

use serde_json::{Value, json};

use super::{
    FAULTS, Home, Isolated, MISSING, assert_recorded_from, ledger_rules, live_heredoc, make_faulty,
    quoted_heredoc_then_canary, reason_for,
};

/// A HOME where `heredoc-guard install claude ARGS` ran.
fn installed_with(args: &[&str]) -> Home {
    let home = Home::new();
    let mut all = vec!["install", "claude"];
    all.extend_from_slice(args);
    let r = home.guard_cmd(&all);
    assert_eq!(r.code, Some(0), "install claude: {r:?}");
    assert!(
        r.stdout.contains("Claude Code 2.1.328 (") && r.stdout.contains("it honours \"onFailure\""),
        "{}",
        r.stdout
    );
    home
}

/// A HOME where `heredoc-guard install claude` ran.
fn installed() -> Home {
    installed_with(&[])
}

/// `claude -p` in `home`, the mock answering with one call of `tool` with `input`.
pub(super) fn claude(home: &Home, tool: &str, input: Value) -> Isolated {
    claude_with(home, tool, input, &[], &[])
}

/// [`claude`] with more arguments and environment.
fn claude_with(
    home: &Home,
    tool: &str,
    input: Value,
    args: &[&str],
    env: &[(&str, &str)],
) -> Isolated {
    let scenario = json!({"tool": tool, "input": input, "final_text": "Done."});
    let mut all = vec![
        "claude",
        "-p",
        "Run the command.",
        "--dangerously-skip-permissions",
    ];
    all.extend_from_slice(args);
    let mut all_env = vec![
        ("ANTHROPIC_BASE_URL", "http://127.0.0.1:18080"),
        ("ANTHROPIC_API_KEY", "sk-ant-dummy"),
        ("IS_SANDBOX", "1"),
        ("DISABLE_AUTOUPDATER", "1"),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
    ];
    all_env.extend_from_slice(env);
    home.run_isolated(&all, &all_env, Some(&scenario))
}

pub(super) fn bash(command: &str) -> Value {
    json!({"command": command, "description": "run it"})
}

/// The client finished its turn: a second request (the tool's result) reached the mock.
pub(super) fn assert_turn_completed(run: &Isolated, what: &str) {
    assert!(
        run.requests.len() >= 2,
        "{what}: the client sent {} request(s); stdout {:?} stderr {:?}",
        run.requests.len(),
        run.run.stdout,
        run.run.stderr
    );
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn claude_never_runs_a_live_heredoc_and_the_model_reads_the_reason_and_the_ledger_records_it() {
    let home = installed();
    let command = live_heredoc(&home);
    let run = claude(&home, "Bash", bash(&command));
    assert_turn_completed(&run, "deny");
    assert!(!home.canary().exists(), "the denied command ran");
    let reason = reason_for(&command);
    let head: String = reason.chars().take(120).collect();
    assert!(
        run.strings_sent_back().iter().any(|s| s.contains(&head)),
        "the reason did not reach the model: {:?}",
        run.strings_sent_back()
    );
    assert_eq!(ledger_rules(&home), ["heredoc-command-substitution"]);
    assert_recorded_from(&home, "claude", "Bash");
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn claude_runs_a_quoted_heredoc_and_a_plain_command() {
    let home = installed();
    let run = claude(&home, "Bash", bash(&quoted_heredoc_then_canary(&home)));
    assert_turn_completed(&run, "quoted heredoc");
    assert!(
        home.canary().exists(),
        "the quoted heredoc did not run: {:?}",
        run.run
    );
    std::fs::remove_file(home.canary()).unwrap();
    let run = claude(
        &home,
        "Bash",
        bash(&format!("touch {}", home.canary().display())),
    );
    assert_turn_completed(&run, "plain command");
    assert!(
        home.canary().exists(),
        "the plain command did not run: {:?}",
        run.run
    );
    assert!(ledger_rules(&home).is_empty());
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn claude_blocks_a_monitor_call_whose_heredoc_would_run_code_and_runs_a_harmless_one() {
    let home = installed();
    let monitor = |c: &str| json!({"command": c, "description": "watch it", "timeout_ms": 20000});
    // Control: Monitor really runs commands here, so the deny below is not vacuous.
    let control = format!("touch {}; sleep 1", home.canary().display());
    let run = claude(&home, "Monitor", monitor(&control));
    assert_turn_completed(&run, "Monitor control");
    assert!(
        wait_for(&home.canary()),
        "Monitor ran nothing: {:?}",
        run.run
    );
    std::fs::remove_file(home.canary()).unwrap();
    let command = live_heredoc(&home);
    let run = claude(&home, "Monitor", monitor(&command));
    assert_turn_completed(&run, "Monitor deny");
    assert!(!wait_for(&home.canary()), "the denied Monitor command ran");
    let head: String = reason_for(&command).chars().take(120).collect();
    assert!(
        run.strings_sent_back().iter().any(|s| s.contains(&head)),
        "no reason sent back"
    );
    assert_eq!(ledger_rules(&home), ["heredoc-command-substitution"]);
    assert_recorded_from(&home, "claude", "Monitor");
}

/// Monitor runs its command in the background: give it a moment.
fn wait_for(path: &std::path::Path) -> bool {
    for _ in 0..30 {
        if path.exists() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    path.exists()
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn with_the_installed_claude_hook_every_fault_of_the_guard_and_a_timeout_block_the_command() {
    let home = installed();
    let plain = format!("touch {}", home.canary().display());
    let mut ran = Vec::new();
    for (fault, script) in FAULTS {
        make_faulty(&home, script);
        let run = claude(&home, "Bash", bash(&plain));
        assert_turn_completed(&run, fault);
        if home.canary().exists() {
            ran.push(fault);
            std::fs::remove_file(home.canary()).unwrap();
        }
        if script.is_none() {
            let said = format!("{MISSING}{} does not exist", home.guard().display());
            assert!(
                run.strings_sent_back().iter().any(|s| s.contains(&said)),
                "the model did not read what is missing: {:?}",
                run.strings_sent_back()
            );
        }
    }
    // A timeout: a guard that never answers, with the entry's timeout cut to 3 s.
    make_faulty(&home, Some("#!/bin/sh\nsleep 60\n"));
    let settings = home.path().join(".claude/settings.json");
    let text = std::fs::read_to_string(&settings).unwrap();
    assert!(text.contains("\"timeout\": 30"), "{text}");
    std::fs::write(&settings, text.replace("\"timeout\": 30", "\"timeout\": 3")).unwrap();
    let run = claude(&home, "Bash", bash(&plain));
    assert_turn_completed(&run, "timeout");
    if home.canary().exists() {
        ran.push("timeout");
    }
    assert!(
        ran.is_empty(),
        "the command ran despite these faults: {ran:?}"
    );
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn the_repository_plugin_passes_claude_plugin_validate() {
    let home = Home::new();
    let root = env!("CARGO_MANIFEST_DIR");
    let run = home.run_isolated(&["claude", "plugin", "validate", root], &[], None);
    assert_eq!(run.run.code, Some(0), "{:?}", run.run);
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{root}/hooks/hooks.json")).unwrap())
            .unwrap();
    let group = &hooks["hooks"]["PreToolUse"][0];
    assert_eq!(group["matcher"], "Bash|Monitor|mcp__workspace__bash");
    assert_eq!(group["hooks"][0]["onFailure"], "block");
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn install_project_writes_the_personal_settings_local_json_and_claude_runs_it() {
    let home = installed_with(&["--project"]);
    assert!(home.work().join(".claude/settings.local.json").exists());
    assert!(!home.work().join(".claude/settings.json").exists());
    assert!(!home.path().join(".claude/settings.json").exists());
    let command = live_heredoc(&home);
    let run = claude(&home, "Bash", bash(&command));
    assert_turn_completed(&run, "deny");
    assert!(!home.canary().exists(), "the denied command ran");
    assert_recorded_from(&home, "claude", "Bash");
    let r = home.guard_cmd(&["doctor", "claude"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn a_teammate_without_heredoc_guard_is_blocked_by_the_shared_settings_with_a_message_saying_what_to_do()
 {
    let home = Home::new();
    let r = home.guard_cmd(&["install", "claude", "--project", "--shared"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let shared = std::fs::read_to_string(home.work().join(".claude/settings.json")).unwrap();
    assert!(
        shared.contains("'heredoc-guard'"),
        "runs it from PATH: {shared}"
    );
    // With heredoc-guard on PATH (this HOME's bin/), a plain command runs.
    let plain = format!("touch {}", home.canary().display());
    let run = claude(&home, "Bash", bash(&plain));
    assert_turn_completed(&run, "with the binary");
    assert!(home.canary().exists(), "{:?}", run.run);
    std::fs::remove_file(home.canary()).unwrap();
    // A teammate's machine: no heredoc-guard anywhere on PATH.
    make_faulty(&home, None);
    let run = claude(&home, "Bash", bash(&plain));
    assert_turn_completed(&run, "without the binary");
    assert!(!home.canary().exists(), "the command ran without the guard");
    let sent = run.strings_sent_back();
    let said = format!("{MISSING}heredoc-guard was not found on PATH");
    assert!(
        sent.iter().any(|s| s.contains(&said)
            && s.contains("npm install -g heredoc-guard")
            && s.contains("claude plugin disable heredoc-guard")),
        "the model did not read what is missing and what to do: {sent:?}"
    );
}

/// The repository's plugin files (what `git ls-files` holds of them), copied into a folder
/// of their own: `claude plugin install` copies a local marketplace's whole folder.
fn plugin_source(home: &Home) -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = home.path().join("plugin-source");
    for file in [
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
        "hooks/hooks.json",
        "SKILL.md",
    ] {
        let to = dir.join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root.join(file), &to).unwrap();
    }
    dir
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn the_plugin_alone_guards_claude_doctor_counts_it_and_its_skill_reaches_the_model() {
    let home = Home::new();
    let source = plugin_source(&home);
    for args in [
        &[
            "claude",
            "plugin",
            "marketplace",
            "add",
            source.to_str().unwrap(),
        ][..],
        &["claude", "plugin", "install", "heredoc-guard@heredoc-guard"],
    ] {
        let run = home.run_isolated(args, &[], None);
        assert_eq!(run.run.code, Some(0), "{args:?}: {:?}", run.run);
    }
    assert!(
        !home.path().join(".claude/settings.json").exists() || {
            let s = std::fs::read_to_string(home.path().join(".claude/settings.json")).unwrap();
            !s.contains("PreToolUse")
        }
    );
    let r = home.guard_cmd(&["doctor", "claude"]);
    assert_eq!(r.code, Some(0), "the plugin alone guards: {}", r.stdout);
    assert!(
        r.stdout.contains("plugin heredoc-guard@heredoc-guard"),
        "{}",
        r.stdout
    );
    let command = live_heredoc(&home);
    let run = claude(&home, "Bash", bash(&command));
    assert_turn_completed(&run, "deny");
    assert!(!home.canary().exists(), "the denied command ran");
    assert_recorded_from(&home, "claude", "Bash");
    let mut first = Vec::new();
    super::collect_strings(&run.requests[0]["body"], &mut first);
    assert!(
        first
            .iter()
            .any(|s| s.contains("How to write heredocs that heredoc-guard allows")),
        "the plugin's skill (SKILL.md) is not offered to the model"
    );
    // Installed alongside in the settings: doctor warns that it runs twice.
    let r = home.guard_cmd(&["install", "claude"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let r = home.guard_cmd(&["doctor", "claude"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("heredoc-guard runs 2 times for each command"),
        "{}",
        r.stdout
    );
    // The plugin with no heredoc-guard on PATH: blocked, with the same message.
    let _ = home.guard_cmd(&["uninstall", "claude"]);
    make_faulty(&home, None);
    let plain = format!("touch {}", home.canary().display());
    let run = claude(&home, "Bash", bash(&plain));
    assert_turn_completed(&run, "plugin without the binary");
    assert!(!home.canary().exists(), "the command ran without the guard");
    let said = format!("{MISSING}heredoc-guard was not found on PATH");
    assert!(
        run.strings_sent_back().iter().any(|s| s.contains(&said)),
        "{:?}",
        run.strings_sent_back()
    );
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn the_one_session_trial_with_plugin_dir_guards_and_writes_no_settings() {
    // The README's trial: claude --plugin-dir <checkout>, the built binary on PATH, the
    // ledger moved into the checkout.
    let home = Home::new();
    let source = plugin_source(&home);
    let ledger = home.path().join("trial-ledger.jsonl");
    let command = live_heredoc(&home);
    let run = claude_with(
        &home,
        "Bash",
        bash(&command),
        &["--plugin-dir", source.to_str().unwrap()],
        &[("HEREDOC_GUARD_LEDGER", ledger.to_str().unwrap())],
    );
    assert_turn_completed(&run, "trial");
    assert!(!home.canary().exists(), "the denied command ran");
    let text = std::fs::read_to_string(&ledger).unwrap_or_default();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("\"rule\":\"heredoc-command-substitution\""),
        "{text}"
    );
    for file in [".claude/settings.json", ".local/state/heredoc-guard"] {
        assert!(!home.path().join(file).exists(), "the trial wrote {file}");
    }
    assert!(!home.work().join(".claude").exists());
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn claude_cannot_uninstall_the_guard_from_its_own_bash_tool() {
    let home = installed();
    let settings = home.path().join(".claude/settings.json");
    let before = std::fs::read_to_string(&settings).unwrap();
    let run = claude(&home, "Bash", bash("heredoc-guard uninstall claude"));
    assert_turn_completed(&run, "guard-tamper");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), before);
    assert_eq!(ledger_rules(&home), ["guard-tamper"]);
    assert!(
        run.strings_sent_back()
            .iter()
            .any(|s| s.contains("from a terminal")),
        "{:?}",
        run.strings_sent_back()
    );
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn a_project_s_disable_all_hooks_switches_off_a_user_install_and_the_agent_cannot_write_it() {
    let home = installed();
    let settings = home.work().join(".claude/settings.json");
    // The agent's own attempt to write the switch is denied; the file is not written.
    let write = "mkdir -p .claude && echo '{\"disableAllHooks\": true}' > .claude/settings.json";
    let run = claude(&home, "Bash", bash(write));
    assert_turn_completed(&run, "writing the switch");
    assert!(!settings.exists(), "the switch was written");
    assert_eq!(ledger_rules(&home), ["guard-tamper"]);
    // Written from outside the agent (a file with no hook of the guard's in it), it turns
    // the user-level guard off: a live heredoc runs, and the ledger records nothing more.
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, r#"{"disableAllHooks": true}"#).unwrap();
    let run = claude(&home, "Bash", bash(&live_heredoc(&home)));
    assert_turn_completed(&run, "switched off");
    assert!(
        home.canary().exists(),
        "the user-level guard still ran under the project's disableAllHooks"
    );
    assert_eq!(ledger_rules(&home), ["guard-tamper"]);
    // doctor names the file, and what survives it.
    let r = home.guard_cmd(&["doctor", "claude"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("work/.claude/settings.json")
            && r.stdout.contains("Only the managed install survives it"),
        "{}",
        r.stdout
    );
}
