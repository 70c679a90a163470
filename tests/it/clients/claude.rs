//! Claude Code 2.1.328 with the hook `heredoc-guard install claude` wrote (the exec form
//! with `"onFailure": "block"`, matcher `Bash|Monitor|mcp__workspace__bash`).

use serde_json::{Value, json};

use super::{
    FAULTS, Home, Isolated, ledger_rules, live_heredoc, make_faulty, quoted_heredoc_then_canary,
    reason_for,
};

/// A HOME where `heredoc-guard install claude` ran (and chose the exec form).
fn installed() -> Home {
    let home = Home::new();
    let r = home.guard_cmd(&["install", "claude"]);
    assert_eq!(r.code, Some(0), "install claude: {r:?}");
    assert!(r.stdout.contains("exec form"), "{}", r.stdout);
    home
}

/// `claude -p` in `home`, the mock answering with one call of `tool` with `input`.
fn claude(home: &Home, tool: &str, input: Value) -> Isolated {
    let scenario = json!({"tool": tool, "input": input, "final_text": "Done."});
    home.run_isolated(
        &[
            "claude",
            "-p",
            "Run the command.",
            "--dangerously-skip-permissions",
        ],
        &[
            ("ANTHROPIC_BASE_URL", "http://127.0.0.1:18080"),
            ("ANTHROPIC_API_KEY", "sk-ant-dummy"),
            ("IS_SANDBOX", "1"),
            ("DISABLE_AUTOUPDATER", "1"),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
        ],
        Some(&scenario),
    )
}

fn bash(command: &str) -> Value {
    json!({"command": command, "description": "run it"})
}

/// The client finished its turn: a second request (the tool's result) reached the mock.
fn assert_turn_completed(run: &Isolated, what: &str) {
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
