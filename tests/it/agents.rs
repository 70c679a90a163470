//! Gemini CLI and Copilot CLI, without the real clients (the real-client suite drives
//! them): their events are read (Gemini's `BeforeTool`; Copilot's `toolName`/`toolArgs`,
//! `toolArgs` an object or a JSON string), a deny is written in each client's own form
//! (`--agent NAME` on the hook's command line names the client; an event that cannot come
//! from the named client denies in its own client's form), bad events deny in the named
//! client's form, the ledger and `log --agent` name the agent; the JSON launchers turn
//! every fault of the binary into the client's deny JSON; install, doctor and uninstall
//! for both in a throwaway HOME.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::sandbox::Sandbox;
use crate::support::{Run, claude_event, guard_path, ledger_rule, run_command, run_with};

const LIVE: &str = "cat <<EOF\n$(id)\nEOF";
const QUOTED: &str = "cat <<'EOF'\n$(id)\nEOF";

fn gemini_event(command: &str) -> Vec<u8> {
    json!({"session_id": "g-1", "transcript_path": "/t.jsonl", "cwd": "/home/u/p",
        "hook_event_name": "BeforeTool", "timestamp": "2026-12-03T21:50:00.452Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command, "description": "x"}})
    .to_string()
    .into_bytes()
}

fn copilot_event(tool: &str, args: Value) -> Vec<u8> {
    json!({"sessionId": "c-1", "timestamp": 1_796_334_624_551_u64, "cwd": "/home/u/p",
        "toolName": tool, "toolArgs": args})
    .to_string()
    .into_bytes()
}

/// The one JSON object on stdout of a deny, with exactly `keys`, the decision `deny` under
/// `decision_key`, and the reason under `reason_key` also first on stderr; exit 2.
fn deny_in(r: &Run, decision_key: &str, reason_key: &str) -> String {
    assert_eq!(r.code, Some(2), "{r:?}");
    let line = r.stdout.strip_suffix('\n').expect("one line");
    assert!(!line.contains('\n'), "{line}");
    let v: Value = serde_json::from_str(line).expect("JSON");
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    let mut want = vec![decision_key, reason_key];
    want.sort_unstable();
    assert_eq!(keys, want, "{line}");
    assert_eq!(v[decision_key], "deny", "{line}");
    let reason = v[reason_key].as_str().unwrap().to_owned();
    assert_eq!(r.stderr.lines().next(), Some(reason.as_str()));
    reason
}

fn gemini_deny(r: &Run) -> String {
    deny_in(r, "decision", "reason")
}

fn copilot_deny(r: &Run) -> String {
    deny_in(r, "permissionDecision", "permissionDecisionReason")
}

fn last_record(ledger: &Path) -> Value {
    let text = std::fs::read_to_string(ledger).unwrap();
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

#[test]
fn a_gemini_event_is_read_and_denied_in_gemini_s_form_with_or_without_agent_gemini() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    for args in [&[][..], &["--agent", "gemini"]] {
        let r = run_with(args, &gemini_event(LIVE), &ledger);
        let reason = gemini_deny(&r);
        assert!(reason.starts_with("heredoc-guard: line 2"), "{reason}");
        let rec = last_record(&ledger);
        assert_eq!(rec["agent"], "gemini");
        assert_eq!(rec["tool"], "run_shell_command");
        assert_eq!(rec["hook_event"], "BeforeTool");
        assert_eq!(rec["session_id"], "g-1");
        assert_eq!(rec["rule"], "heredoc-command-substitution");
        let r = run_with(args, &gemini_event(QUOTED), &ledger);
        assert_eq!(
            (r.code, r.stdout.as_str(), r.stderr.as_str()),
            (Some(0), "", "")
        );
    }
}

#[test]
fn a_copilot_event_is_read_with_tool_args_an_object_or_a_json_string_and_denied_in_copilot_s_form()
{
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    let object = json!({"command": LIVE, "description": "x"});
    let string = Value::String(object.to_string());
    // Every character of the command escaped inside the string: decoded twice.
    let escaped: String = LIVE.encode_utf16().map(|u| format!("\\u{u:04x}")).collect();
    let doubly = Value::String(format!("{{\"command\":\"{escaped}\"}}"));
    for args in [object, string, doubly] {
        let r = run_with(
            &["--agent", "copilot"],
            &copilot_event("bash", args.clone()),
            &ledger,
        );
        let reason = copilot_deny(&r);
        assert!(
            reason.starts_with("heredoc-guard: line 2"),
            "{args}: {reason}"
        );
        let rec = last_record(&ledger);
        assert_eq!(rec["agent"], "copilot");
        assert_eq!(rec["tool"], "bash");
        assert_eq!(rec["session_id"], "c-1");
        assert!(rec.get("hook_event").is_none(), "{rec}");
        // Without --agent the shape says Copilot.
        let r = run_with(&[], &copilot_event("bash", args), &ledger);
        copilot_deny(&r);
    }
    for args in [
        json!({"command": QUOTED}),
        Value::String(json!({"command": QUOTED}).to_string()),
    ] {
        let r = run_with(
            &["--agent", "copilot"],
            &copilot_event("bash", args),
            &ledger,
        );
        assert_eq!(
            (r.code, r.stdout.as_str(), r.stderr.as_str()),
            (Some(0), "", "")
        );
    }
    // Other tools pass unread, whatever their arguments hold.
    let r = run_with(
        &["--agent", "copilot"],
        &copilot_event("view", json!({"path": LIVE})),
        &ledger,
    );
    assert_eq!((r.code, r.stdout.as_str()), (Some(0), ""));
}

#[test]
fn copilot_s_claude_style_event_is_answered_in_the_form_the_hook_names() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    let r = run_with(&["--agent", "copilot"], &claude_event(LIVE), &ledger);
    copilot_deny(&r);
    assert_eq!(last_record(&ledger)["agent"], "copilot");
    let r = run_with(&[], &claude_event(LIVE), &ledger);
    assert!(crate::support::deny_reason(&r).is_ok(), "{r:?}");
    assert_eq!(last_record(&ledger)["agent"], "claude");
}

#[test]
fn an_event_from_another_client_than_the_hook_names_denies_in_its_own_client_s_form() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    // A Gemini event to a hook set up for Claude Code: Claude's form would be an allow
    // in Gemini, so it denies in Gemini's, even for a harmless command.
    let r = run_with(&["--agent", "claude"], &gemini_event("ls"), &ledger);
    let reason = gemini_deny(&r);
    assert!(reason.contains("set up for claude"), "{reason}");
    assert_eq!(ledger_rule(&ledger), "invalid-event");
    let r = run_with(
        &["--agent", "gemini"],
        &copilot_event("bash", json!({"command": "ls"})),
        &ledger,
    );
    copilot_deny(&r);
    let r = run_with(&["--agent", "gemini"], &claude_event("ls"), &ledger);
    assert!(crate::support::deny_reason(&r).is_ok(), "{r:?}");
}

#[test]
fn a_bad_event_denies_in_the_named_client_s_form() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    for event in [
        &b"not json"[..],
        b"",
        br#"{"tool_name":"run_shell_command"}"#,
    ] {
        let r = run_with(&["--agent", "gemini"], event, &ledger);
        let reason = gemini_deny(&r);
        assert!(
            reason.starts_with("heredoc-guard could not read the hook event"),
            "{reason}"
        );
        assert_eq!(last_record(&ledger)["agent"], "gemini");
        let r = run_with(&["--agent", "copilot"], event, &ledger);
        copilot_deny(&r);
    }
    // Both spellings of one key, or the two shapes mixed: denied.
    for event in [
        r#"{"toolName":"bash","tool_name":"Write","toolArgs":{"command":"ls"}}"#,
        r#"{"tool_name":"bash","toolArgs":{"command":"ls"}}"#,
        r#"{"toolName":"bash","toolArgs":{"command":"ls"},"tool_input":{"command":"ls"}}"#,
        r#"{"toolName":"bash","toolArgs":"{\"command\":\"ls\"} trailing"}"#,
        r#"{"toolName":"bash","toolArgs":"{\"command\":\"ls\",\"command\":\"x\"}"}"#,
        r#"{"toolName":"bash","toolArgs":42}"#,
    ] {
        let r = run_with(&["--agent", "copilot"], event.as_bytes(), &ledger);
        copilot_deny(&r);
        assert_eq!(ledger_rule(&ledger), "invalid-event", "{event}");
    }
}

#[test]
fn an_unknown_agent_is_a_bad_invocation_and_denies() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    for args in [
        &["--agent", "vim"][..],
        &["--agent"],
        &["--agent", "gemini", "x"],
    ] {
        let r = run_with(args, &gemini_event("ls"), &ledger);
        assert_eq!(r.code, Some(2), "{args:?}: {r:?}");
        assert_eq!(ledger_rule(&ledger), "bad-invocation", "{args:?}");
    }
}

#[test]
fn log_agent_takes_gemini_and_copilot() {
    let sb = Sandbox::new();
    assert_eq!(
        sb.run_with(&["--agent", "gemini"], &gemini_event(LIVE), &[])
            .code,
        Some(2)
    );
    let copilot = copilot_event("bash", json!({"command": LIVE}));
    assert_eq!(
        sb.run_with(&["--agent", "copilot"], &copilot, &[]).code,
        Some(2)
    );
    for agent in ["gemini", "copilot"] {
        let r = sb.run(&["log", "--json", "--agent", agent]);
        assert_eq!(r.code, Some(0), "{r:?}");
        let v = crate::sandbox::json(&r.stdout);
        assert_eq!(v["total"], 1, "{agent}: {v}");
        assert_eq!(v["last"][0]["agent"], agent);
    }
}

/// The hook line `config gemini|copilot` prints, for this build's binary.
fn hook_line(agent: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let r = run_with(&["config", agent], b"", &dir.path().join("l"));
    assert_eq!(r.code, Some(0), "{r:?}");
    let text = r.stdout.trim_start_matches(|c| c != '{');
    let v: Value = serde_json::from_str(text).expect("config JSON");
    let line = match agent {
        "gemini" => {
            let g = &v["hooks"]["BeforeTool"][0];
            assert_eq!(g["matcher"], "^run_shell_command$");
            assert_eq!(g["hooks"][0]["timeout"], 30000);
            &g["hooks"][0]["command"]
        }
        _ => {
            assert_eq!(v["version"], 1);
            assert_eq!(v["hooks"]["preToolUse"][0]["timeoutSec"], 30);
            &v["hooks"]["preToolUse"][0]["bash"]
        }
    };
    line.as_str().unwrap().to_owned()
}

/// `line` with this build's binary path replaced by `binary` (quoted as install quotes).
fn with_binary(line: &str, binary: &str) -> String {
    let canonical = std::fs::canonicalize(guard_path()).unwrap();
    let quoted = format!("'{}'", canonical.display());
    let at = line.rfind(&quoted).expect("the binary is the last word");
    format!("{}'{}'", &line[..at], binary.replace('\'', r"'\''"))
}

fn bash_c(line: &str, stdin: &[u8], ledger: &Path) -> Run {
    let mut command = Command::new("bash");
    command
        .arg("-c")
        .arg(line)
        .env("HEREDOC_GUARD_LEDGER", ledger);
    run_command(command, stdin)
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn the_json_launchers_pass_allows_and_denies_and_turn_every_fault_into_the_client_s_deny_json() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("l");
    let odd = dir.path().join("a \"quoted\\ dir");
    std::fs::create_dir(&odd).unwrap();
    let faults = [
        (
            "missing",
            dir.path().join("nope").to_string_lossy().into_owned(),
        ),
        (
            "missing, a path JSON escapes",
            odd.join("nope").to_string_lossy().into_owned(),
        ),
        ("exit 1", script(dir.path(), "one", "#!/bin/sh\nexit 1\n")),
        (
            "exit 2 silent",
            script(dir.path(), "two", "#!/bin/sh\nexit 2\n"),
        ),
        (
            "abort",
            script(dir.path(), "abort", "#!/bin/sh\nkill -ABRT $$\n"),
        ),
        (
            "killed",
            script(dir.path(), "kill", "#!/bin/sh\nkill -KILL $$\n"),
        ),
        (
            "Claude's form",
            script(
                dir.path(),
                "claude",
                "#!/bin/sh\necho '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\"}}'\nexit 2\n",
            ),
        ),
    ];
    for (agent, key, reason_key, event) in [
        ("gemini", "decision", "reason", gemini_event("ls")),
        (
            "copilot",
            "permissionDecision",
            "permissionDecisionReason",
            copilot_event("bash", json!({"command": "ls"})),
        ),
    ] {
        let line = hook_line(agent);
        // The real binary: a silent allow, and its own deny passed on.
        let r = bash_c(&line, &event, &ledger);
        assert_eq!((r.code, r.stdout.as_str()), (Some(0), ""), "{agent}: {r:?}");
        let live = if agent == "gemini" {
            gemini_event(LIVE)
        } else {
            copilot_event("bash", json!({"command": LIVE}))
        };
        let r = bash_c(&line, &live, &ledger);
        assert_eq!(r.code, Some(0), "{agent}: {r:?}");
        let v: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
        assert_eq!(v[key], "deny");
        assert!(
            v[reason_key]
                .as_str()
                .unwrap()
                .starts_with("heredoc-guard: line 2")
        );
        for (fault, binary) in &faults {
            let r = bash_c(&with_binary(&line, binary), &event, &ledger);
            assert_eq!(r.code, Some(0), "{agent} {fault}: {r:?}");
            let v: Value = serde_json::from_str(r.stdout.trim())
                .unwrap_or_else(|e| panic!("{agent} {fault}: not JSON ({e}): {:?}", r.stdout));
            assert_eq!(v[key], "deny", "{agent} {fault}");
            let reason = v[reason_key].as_str().unwrap();
            assert!(
                reason.contains("heredoc-guard"),
                "{agent} {fault}: {reason}"
            );
            if *fault == "missing" {
                assert!(
                    reason.contains(&format!(
                        "heredoc-guard is missing: {binary} does not exist"
                    )),
                    "{reason}"
                );
            }
        }
    }
}

#[test]
fn install_gemini_keeps_other_settings_doctor_passes_and_uninstall_gives_them_back() {
    let sb = Sandbox::new();
    let before = r#"{"model": {"name": "gemini-2.5-pro"}, "hooks": {"AfterTool": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#;
    let settings = sb.write(".gemini/settings.json", before);
    let r = sb.run(&["install", "gemini"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(after["model"]["name"], "gemini-2.5-pro");
    assert_eq!(
        after["hooks"]["AfterTool"][0]["hooks"][0]["command"],
        "true"
    );
    assert_eq!(
        after["hooks"]["BeforeTool"][0]["matcher"],
        "^run_shell_command$"
    );
    let r = sb.run(&["install", "gemini"]);
    assert!(r.stdout.contains("nothing changed"), "{}", r.stdout);
    let r = sb.run_with(
        &["doctor", "gemini"],
        b"",
        &[("GEMINI_CLI_TRUST_WORKSPACE", "true")],
    );
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("live probe through `bash -c`, as Gemini CLI runs it"),
        "{}",
        r.stdout
    );
    // Hooks switched off in the user's settings: doctor fails and says where.
    let mut off = after.clone();
    off["hooksConfig"] = json!({"enabled": false});
    std::fs::write(&settings, off.to_string()).unwrap();
    let r = sb.run_with(
        &["doctor", "gemini"],
        b"",
        &[("GEMINI_CLI_TRUST_WORKSPACE", "true")],
    );
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("hooksConfig.enabled to false"),
        "{}",
        r.stdout
    );
    std::fs::write(&settings, after.to_string()).unwrap();
    // Untrusted folder: a warning naming it.
    let r = sb.run(&["doctor", "gemini"]);
    assert!(
        r.stdout.contains("Gemini CLI does not trust this folder"),
        "{}",
        r.stdout
    );
    sb.write(
        ".gemini/trustedFolders.json",
        &json!({sb.home().join("work").to_str().unwrap(): "TRUST_FOLDER"}).to_string(),
    );
    let r = sb.run(&["doctor", "gemini"]);
    assert!(
        r.stdout.contains("Gemini CLI trusts this folder"),
        "{}",
        r.stdout
    );
    let r = sb.run(&["uninstall", "gemini"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let back: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(back, serde_json::from_str::<Value>(before).unwrap());
    let r = sb.run(&["doctor", "gemini"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
}

#[test]
fn doctor_gemini_fails_a_hook_without_the_gemini_launcher() {
    let sb = Sandbox::new();
    let line = crate::support::launcher(&format!("'{}'", sb.guard().display()));
    sb.write(
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": line}]}]}})
        .to_string(),
    );
    let r = sb.run_with(
        &["doctor", "gemini"],
        b"",
        &[("GEMINI_CLI_TRUST_WORKSPACE", "true")],
    );
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("not inside the launcher for Gemini CLI"),
        "{}",
        r.stdout
    );
}

#[test]
fn install_copilot_writes_its_own_hook_file_doctor_finds_a_repository_s_claude_settings_and_uninstall_removes_it()
 {
    let sb = Sandbox::new();
    let r = sb.run(&["install", "copilot"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let file = sb.home().join(".copilot/hooks/heredoc-guard.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(
        v["hooks"]["preToolUse"][0]["bash"]
            .as_str()
            .unwrap()
            .contains("--agent copilot")
    );
    let r = sb.run(&["doctor", "copilot"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    // A repository whose shared Claude settings run heredoc-guard: Copilot reads them too.
    std::fs::create_dir_all(sb.home().join("work/.git")).unwrap();
    assert_eq!(
        sb.run(&["install", "claude", "--project", "--shared"]).code,
        Some(0)
    );
    let r = sb.run(&["doctor", "copilot"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("work/.claude/settings.json: Claude-style PreToolUse hook"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("heredoc-guard runs 2 times"),
        "{}",
        r.stdout
    );
    let r = sb.run(&["uninstall", "copilot"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(!file.exists());
    let r = sb.run(&["uninstall", "copilot"]);
    assert!(r.stdout.contains("nothing changed"), "{}", r.stdout);
}
