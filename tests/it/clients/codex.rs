//! Codex 0.169.0 with the hook `heredoc-guard install codex` wrote and trusted (the sh
//! launcher, matcher `^(Bash|apply_patch)$`).

use serde_json::{Value, json};

use super::{
    FAULTS, Home, Isolated, MISSING, assert_recorded_from, ledger_rules, live_heredoc, make_faulty,
    quoted_heredoc_then_canary, reason_for,
};

/// The mock model as a Codex provider; written before install, which adds the trust.
pub const CONFIG: &str = "model = \"gpt-5.5\"\nmodel_provider = \"mock\"\n\n[model_providers.mock]\nname = \"mock\"\nbase_url = \"http://127.0.0.1:18080/v1\"\nwire_api = \"responses\"\nenv_key = \"MOCK_API_KEY\"\n";

/// A HOME with the mock provider configured and `heredoc-guard install codex` run.
fn installed() -> Home {
    let home = Home::new();
    std::fs::create_dir_all(home.path().join(".codex")).unwrap();
    std::fs::write(home.path().join(".codex/config.toml"), CONFIG).unwrap();
    let r = home.guard_cmd(&["install", "codex"]);
    assert_eq!(r.code, Some(0), "install codex: {r:?}");
    assert!(r.stdout.contains("Trusted: "), "{}", r.stdout);
    home
}

/// `codex exec` in `home`, the mock answering with one call of `tool`.
pub(super) fn codex(home: &Home, tool: &str, input: Value, custom: bool) -> Isolated {
    let scenario = json!({"tool": tool, "input": input, "custom": custom, "final_text": "Done."});
    let work = home.work();
    home.run_isolated(
        &[
            "codex",
            "exec",
            "--skip-git-repo-check",
            "--dangerously-bypass-approvals-and-sandbox",
            "-C",
            work.to_str().unwrap(),
            "Run the command.",
        ],
        &[("MOCK_API_KEY", "dummy")],
        Some(&scenario),
    )
}

pub(super) fn exec(command: &str) -> Value {
    json!({"cmd": command})
}

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
fn codex_never_runs_a_live_heredoc_and_the_model_reads_the_reason_and_the_ledger_records_it() {
    let home = installed();
    let command = live_heredoc(&home);
    let run = codex(&home, "exec_command", exec(&command), false);
    assert_turn_completed(&run, "deny");
    assert!(!home.canary().exists(), "the denied command ran");
    let head: String = reason_for(&command).chars().take(120).collect();
    assert!(
        run.strings_sent_back().iter().any(|s| s.contains(&head)),
        "the reason did not reach the model: {:?}",
        run.strings_sent_back()
    );
    assert_eq!(ledger_rules(&home), ["heredoc-command-substitution"]);
    assert_recorded_from(&home, "codex", "Bash");
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn codex_runs_a_quoted_heredoc_and_a_plain_command() {
    let home = installed();
    let run = codex(
        &home,
        "exec_command",
        exec(&quoted_heredoc_then_canary(&home)),
        false,
    );
    assert_turn_completed(&run, "quoted heredoc");
    assert!(
        home.canary().exists(),
        "the quoted heredoc did not run: {:?}",
        run.run
    );
    std::fs::remove_file(home.canary()).unwrap();
    let run = codex(
        &home,
        "exec_command",
        exec(&format!("touch {}", home.canary().display())),
        false,
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
fn codex_apply_patch_passes_the_hook_unparsed_and_writes_its_file() {
    let home = installed();
    // A patch whose text holds a live heredoc: data to apply_patch, never read as shell.
    let patch = "*** Begin Patch\n*** Add File: patched.sh\n+cat <<EOF\n+$(touch canary)\n+EOF\n*** End Patch\n";
    let run = codex(&home, "apply_patch", Value::String(patch.to_owned()), true);
    assert_turn_completed(&run, "apply_patch");
    let written = std::fs::read_to_string(home.work().join("patched.sh"));
    assert!(
        written.is_ok_and(|t| t.contains("$(touch canary)")),
        "{:?}",
        run.run
    );
    assert!(!home.canary().exists());
    assert!(ledger_rules(&home).is_empty());
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn with_the_installed_codex_hook_every_fault_of_the_guard_blocks_the_command() {
    let home = installed();
    let plain = format!("touch {}", home.canary().display());
    let mut ran = Vec::new();
    for (fault, script) in FAULTS {
        make_faulty(&home, script);
        let run = codex(&home, "exec_command", exec(&plain), false);
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
fn install_codex_creates_a_missing_codex_home_and_codex_then_runs_the_hook() {
    let home = Home::new();
    assert!(!home.path().join(".codex").exists());
    let r = home.guard_cmd(&["install", "codex"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.contains("~/.codex: created"), "{}", r.stdout);
    assert!(r.stdout.contains("Trusted: "), "{}", r.stdout);
    let r = home.guard_cmd(&["doctor", "codex"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn codex_cannot_remove_the_guard_s_hook_from_its_own_shell() {
    let home = installed();
    let hooks = home.path().join(".codex/hooks.json");
    let before = std::fs::read_to_string(&hooks).unwrap();
    let command = format!("echo '{{}}' > {}", hooks.display());
    let run = codex(&home, "exec_command", exec(&command), false);
    assert_turn_completed(&run, "guard-tamper");
    assert_eq!(std::fs::read_to_string(&hooks).unwrap(), before);
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
fn codex_features_hooks_false_switches_off_a_user_install_and_the_agent_cannot_write_it() {
    let home = installed();
    let config = home.path().join(".codex/config.toml");
    let before = std::fs::read_to_string(&config).unwrap();
    // The agent's own attempt to write the switch (into the file that holds the hook's
    // trust) is denied; the file stays as it was.
    let command = format!(
        "printf '\\n[features]\\nhooks = false\\n' >> {}",
        config.display()
    );
    let run = codex(&home, "exec_command", exec(&command), false);
    assert_turn_completed(&run, "writing the switch");
    assert_eq!(std::fs::read_to_string(&config).unwrap(), before);
    assert_eq!(ledger_rules(&home), ["guard-tamper"]);
    // Written from outside the agent, it turns the user-level guard off.
    std::fs::write(&config, format!("{before}\n[features]\nhooks = false\n")).unwrap();
    let run = codex(&home, "exec_command", exec(&live_heredoc(&home)), false);
    assert_turn_completed(&run, "switched off");
    assert!(
        home.canary().exists(),
        "the user-level guard still ran under [features] hooks = false"
    );
    assert_eq!(ledger_rules(&home), ["guard-tamper"]);
}
