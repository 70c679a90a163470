//! The npm channel, end to end, on this machine and nothing else: `npm/pack` lays out the
//! main package and this platform's package around the built guard; a real npm registry
//! (verdaccio from npm, installed in the test's own folder, no uplinks) serves them on
//! loopback; `npm install -g heredoc-guard` goes into an empty prefix; `heredoc-guard
//! install claude` and `install codex` run from there; the real clients deny a live heredoc
//! and run a plain command; `npm uninstall -g` removes the binary, and `doctor` says the
//! hook points at a file that is gone (and Claude Code blocks, saying so).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::claude::{assert_turn_completed, bash, claude};
use super::codex::{CONFIG, codex, exec};
use super::{Home, MISSING, ledger_rules, live_heredoc};
use crate::support::{Run, run_command};

/// verdaccio 6.8.0 runs on node 20 with node-fetch held at 2.7.0 (../shared/protocols.md).
const REGISTRY_PACKAGE: &str = r#"{"private": true, "dependencies": {"verdaccio": "6.8.0"}, "overrides": {"node-fetch": "2.7.0"}}"#;

/// Serves only what is published to it: no uplinks, anyone may publish (after adduser).
const REGISTRY_CONFIG: &str = "storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
uplinks: {}
packages:
  '@*/*':
    access: $all
    publish: $all
  '**':
    access: $all
    publish: $all
max_body_size: 500mb
log: { type: stdout, format: pretty, level: warn }
";

/// A verdaccio on 127.0.0.1, stopped (killed and reaped) when dropped.
struct Registry {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Drop for Registry {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Registry {
    /// Installs verdaccio into `dir` (from npm's cache after the first time) and starts it.
    fn start(dir: &Path) -> Registry {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("package.json"), REGISTRY_PACKAGE).unwrap();
        std::fs::write(dir.join("config.yaml"), REGISTRY_CONFIG).unwrap();
        let status = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(dir)
            .status()
            .expect("npm (node and npm must be installed)");
        assert!(status.success(), "npm install verdaccio failed");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap();
        let log = std::fs::File::create(dir.join("verdaccio.log")).unwrap();
        let child = Command::new(dir.join("node_modules/.bin/verdaccio"))
            .arg("--config")
            .arg(dir.join("config.yaml"))
            .arg("--listen")
            .arg(format!("127.0.0.1:{port}"))
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("start verdaccio");
        let registry = Registry {
            child,
            port,
            dir: dir.to_owned(),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while http(port, "GET", "/-/ping", "").is_none_or(|r| !r.starts_with("HTTP/1.1 200")) {
            assert!(
                Instant::now() < deadline,
                "verdaccio did not answer: {}",
                std::fs::read_to_string(dir.join("verdaccio.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        registry
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Adds a user and writes an npmrc with its token and this registry; returns its path.
    fn npmrc(&self) -> PathBuf {
        let body = r#"{"name":"ci","password":"ci-password-1"}"#;
        let response =
            http(self.port, "PUT", "/-/user/org.couchdb.user:ci", body).expect("verdaccio adduser");
        let token = response
            .split("\"token\":")
            .nth(1)
            .and_then(|t| t.trim_start().strip_prefix('"'))
            .and_then(|t| t.split('"').next())
            .unwrap_or_else(|| panic!("no token in {response}"))
            .to_owned();
        let path = self.dir.join("npmrc");
        std::fs::write(
            &path,
            format!(
                "registry={}\n//127.0.0.1:{}/:_authToken={token}\nupdate-notifier=false\nfund=false\naudit=false\n",
                self.url(),
                self.port
            ),
        )
        .unwrap();
        path
    }
}

/// One HTTP/1.1 request to 127.0.0.1:`port`; the whole response, or `None`.
fn http(port: u16, method: &str, path: &str, body: &str) -> Option<String> {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(20))).ok()?;
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    Some(out)
}

/// `npm ARGS` with the registry's npmrc and a cache of the test's own.
fn npm(npmrc: &Path, cache: &Path, args: &[&str], dir: &Path) -> Run {
    let mut command = Command::new("npm");
    command
        .args(args)
        .current_dir(dir)
        .env("npm_config_userconfig", npmrc)
        .env("npm_config_cache", cache)
        .env("npm_config_update_notifier", "false");
    run_command(command, b"")
}

/// npm's name for this platform (`process.platform`-`process.arch`), as npm/pack names
/// the package.
fn npm_platform() -> String {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        other => other,
    };
    let cpu = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    format!("{os}-{cpu}")
}

/// The first bytes of an ELF executable: the file is the native binary, not a script.
fn is_elf(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|b| b.starts_with(b"\x7fELF"))
}

#[test]
#[cfg_attr(
    not(client_tests),
    ignore = "real clients: set HEREDOC_GUARD_CLIENT_TESTS=1"
)]
fn npm_install_g_from_a_loopback_registry_guards_both_clients_and_npm_uninstall_leaves_doctor_saying_so()
 {
    let started = Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let dist = tmp.path().join("dist");
    let pack = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("npm/pack"))
        .arg("--binary")
        .arg(crate::support::guard_path())
        .arg("--out")
        .arg(&dist)
        .output()
        .expect("npm/pack");
    assert!(
        pack.status.success(),
        "npm/pack: {}",
        String::from_utf8_lossy(&pack.stderr)
    );
    let version = env!("CARGO_PKG_VERSION");
    let platform = npm_platform();
    let platform_tgz = dist.join(format!("npm/heredoc-guard-{platform}-{version}.tgz"));
    let main_tgz = dist.join(format!("npm/heredoc-guard-{version}.tgz"));
    assert!(platform_tgz.exists() && main_tgz.exists(), "{pack:?}");

    let registry = Registry::start(&tmp.path().join("registry"));
    let npmrc = registry.npmrc();
    let cache = tmp.path().join("npm-cache");
    for tgz in [&platform_tgz, &main_tgz] {
        let r = npm(
            &npmrc,
            &cache,
            &["publish", tgz.to_str().unwrap()],
            tmp.path(),
        );
        assert_eq!(r.code, Some(0), "npm publish {}: {r:?}", tgz.display());
    }

    // An empty prefix inside the throwaway HOME, first on its PATH.
    let home = Home::with_bin("npm-global/bin");
    let prefix = home.path().join("npm-global");
    let r = npm(
        &npmrc,
        &cache,
        &[
            "install",
            "-g",
            "--prefix",
            prefix.to_str().unwrap(),
            "heredoc-guard",
        ],
        tmp.path(),
    );
    assert_eq!(r.code, Some(0), "npm install -g heredoc-guard: {r:?}");
    let on_path = home.guard();
    let native = std::fs::canonicalize(&on_path).expect("heredoc-guard on the prefix's PATH");
    assert!(
        is_elf(&native),
        "{} is not the native binary",
        native.display()
    );
    assert_eq!(
        std::fs::read(&native).unwrap(),
        std::fs::read(crate::support::guard_path()).unwrap(),
        "the installed binary is not the one packed"
    );
    assert!(native.starts_with(&prefix), "{}", native.display());

    // Without install scripts (--ignore-scripts, or an npm that asks before running them)
    // the bin is a sh stand-in that execs the platform binary: install still writes the
    // native binary's own path.
    let bare = tmp.path().join("no-scripts");
    let r = npm(
        &npmrc,
        &cache,
        &[
            "install",
            "-g",
            "--ignore-scripts",
            "--prefix",
            bare.to_str().unwrap(),
            "heredoc-guard",
        ],
        tmp.path(),
    );
    assert_eq!(r.code, Some(0), "npm install -g --ignore-scripts: {r:?}");
    let mut config = Command::new(bare.join("bin/heredoc-guard"));
    config.args(["config", "claude"]).env("HOME", tmp.path());
    let r = run_command(config, b"");
    assert_eq!(r.code, Some(0), "{r:?}");
    let platform_binary = std::fs::canonicalize(bare.join(format!(
        "lib/node_modules/heredoc-guard/node_modules/@heredoc-guard/{platform}/bin/heredoc-guard"
    )))
    .expect("the platform package's binary");
    assert!(is_elf(&platform_binary));
    assert!(
        r.stdout
            .contains(&format!("'{}'", platform_binary.display())),
        "{}",
        r.stdout
    );

    std::fs::create_dir_all(home.path().join(".codex")).unwrap();
    std::fs::write(home.path().join(".codex/config.toml"), CONFIG).unwrap();
    for agent in ["claude", "codex"] {
        let r = home.guard_cmd(&["install", agent]);
        assert_eq!(r.code, Some(0), "install {agent}: {r:?}");
    }
    // The hooks run the native binary by its path: no node, no script in between.
    let native_text = native.to_str().unwrap();
    for file in [".claude/settings.json", ".codex/hooks.json"] {
        let text = std::fs::read_to_string(home.path().join(file)).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let command = v["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert_eq!(
            heredoc_guard_config_binary(&command).as_deref(),
            Some(native_text),
            "{file}: {command}"
        );
        assert!(
            !command.contains("node ") && !command.contains("npx"),
            "{file}: {command}"
        );
    }

    // Claude Code: the live heredoc is denied, the plain command runs.
    let run = claude(&home, "Bash", bash(&live_heredoc(&home)));
    assert_turn_completed(&run, "claude deny");
    assert!(!home.canary().exists(), "claude ran the denied command");
    assert_eq!(ledger_rules(&home), ["heredoc-command-substitution"]);
    let touch = format!("touch {}", home.canary().display());
    let run = claude(&home, "Bash", bash(&touch));
    assert_turn_completed(&run, "claude plain");
    assert!(home.canary().exists(), "claude did not run: {:?}", run.run);
    std::fs::remove_file(home.canary()).unwrap();

    // Codex: the same.
    let run = codex(&home, "exec_command", exec(&live_heredoc(&home)), false);
    assert_turn_completed(&run, "codex deny");
    assert!(!home.canary().exists(), "codex ran the denied command");
    assert_eq!(ledger_rules(&home).len(), 2, "{:?}", ledger_rules(&home));
    let run = codex(&home, "exec_command", exec(&touch), false);
    assert_turn_completed(&run, "codex plain");
    assert!(home.canary().exists(), "codex did not run: {:?}", run.run);
    std::fs::remove_file(home.canary()).unwrap();

    // The Claude Code plugin's hook (heredoc-guard from PATH) finds the npm binary.
    let plugin_hook = plugin_hook_command();
    let live = crate::support::claude_event(&live_heredoc(&home));
    let r = run_plugin_hook(&plugin_hook, &home, &live);
    assert!(crate::support::deny_reason(&r).is_ok(), "{r:?}");

    // npm uninstall -g: the binary the hooks name is gone, and doctor says so.
    let r = npm(
        &npmrc,
        &cache,
        &[
            "uninstall",
            "-g",
            "--prefix",
            prefix.to_str().unwrap(),
            "heredoc-guard",
        ],
        tmp.path(),
    );
    assert_eq!(r.code, Some(0), "npm uninstall -g: {r:?}");
    assert!(!native.exists() && !on_path.exists());
    let doctor = home
        .run_isolated(&[crate::support::guard_path(), "doctor"], &[], None)
        .run;
    assert_eq!(doctor.code, Some(1), "{doctor:?}");
    let gone = format!("{native_text} is not an executable file");
    for agent in ["claude", "codex"] {
        assert!(
            doctor
                .stdout
                .lines()
                .any(|l| l.starts_with(&format!("  Error: {agent}: ")) && l.contains(&gone)),
            "doctor must name the missing binary for {agent}: {}",
            doctor.stdout
        );
    }
    assert!(
        doctor.stdout.contains("npm install -g heredoc-guard"),
        "{}",
        doctor.stdout
    );
    // And the client blocks every command, saying what is missing.
    let run = claude(&home, "Bash", bash(&touch));
    assert_turn_completed(&run, "claude after npm uninstall");
    assert!(!home.canary().exists(), "a hook with no binary let it run");
    assert!(
        run.strings_sent_back()
            .iter()
            .any(|s| s.contains(MISSING) && s.contains(native_text)),
        "{:?}",
        run.strings_sent_back()
    );
    // The plugin's hook says what is missing and how to install it.
    let r = run_plugin_hook(&plugin_hook, &home, &live);
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(
        r.stderr.contains("heredoc-guard was not found on PATH")
            && r.stderr.contains("npm install -g heredoc-guard"),
        "{}",
        r.stderr
    );
    drop(registry);
    eprintln!("npm channel: {:.0?}", started.elapsed());
}

/// The binary a hook command's launcher runs.
fn heredoc_guard_config_binary(command: &str) -> Option<String> {
    let quoted = command.rsplit_once("' ")?.1;
    let unquoted = quoted.strip_prefix('\'')?.strip_suffix('\'')?;
    Some(unquoted.replace(r"'\''", "'"))
}

/// The command of the plugin's hook (hooks/hooks.json).
fn plugin_hook_command() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("hooks/hooks.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Runs a hook command as Claude Code does (`sh -c`), with the HOME's PATH.
fn run_plugin_hook(command: &str, home: &Home, event: &[u8]) -> Run {
    let mut c = Command::new("sh");
    c.arg("-c").arg(command);
    home.env(&mut c);
    run_command(c, event)
}
