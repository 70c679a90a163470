//! Copilot CLI 1.0.102 with the hook `heredoc-guard install copilot` wrote
//! (`~/.copilot/hooks/heredoc-guard.json`: a `preToolUse` handler running the JSON launcher
//! for Copilot's form), driven by the mock model as an OpenAI Chat Completions provider
//! (`COPILOT_PROVIDER_*`, offline, no login), its shell tool `bash`. What the model is told
//! is the `tool` message of the request Copilot sends back.

use serde_json::{Value, json};

use super::{
    FAULTS, Home, Isolated, MISSING, assert_recorded_from_event, ledger_rules, live_heredoc,
    make_faulty, quoted_heredoc_then_canary, reason_for,
};

/// A HOME where `heredoc-guard install copilot` ran.
fn installed() -> Home {
    let home = Home::new();
    let r = home.guard_cmd(&["install", "copilot"]);
    assert_eq!(r.code, Some(0), "install copilot: {r:?}");
    home
}

/// `copilot -p` in `home`, the mock answering with one `bash` call of `command`.
fn copilot(home: &Home, command: &str) -> Isolated {
    let scenario = json!({"tool": "bash", "input": {"command": command, "description": "run it"},
        "final_text": "Done."});
    let cache = super::copilot_xdg_cache();
    home.run_isolated(
        &[
            "copilot",
            "-p",
            "Run the command.",
            "--allow-all-tools",
            "--no-auto-update",
        ],
        &[
            ("COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:18080/v1"),
            ("COPILOT_PROVIDER_TYPE", "openai"),
            ("COPILOT_MODEL", "gpt-4.1"),
            ("COPILOT_OFFLINE", "true"),
            ("COPILOT_AUTO_UPDATE", "false"),
            ("XDG_CACHE_HOME", cache.to_str().unwrap()),
        ],
        Some(&scenario),
    )
}

/// The `tool` messages Copilot sent back to the model.
fn tool_results(run: &Isolated) -> Vec<String> {
    run.requests
        .iter()
        .filter_map(|r| r["body"]["messages"].as_array())
        .flatten()
        .filter(|m| m["role"] == "tool")
        .map(|m| match &m["content"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

fn assert_turn_completed(run: &Isolated, what: &str) {
    assert!(
        !tool_results(run).is_empty(),
        "{what}: Copilot sent no tool result back; {} request(s); stdout {:?} stderr {:?}",
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
fn copilot_never_runs_a_live_heredoc_and_the_model_reads_the_reason_and_the_ledger_records_it() {
    let home = installed();
    let command = live_heredoc(&home);
    let run = copilot(&home, &command);
    assert_turn_completed(&run, "deny");
    assert!(!home.canary().exists(), "the denied command ran");
    let head: String = reason_for(&command).chars().take(120).collect();
    let sent = tool_results(&run);
    assert!(
        sent.iter().any(|s| s.contains(&head)),
        "the reason did not reach the model: {sent:?}"
    );
    assert_eq!(ledger_rules(&home), ["heredoc-command-substitution"]);
    assert_recorded_from_event(&home, "copilot", "bash", None);
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn copilot_runs_a_quoted_heredoc_and_a_plain_command() {
    let home = installed();
    let run = copilot(&home, &quoted_heredoc_then_canary(&home));
    assert_turn_completed(&run, "quoted heredoc");
    assert!(
        home.canary().exists(),
        "the quoted heredoc did not run: {:?}",
        run.run
    );
    std::fs::remove_file(home.canary()).unwrap();
    let run = copilot(&home, &format!("touch {}", home.canary().display()));
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
fn with_the_installed_copilot_hook_every_fault_of_the_guard_blocks_the_command_and_says_why() {
    let home = installed();
    let plain = format!("touch {}", home.canary().display());
    let mut ran = Vec::new();
    for (fault, script) in FAULTS {
        make_faulty(&home, script);
        let run = copilot(&home, &plain);
        assert_turn_completed(&run, fault);
        if home.canary().exists() {
            ran.push(fault);
            std::fs::remove_file(home.canary()).unwrap();
        }
        let sent = tool_results(&run);
        assert!(
            sent.iter().any(|s| s.contains("heredoc-guard")),
            "{fault}: the model was not told why: {sent:?}"
        );
        if script.is_none() {
            let said = format!("{MISSING}{} does not exist", home.guard().display());
            assert!(
                sent.iter().any(|s| s.contains(&said)),
                "the model did not read what is missing: {sent:?}"
            );
        }
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
fn install_copilot_twice_changes_nothing_doctor_passes_and_uninstall_removes_it_and_unguards() {
    let home = installed();
    let file = home.path().join(".copilot/hooks/heredoc-guard.json");
    let once = std::fs::read_to_string(&file).unwrap();
    let r = home.guard_cmd(&["install", "copilot"]);
    assert!(r.stdout.contains("nothing changed"), "{r:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), once);
    let r = home.guard_cmd(&["doctor", "copilot"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert!(
        r.stdout.contains("live probe through `bash -c`"),
        "{}",
        r.stdout
    );
    // A settings.json with disableAllHooks: doctor warns, and (measured) Copilot 1.0.102
    // in -p mode still runs the hook file's hook.
    let settings = home.path().join(".copilot/settings.json");
    std::fs::write(&settings, r#"{"disableAllHooks": true}"#).unwrap();
    let r = home.guard_cmd(&["doctor", "copilot"]);
    assert!(
        r.stdout.contains("Warning: copilot: ") && r.stdout.contains("disableAllHooks"),
        "{}",
        r.stdout
    );
    let run = copilot(&home, &live_heredoc(&home));
    assert_turn_completed(&run, "disableAllHooks");
    assert!(
        !home.canary().exists(),
        "disableAllHooks switched the hook off"
    );
    std::fs::remove_file(&settings).unwrap();
    let r = home.guard_cmd(&["uninstall", "copilot"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(!file.exists());
    let r = home.guard_cmd(&["doctor", "copilot"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    // Unguarded now: the live heredoc runs (so the denies above were the hook's).
    let run = copilot(&home, &live_heredoc(&home));
    assert_turn_completed(&run, "after uninstall");
    assert!(home.canary().exists(), "{:?}", run.run);
}
