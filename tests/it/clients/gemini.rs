//! Gemini CLI 0.61.0 with the hook `heredoc-guard install gemini` wrote (the JSON launcher
//! for Gemini's form, matcher `^run_shell_command$`), driven by its own fake-responses file
//! (`--fake-responses-non-strict`: one `run_shell_command` call, then text) in yolo mode,
//! the workspace trusted by `GEMINI_CLI_TRUST_WORKSPACE`. What the model is told is the
//! `functionResponse` Gemini records for the call in its chat file (the part it sends back
//! to the model). Gemini runs the command when a hook prints nothing, whatever its exit
//! status: every failure of the guard must still block.
//!
//! Gemini's shell tool has a check of its own (measured in 0.61.0: `detectBashSubstitution`
//! in its bundle): it refuses a command holding `$(`, a backquote, `<(` or `>(` outside
//! single quotes, a quoted heredoc's body included. It counts quotes inside a heredoc body
//! too, so an apostrophe in the body hides a live `$(…)` from it: the heredocs here hold
//! one, so that without the guard the live one runs (checked after uninstall) and the
//! quoted one runs with it.

use serde_json::{Value, json};

use super::{
    FAULTS, Home, Isolated, MISSING, assert_recorded_from_event, collect_strings, ledger_rules,
    make_faulty, reason_for,
};

/// A heredoc whose body creates the canary when the shell runs it, past Gemini's own check
/// (the apostrophe opens a quote for it, not for the shell).
fn live_heredoc(home: &Home) -> String {
    format!("cat <<EOF\nit's $(touch {})\nEOF", home.canary().display())
}

/// The same behind a quoted delimiter: runs, prints the text, creates the canary after.
fn quoted_heredoc_then_canary(home: &Home) -> String {
    format!(
        "cat <<'EOF'\nit's $(touch {0})\nEOF\ntouch {0}",
        home.canary().display()
    )
}

/// Settings that stop Gemini's only network attempts (its update check and statistics).
const OFFLINE: &str =
    r#"{"general": {"enableAutoUpdate": false}, "privacy": {"usageStatisticsEnabled": false}}"#;

/// A HOME with the offline settings and `heredoc-guard install gemini ARGS` run.
fn installed_with(home: Home, args: &[&str]) -> Home {
    let settings = home.path().join(".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, OFFLINE).unwrap();
    let mut all = vec!["install", "gemini"];
    all.extend_from_slice(args);
    let r = home.guard_cmd(&all);
    assert_eq!(r.code, Some(0), "install gemini: {r:?}");
    home
}

fn installed() -> Home {
    installed_with(Home::new(), &[])
}

/// `gemini -p` in `home`, its fake model answering with one `run_shell_command` call of
/// `command`, then text.
pub(super) fn gemini(home: &Home, command: &str) -> Isolated {
    let _ = std::fs::remove_dir_all(home.path().join(".gemini/tmp"));
    let file = home
        .path()
        .join(format!("fake-responses-{}.jsonl", super::unique()));
    let call = json!({"method": "generateContentStream", "response": [{"candidates": [{
        "content": {"role": "model", "parts": [{"functionCall": {"name": "run_shell_command",
            "args": {"command": command, "description": "run it"}}}]},
        "finishReason": "STOP"}]}]});
    let text = json!({"method": "generateContentStream", "response": [{"candidates": [{
        "content": {"role": "model", "parts": [{"text": "Done."}]}, "finishReason": "STOP"}]}]});
    std::fs::write(&file, format!("{call}\n{text}\n")).unwrap();
    home.run_isolated(
        &[
            "gemini",
            "--fake-responses-non-strict",
            file.to_str().unwrap(),
            "-m",
            "gemini-2.5-flash",
            "--approval-mode=yolo",
            "-p",
            "Run the command.",
            "-o",
            "stream-json",
        ],
        &[
            ("GEMINI_API_KEY", "dummy"),
            ("GEMINI_CLI_TRUST_WORKSPACE", "true"),
        ],
        None,
    )
}

/// Gemini called the tool and reported its result (whatever it was).
fn assert_tool_called(run: &Isolated, what: &str) {
    assert!(
        run.run.stdout.contains("\"type\":\"tool_result\""),
        "{what}: Gemini reported no tool result; stdout {:?} stderr {:?}",
        run.run.stdout,
        run.run.stderr
    );
}

/// Every string in the `functionResponse` parts Gemini recorded in its chat files: what it
/// sent back to the model for the tool call.
fn sent_back(home: &Home) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![home.path().join(".gemini/tmp")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                for line in std::fs::read_to_string(&path).unwrap_or_default().lines() {
                    if let Ok(v) = serde_json::from_str::<Value>(line) {
                        responses(&v, &mut out);
                    }
                }
            }
        }
    }
    out
}

fn responses(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "functionResponse" {
                    collect_strings(x, out);
                } else {
                    responses(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| responses(x, out)),
        _ => {}
    }
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn gemini_never_runs_a_live_heredoc_and_the_model_reads_the_reason_and_the_ledger_records_it() {
    let home = installed();
    let command = live_heredoc(&home);
    let run = gemini(&home, &command);
    assert_tool_called(&run, "deny");
    assert!(!home.canary().exists(), "the denied command ran");
    let head: String = reason_for(&command).chars().take(120).collect();
    let sent = sent_back(&home);
    assert!(
        sent.iter()
            .any(|s| s.starts_with("Tool execution blocked: heredoc-guard: ") && s.contains(&head)),
        "the reason did not reach the model: {sent:?}"
    );
    assert_eq!(ledger_rules(&home), ["heredoc-command-substitution"]);
    assert_recorded_from_event(&home, "gemini", "run_shell_command", Some("BeforeTool"));
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn gemini_runs_a_quoted_heredoc_and_a_plain_command() {
    let home = installed();
    let run = gemini(&home, &quoted_heredoc_then_canary(&home));
    assert_tool_called(&run, "quoted heredoc");
    assert!(
        home.canary().exists(),
        "the quoted heredoc did not run: {:?}",
        run.run
    );
    std::fs::remove_file(home.canary()).unwrap();
    let run = gemini(&home, &format!("touch {}", home.canary().display()));
    assert_tool_called(&run, "plain command");
    assert!(
        home.canary().exists(),
        "the plain command did not run: {:?}",
        run.run
    );
    assert!(ledger_rules(&home).is_empty());
}

/// Faults Gemini itself lets through (measured: no output is an allow whatever the exit
/// status) beyond the suite's common ones.
const GEMINI_FAULTS: [(&str, Option<&str>); 4] = [
    ("killed", Some("#!/bin/sh\ncat >/dev/null\nkill -KILL $$\n")),
    (
        "exit 2, nothing printed",
        Some("#!/bin/sh\ncat >/dev/null\nexit 2\n"),
    ),
    (
        "exit 3",
        Some("#!/bin/sh\ncat >/dev/null\necho oops >&2\nexit 3\n"),
    ),
    (
        "a deny in Claude Code's form (an allow in Gemini)",
        Some(
            "#!/bin/sh\ncat >/dev/null\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"x\"}}'\nexit 2\n",
        ),
    ),
];

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn with_the_installed_gemini_hook_every_fault_of_the_guard_blocks_the_command() {
    let home = installed();
    let plain = format!("touch {}", home.canary().display());
    // Control: with the guard there, the plain command runs.
    let run = gemini(&home, &plain);
    assert_tool_called(&run, "control");
    assert!(home.canary().exists(), "control: {:?}", run.run);
    std::fs::remove_file(home.canary()).unwrap();
    let mut ran = Vec::new();
    for (fault, script) in FAULTS.iter().chain(GEMINI_FAULTS.iter()) {
        make_faulty(&home, *script);
        let run = gemini(&home, &plain);
        assert_tool_called(&run, fault);
        if home.canary().exists() {
            ran.push(*fault);
            std::fs::remove_file(home.canary()).unwrap();
        }
        let sent = sent_back(&home);
        assert!(
            sent.iter()
                .any(|s| s.starts_with("Tool execution blocked: heredoc-guard")),
            "{fault}: the model was not told: {sent:?}"
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
fn install_gemini_twice_changes_nothing_doctor_passes_and_uninstall_gives_the_settings_back_and_unguards()
 {
    let home = installed();
    let settings = home.path().join(".gemini/settings.json");
    let once = std::fs::read_to_string(&settings).unwrap();
    let r = home.guard_cmd(&["install", "gemini"]);
    assert!(r.stdout.contains("nothing changed"), "{r:?}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), once);
    let r = home.run_isolated(
        &[home.guard().to_str().unwrap(), "doctor", "gemini"],
        &[("GEMINI_CLI_TRUST_WORKSPACE", "true")],
        None,
    );
    assert_eq!(r.run.code, Some(0), "{}", r.run.stdout);
    assert!(
        r.run.stdout.contains("live probe through `bash -c`"),
        "{}",
        r.run.stdout
    );
    assert!(
        r.run.stdout.contains("Gemini CLI trusts this folder"),
        "{}",
        r.run.stdout
    );
    // Untrusted (no trust rule, no environment): doctor says so.
    let r = home.guard_cmd(&["doctor", "gemini"]);
    assert!(
        r.stdout.contains("Gemini CLI does not trust this folder"),
        "{}",
        r.stdout
    );
    let r = home.guard_cmd(&["uninstall", "gemini"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(OFFLINE).unwrap());
    let r = home.guard_cmd(&["doctor", "gemini"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    // Unguarded now: the live heredoc runs (so the denies above were the hook's).
    let run = gemini(&home, &live_heredoc(&home));
    assert_tool_called(&run, "after uninstall");
    assert!(home.canary().exists(), "{:?}", run.run);
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn gemini_managed_hook_denies_with_no_user_hook_and_survives_a_user_s_hooks_off() {
    let home = Home::new().isolate_etc();
    let settings = home.path().join(".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, OFFLINE).unwrap();
    let r = home.guard_cmd(&["install", "gemini", "--managed"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let system = home.etc_file("gemini-cli/settings.json");
    let text = std::fs::read_to_string(&system).unwrap();
    assert!(text.contains("--agent gemini"), "{text}");
    assert!(
        !std::fs::read_to_string(&settings)
            .unwrap()
            .contains("hooks")
    );
    let denies = |when: &str| {
        let _ = std::fs::remove_file(home.canary());
        let before = ledger_rules(&home).len();
        let run = gemini(&home, &live_heredoc(&home));
        assert_tool_called(&run, when);
        assert!(!home.canary().exists(), "{when}: Gemini ran a live heredoc");
        assert_eq!(ledger_rules(&home).len(), before + 1, "{when}");
    };
    denies("managed only");
    // A user's own switch: hooksConfig.enabled false. The system file pins it on.
    std::fs::write(
        &settings,
        r#"{"general": {"enableAutoUpdate": false}, "privacy": {"usageStatisticsEnabled": false}, "hooksConfig": {"enabled": false}}"#,
    )
    .unwrap();
    denies("user hooks off");
    let r = home.guard_cmd(&["uninstall", "gemini", "--managed"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        !std::fs::read_to_string(&system)
            .unwrap_or_default()
            .contains("heredoc-guard"),
    );
    assert!(
        !std::fs::read_to_string("/etc/gemini-cli/settings.json")
            .unwrap_or_default()
            .contains("heredoc-guard"),
        "the machine's /etc/gemini-cli/settings.json holds heredoc-guard"
    );
}
