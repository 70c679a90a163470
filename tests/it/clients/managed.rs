//! The managed (system-wide) install in the real clients. Every run here has a mount
//! namespace of its own with an overlay on `/etc` whose writes land in the test's HOME
//! (`Home::isolate_etc`), so the machine's `/etc` is never touched: `install claude
//! --managed` writes `/etc/claude-code/managed-settings.d/heredoc-guard.json` and `install
//! codex --managed` writes `/etc/codex/requirements.toml` there. With no user settings at
//! all, the clients deny a live heredoc; a user-level uninstall, or a user settings file
//! edited to switch hooks off, does not switch the managed hook off.

use std::path::Path;

use super::claude::{assert_turn_completed, bash, claude};
use super::codex::{CONFIG, codex, exec};
use super::{Home, ledger_rules, live_heredoc};

const CLAUDE_DROPIN: &str = "claude-code/managed-settings.d/heredoc-guard.json";
const CODEX_REQUIREMENTS: &str = "codex/requirements.toml";

/// A HOME whose isolated runs see their own `/etc`, where `args` (an install) ran.
fn managed(args: &[&str]) -> Home {
    let home = Home::new().isolate_etc();
    let r = home.guard_cmd(args);
    assert_eq!(r.code, Some(0), "{args:?}: {r:?}");
    home
}

/// The machine's own `/etc` holds none of it.
fn assert_machine_etc_untouched() {
    for p in [
        "/etc/claude-code/managed-settings.d/heredoc-guard.json",
        "/etc/codex/requirements.toml",
    ] {
        let text = std::fs::read_to_string(p).unwrap_or_default();
        assert!(
            !text.contains("heredoc-guard"),
            "{p} on the machine holds heredoc-guard"
        );
    }
}

fn claude_denies_a_live_heredoc(home: &Home, when: &str) {
    let _ = std::fs::remove_file(home.canary());
    let before = ledger_rules(home).len();
    let run = claude(home, "Bash", bash(&live_heredoc(home)));
    assert_turn_completed(&run, when);
    assert!(
        !home.canary().exists(),
        "{when}: Claude Code ran a live heredoc"
    );
    let rules = ledger_rules(home);
    assert_eq!(rules.len(), before + 1, "{when}: {rules:?}");
    assert_eq!(
        rules.last().map(String::as_str),
        Some("heredoc-command-substitution")
    );
}

fn codex_denies_a_live_heredoc(home: &Home, when: &str) {
    let _ = std::fs::remove_file(home.canary());
    let before = ledger_rules(home).len();
    let run = codex(home, "exec_command", exec(&live_heredoc(home)), false);
    assert_turn_completed(&run, when);
    assert!(!home.canary().exists(), "{when}: Codex ran a live heredoc");
    let rules = ledger_rules(home);
    assert!(rules.len() > before, "{when}: {rules:?}");
    assert_eq!(
        rules.last().map(String::as_str),
        Some("heredoc-command-substitution"),
        "{when}"
    );
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn claude_managed_hook_denies_with_no_user_settings_and_survives_user_uninstall_and_disable_all_hooks()
 {
    let home = managed(&["install", "claude", "--managed"]);
    let dropin = home.etc_file(CLAUDE_DROPIN);
    let text = std::fs::read_to_string(&dropin).expect("the drop-in, in the overlay");
    assert!(text.contains("onFailure"), "{text}");
    assert!(!text.contains("allowManagedHooksOnly"), "{text}");
    assert_machine_etc_untouched();
    assert!(!home.path().join(".claude/settings.json").exists());

    claude_denies_a_live_heredoc(&home, "managed, no user settings");
    let touch = format!("touch {}", home.canary().display());
    let run = claude(&home, "Bash", bash(&touch));
    assert_turn_completed(&run, "plain");
    assert!(home.canary().exists(), "a plain command did not run");

    // A user-level install and uninstall leave the managed hook in force.
    for args in [&["install", "claude"][..], &["uninstall", "claude"]] {
        let r = home.guard_cmd(args);
        assert_eq!(r.code, Some(0), "{args:?}: {r:?}");
    }
    let r = home.guard_cmd(&["uninstall", "claude"]);
    assert!(
        r.stdout
            .contains("sudo heredoc-guard uninstall claude --managed"),
        "{}",
        r.stdout
    );
    claude_denies_a_live_heredoc(&home, "after a user-level uninstall");

    // A user settings file edited to switch every hook off does not switch it off.
    let settings = home.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, r#"{"disableAllHooks": true, "hooks": {}}"#).unwrap();
    claude_denies_a_live_heredoc(&home, "user settings with disableAllHooks");

    // doctor, as the user, finds the managed hook and probes it.
    let r = home.guard_cmd(&["doctor", "claude"]);
    assert!(r.stdout.contains("/etc/claude-code"), "{}", r.stdout);
    assert!(r.stdout.contains("live probe"), "{}", r.stdout);

    // Only root removes it; then Claude Code runs the heredoc.
    let r = home.guard_cmd(&["uninstall", "claude", "--managed"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(!dropin.exists());
    std::fs::remove_file(&settings).unwrap();
    let _ = std::fs::remove_file(home.canary());
    let run = claude(&home, "Bash", bash(&live_heredoc(&home)));
    assert_turn_completed(&run, "after uninstall --managed");
    assert!(home.canary().exists(), "nothing should guard it any more");
    assert_machine_etc_untouched();
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn claude_managed_hook_survives_a_project_s_disable_all_hooks() {
    let home = managed(&["install", "claude", "--managed"]);
    // The file that switches a user-level install off (clients/claude.rs).
    let settings = home.work().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, r#"{"disableAllHooks": true}"#).unwrap();
    claude_denies_a_live_heredoc(&home, "project settings with disableAllHooks");
    // doctor names the file, and says the managed hook still runs.
    let r = home.guard_cmd(&["doctor", "claude"]);
    assert!(
        r.stdout.contains("work/.claude/settings.json")
            && r.stdout
                .contains("the managed heredoc-guard hook still runs"),
        "{}",
        r.stdout
    );
    assert_machine_etc_untouched();
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn claude_managed_only_ignores_a_user_hook() {
    let home = managed(&["install", "claude", "--managed", "--managed-only"]);
    let text = std::fs::read_to_string(home.etc_file(CLAUDE_DROPIN)).unwrap();
    assert!(text.contains("\"allowManagedHooksOnly\": true"), "{text}");
    // A user hook that would leave a mark: ignored under allowManagedHooksOnly.
    let mark = home.path().join("user-hook-ran");
    let settings = home.path().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let user = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("touch {}", mark.display())}]}]}});
    std::fs::write(&settings, user.to_string()).unwrap();
    claude_denies_a_live_heredoc(&home, "managed only");
    assert!(
        !mark.exists(),
        "the user's hook ran under allowManagedHooksOnly"
    );
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn codex_managed_hook_denies_untrusted_by_the_user_and_survives_user_uninstall_and_edited_config() {
    let home = Home::new().isolate_etc();
    std::fs::create_dir_all(home.path().join(".codex")).unwrap();
    let config = home.path().join(".codex/config.toml");
    std::fs::write(&config, CONFIG).unwrap();
    let r = home.guard_cmd(&["install", "codex", "--managed"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let requirements = home.etc_file(CODEX_REQUIREMENTS);
    let text = std::fs::read_to_string(&requirements).expect("requirements.toml in the overlay");
    assert!(text.contains("[[hooks.PreToolUse]]"), "{text}");
    assert_machine_etc_untouched();
    // No hooks.json, no trust entry: the managed hook needs neither.
    assert!(!home.path().join(".codex/hooks.json").exists());
    assert_eq!(std::fs::read_to_string(&config).unwrap(), CONFIG);

    codex_denies_a_live_heredoc(&home, "managed, no user hooks");
    let touch = format!("touch {}", home.canary().display());
    let run = codex(&home, "exec_command", exec(&touch), false);
    assert_turn_completed(&run, "plain");
    assert!(home.canary().exists(), "a plain command did not run");

    for args in [&["install", "codex"][..], &["uninstall", "codex"]] {
        let r = home.guard_cmd(args);
        assert_eq!(r.code, Some(0), "{args:?}: {r:?}");
    }
    codex_denies_a_live_heredoc(&home, "after a user-level uninstall");

    // The user's config edited to switch hooks off.
    std::fs::write(&config, format!("{CONFIG}\n[features]\nhooks = false\n")).unwrap();
    codex_denies_a_live_heredoc(&home, "user config with features.hooks = false");

    let r = home.guard_cmd(&["doctor", "codex"]);
    assert!(r.stdout.contains("requirements.toml"), "{}", r.stdout);

    let r = home.guard_cmd(&["uninstall", "codex", "--managed"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(!requirements.exists(), "{r:?}");
    assert_machine_etc_untouched();
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn codex_managed_only_keeps_the_admin_s_requirements_and_uninstall_gives_them_back() {
    let home = Home::new().isolate_etc();
    std::fs::create_dir_all(home.path().join(".codex")).unwrap();
    std::fs::write(home.path().join(".codex/config.toml"), CONFIG).unwrap();
    let admin = "# the admin's own\nallowed_sandbox_modes = [\"read-only\", \"workspace-write\", \"danger-full-access\"]\n";
    let requirements = home.etc_file(CODEX_REQUIREMENTS);
    std::fs::create_dir_all(requirements.parent().unwrap()).unwrap();
    std::fs::write(&requirements, admin).unwrap();
    // A user hook, installed and trusted first: without managed-only, both hooks run and
    // each deny is recorded twice.
    let r = home.guard_cmd(&["install", "codex"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let r = home.guard_cmd(&["install", "codex", "--managed"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    codex_denies_a_live_heredoc(&home, "managed and user");
    assert_eq!(ledger_rules(&home).len(), 2, "both hooks ran");
    let r = home.guard_cmd(&["install", "codex", "--managed", "--managed-only"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let text = std::fs::read_to_string(&requirements).unwrap();
    assert!(text.starts_with(admin), "{text}");
    assert!(text.contains("allow_managed_hooks_only = true"), "{text}");
    codex_denies_a_live_heredoc(&home, "managed only");
    assert_eq!(
        ledger_rules(&home).len(),
        3,
        "the user's hook ran too under allow_managed_hooks_only"
    );
    // A user-level install now says why it does not trust its hook.
    let r = home.guard_cmd(&["install", "codex"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stdout.contains("allow_managed_hooks_only"),
        "{}",
        r.stdout
    );
    let r = home.guard_cmd(&["uninstall", "codex", "--managed"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert_eq!(std::fs::read_to_string(&requirements).unwrap(), admin);
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn a_managed_install_as_a_user_says_it_needs_root_and_writes_nothing() {
    let home = Home::new().isolate_etc();
    let guard = crate::support::guard_path();
    if !Path::new("/usr/bin/setpriv").exists() && !Path::new("/bin/setpriv").exists() {
        panic!("setpriv (util-linux) is needed to run as a user");
    }
    for (agent, dir) in [("claude", "claude-code"), ("codex", "codex")] {
        let run = home.run_isolated(
            &[
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                guard,
                "install",
                agent,
                "--managed",
            ],
            &[],
            None,
        );
        let r = run.run;
        assert_eq!(r.code, Some(1), "{agent}: {r:?}");
        assert!(
            r.stderr.contains("needs root") && r.stderr.contains("sudo"),
            "{agent}: {}",
            r.stderr
        );
        assert!(!home.etc_file(dir).exists(), "{agent} wrote to /etc");
    }
}
