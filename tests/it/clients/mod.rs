//! The real-client suite: Claude Code, Codex, Gemini CLI and Copilot CLI, installed from npm
//! at pinned versions, each driven offline inside a network namespace that holds only
//! loopback, in a throwaway HOME set up by `heredoc-guard install`: Claude Code, Codex and
//! Copilot CLI by a mock model server (`mock-model.mjs`, one tool call, then plain text),
//! Gemini CLI by its own fake-responses file. The oracle for "the command ran" is a canary
//! file on disk, never the client's exit status.
//!
//! Opt-in for a plain `cargo test`: set `HEREDOC_GUARD_CLIENT_TESTS=1` (read by build.rs,
//! which then compiles these tests in as not ignored). `.ci/run` always sets it. The npm
//! installs are cached in `HEREDOC_GUARD_CLIENT_CACHE` (default
//! `~/.cache/heredoc-guard/clients`).

mod claude;
mod codex;
mod copilot;
mod gemini;
mod lifecycle;
mod managed;
mod npm;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::support::{Run, run_command};

pub const CLAUDE_PACKAGE: &str = "@anthropic-ai/claude-code";
pub const CLAUDE_VERSION: &str = "2.1.328";
pub const CODEX_PACKAGE: &str = "@openai/codex";
pub const CODEX_VERSION: &str = "0.169.0";
pub const GEMINI_PACKAGE: &str = "@google/gemini-cli";
pub const GEMINI_VERSION: &str = "0.61.0";
pub const COPILOT_PACKAGE: &str = "@github/copilot";
pub const COPILOT_VERSION: &str = "1.0.102";
/// The mock's port: each run has a network namespace of its own, so it never collides.
pub const PORT: u16 = 18080;

/// The directories holding the clients' launchers.
pub struct Clients {
    pub claude_bin: PathBuf,
    pub codex_bin: PathBuf,
    pub gemini_bin: PathBuf,
    pub copilot_bin: PathBuf,
}

fn cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HEREDOC_GUARD_CLIENT_CACHE").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache"));
    base.join("heredoc-guard/clients")
}

/// `npm install`s `package@version` into the cache once; returns its `.bin` directory.
fn npm_install(package: &str, version: &str, bin: &str) -> PathBuf {
    let name = format!(
        "{}-{version}",
        package.trim_start_matches('@').replace('/', "-")
    );
    let dir = cache_dir().join(&name);
    let bin_dir = dir.join("node_modules/.bin");
    if bin_dir.join(bin).exists() {
        return bin_dir;
    }
    let tmp = cache_dir().join(format!(".{name}.{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("cache dir");
    let status = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--prefix",
        ])
        .arg(&tmp)
        .arg(format!("{package}@{version}"))
        .status()
        .expect("npm (node and npm must be installed)");
    assert!(status.success(), "npm install {package}@{version} failed");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&tmp, &dir).expect("move the npm install into the cache");
    assert!(
        bin_dir.join(bin).exists(),
        "{bin} missing after npm install"
    );
    bin_dir
}

/// Every client, installed once per test run.
pub fn clients() -> &'static Clients {
    static CLIENTS: OnceLock<Clients> = OnceLock::new();
    CLIENTS.get_or_init(|| Clients {
        claude_bin: npm_install(CLAUDE_PACKAGE, CLAUDE_VERSION, "claude"),
        codex_bin: npm_install(CODEX_PACKAGE, CODEX_VERSION, "codex"),
        gemini_bin: npm_install(GEMINI_PACKAGE, GEMINI_VERSION, "gemini"),
        copilot_bin: npm_install(COPILOT_PACKAGE, COPILOT_VERSION, "copilot"),
    })
}

/// Where Copilot CLI unpacks itself on its first run (about 235 MB): kept in the cache and
/// shared by every run, as `XDG_CACHE_HOME`; unpacked here once (`copilot --version`), so
/// that runs in parallel never unpack it at the same time.
pub fn copilot_xdg_cache() -> PathBuf {
    static UNPACKED: OnceLock<PathBuf> = OnceLock::new();
    UNPACKED
        .get_or_init(|| {
            let dir = cache_dir().join("copilot-xdg-cache");
            std::fs::create_dir_all(&dir).expect("copilot cache dir");
            let status = Command::new(clients().copilot_bin.join("copilot"))
                .arg("--version")
                .env("XDG_CACHE_HOME", &dir)
                .env("COPILOT_AUTO_UPDATE", "false")
                .stdout(std::process::Stdio::null())
                .status()
                .expect("copilot --version");
            assert!(status.success(), "copilot --version failed: {status}");
            dir
        })
        .clone()
}

/// A throwaway HOME with a copy of the guard in `bin/` (so a test can replace it with a
/// faulty binary), a `work/` directory the client runs in, and the canary's path.
pub struct Home {
    pub dir: tempfile::TempDir,
    /// The first directory on PATH, where `heredoc-guard` is: `bin/` (a copy of the built
    /// guard), or an npm prefix's `bin/`.
    bin: PathBuf,
    /// With [`Home::isolate_etc`]: the directory holding the overlay's upper and work
    /// directories; every isolated run then mounts the overlay over `/etc`, so that what a
    /// run writes to `/etc` lands here.
    etc: Option<PathBuf>,
}

impl Home {
    pub fn new() -> Home {
        let home = Home::with_bin("bin");
        crate::support::place_guard(&home.guard());
        home
    }

    /// A HOME whose PATH starts with `bin` (relative to it), created empty.
    pub fn with_bin(bin: &str) -> Home {
        let dir = tempfile::tempdir().expect("tempdir");
        let bin = dir.path().join(bin);
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        Home {
            dir,
            bin,
            etc: None,
        }
    }

    /// Every isolated run from now on also gets a mount namespace of its own, with an
    /// overlay on `/etc` whose writes go to `etc/upper` in this HOME: a managed install
    /// writes its system files there, and the machine's `/etc` is never touched.
    pub fn isolate_etc(mut self) -> Home {
        for d in ["etc/upper", "etc/work"] {
            std::fs::create_dir_all(self.path().join(d)).unwrap();
        }
        self.etc = Some(self.path().join("etc"));
        self
    }

    /// Where a file written to `/etc/<rel>` in an isolated run is.
    pub fn etc_file(&self, rel: &str) -> PathBuf {
        self.etc
            .as_ref()
            .expect("isolate_etc")
            .join("upper")
            .join(rel)
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn guard(&self) -> PathBuf {
        self.bin.join("heredoc-guard")
    }

    pub fn work(&self) -> PathBuf {
        self.path().join("work")
    }

    pub fn canary(&self) -> PathBuf {
        self.work().join("canary")
    }

    pub fn ledger(&self) -> PathBuf {
        self.path().join(".local/state/heredoc-guard/ledger.jsonl")
    }

    /// The environment every run in this HOME gets (nothing else leaks in).
    pub fn env(&self, command: &mut Command) {
        let c = clients();
        let path = std::env::join_paths([
            self.bin.clone(),
            c.claude_bin.clone(),
            c.codex_bin.clone(),
            c.gemini_bin.clone(),
            c.copilot_bin.clone(),
            PathBuf::from("/usr/local/bin"),
            PathBuf::from("/usr/bin"),
            PathBuf::from("/bin"),
            PathBuf::from("/usr/sbin"),
            PathBuf::from("/sbin"),
        ])
        .unwrap();
        command
            .env_clear()
            .env("HOME", self.path())
            .env("PATH", path)
            .env("SHELL", "/bin/bash")
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("CODEX_HOME", self.path().join(".codex"))
            .env("GEMINI_CLI_HOME", self.path())
            .env("COPILOT_HOME", self.path().join(".copilot"))
            .current_dir(self.work());
    }

    /// Runs `args` (a program and its arguments) in this HOME inside a network namespace
    /// holding only loopback; with `scenario`, the mock model server runs there too.
    pub fn run_isolated(
        &self,
        args: &[&str],
        extra_env: &[(&str, &str)],
        scenario: Option<&serde_json::Value>,
    ) -> Isolated {
        let log = self.path().join(format!("requests-{}.jsonl", unique()));
        let mut command = Command::new("unshare");
        command.arg(match (is_root(), self.etc.is_some()) {
            (true, false) => "-n",
            (false, false) => "-rn",
            (true, true) => "-nm",
            (false, true) => "-rnm",
        });
        command.args(["bash", "-c", RUNNER, "runner"]);
        match scenario {
            Some(s) => {
                let file = self.path().join(format!("scenario-{}.json", unique()));
                std::fs::write(&file, s.to_string()).unwrap();
                command.arg(mock_script()).arg(&file).arg(&log);
            }
            None => {
                command.args(["-", "-", "-"]);
            }
        }
        command.arg(PORT.to_string()).arg("--").args(args);
        self.env(&mut command);
        for (k, v) in extra_env {
            command.env(k, v);
        }
        if let Some(etc) = &self.etc {
            command
                .env("HG_ETC_UPPER", etc.join("upper"))
                .env("HG_ETC_WORK", etc.join("work"));
        }
        let run = run_command(command, b"");
        let requests = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        Isolated { run, requests }
    }

    /// `heredoc-guard ARGS` from this HOME's copy, isolated (install talks to codex).
    pub fn guard_cmd(&self, args: &[&str]) -> Run {
        let guard = self.guard();
        let mut all = vec![guard.to_str().unwrap()];
        all.extend_from_slice(args);
        self.run_isolated(&all, &[], None).run
    }
}

/// One isolated run: what the program gave back and every request the mock received.
pub struct Isolated {
    pub run: Run,
    pub requests: Vec<serde_json::Value>,
}

impl Isolated {
    /// Every string anywhere in the requests the client sent after the first one.
    pub fn strings_sent_back(&self) -> Vec<String> {
        let mut out = Vec::new();
        for r in self.requests.iter().skip(1) {
            collect_strings(&r["body"], &mut out);
        }
        out
    }
}

pub fn collect_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

/// Inside the namespace: mount the overlay on /etc when asked (a mount namespace of its
/// own), bring loopback up, start the mock (unless its script is `-`), wait until it
/// listens, run the program (3 minutes at most), stop the mock.
const RUNNER: &str = r#"
set -u
mock=$1 scenario=$2 log=$3 port=$4; shift 5
if [ -n "${HG_ETC_UPPER:-}" ]; then
  mount --make-rprivate / || exit 92
  mount -t overlay overlay -o "lowerdir=/etc,upperdir=$HG_ETC_UPPER,workdir=$HG_ETC_WORK" /etc || exit 92
fi
unset HG_ETC_UPPER HG_ETC_WORK
ip link set lo up || exit 90
mpid=
if [ "$mock" != - ]; then
  ready="$log.ready"
  node "$mock" "$scenario" "$log" "$ready" "$port" &
  mpid=$!
  for _ in $(seq 400); do [ -e "$ready" ] && break; sleep 0.05; done
  [ -e "$ready" ] || { echo "mock model server did not start" >&2; exit 91; }
fi
timeout 180 "$@"; rc=$?
[ -n "$mpid" ] && { kill "$mpid" 2>/dev/null; wait "$mpid" 2>/dev/null; }
exit $rc
"#;

fn mock_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/clients/mock-model.mjs")
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// The reason the guard gives for `command` (computed by the built binary), to look for
/// in what the client sent back to the model.
pub fn reason_for(command: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let r = crate::support::run(
        &crate::support::claude_event(command),
        &dir.path().join("l"),
    );
    crate::support::deny_reason(&r).expect("the guard denies the case's command")
}

/// Replaces the HOME's guard with a faulty stand-in (`None`: removes it).
pub fn make_faulty(home: &Home, script: Option<&str>) {
    let path = home.guard();
    let _ = std::fs::remove_file(&path);
    if let Some(body) = script {
        std::fs::write(&path, body).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// The faults every client must block: (name, stand-in script or `None` for missing).
pub const FAULTS: [(&str, Option<&str>); 4] = [
    ("exit 1", Some("#!/bin/sh\ncat >/dev/null\nexit 1\n")),
    ("abort", Some("#!/bin/sh\ncat >/dev/null\nkill -ABRT $$\n")),
    (
        "segfault",
        Some("#!/bin/sh\ncat >/dev/null\nkill -SEGV $$\n"),
    ),
    ("missing binary", None),
];

/// The ledger records in this HOME.
pub fn ledger_records(home: &Home) -> Vec<serde_json::Value> {
    std::fs::read_to_string(home.ledger())
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .collect()
}

/// The rule of each ledger record in this HOME.
pub fn ledger_rules(home: &Home) -> Vec<String> {
    ledger_records(home)
        .iter()
        .filter_map(|v| v["rule"].as_str().map(str::to_owned))
        .collect()
}

/// Checks that the one ledger record says where the deny came from, as the client's event
/// said it: the agent, the tool, the working directory the client ran in, a session id.
pub fn assert_recorded_from(home: &Home, agent: &str, tool: &str) {
    assert_recorded_from_event(home, agent, tool, Some("PreToolUse"));
}

/// [`assert_recorded_from`] for a client whose event names its hook event `hook_event`
/// (`None`: the event names none, and neither does the record).
pub fn assert_recorded_from_event(home: &Home, agent: &str, tool: &str, hook_event: Option<&str>) {
    let records = ledger_records(home);
    assert_eq!(records.len(), 1, "{records:?}");
    let r = &records[0];
    assert_eq!(r["agent"], agent, "{r}");
    assert_eq!(r["tool"], tool, "{r}");
    match hook_event {
        Some(event) => assert_eq!(r["hook_event"], event, "{r}"),
        None => assert!(r.get("hook_event").is_none(), "{r}"),
    }
    let cwd = std::fs::canonicalize(home.work()).unwrap();
    let recorded = r["cwd"].as_str().map(std::path::PathBuf::from);
    assert!(
        recorded.is_some_and(|c| std::fs::canonicalize(&c).is_ok_and(|c| c == cwd)),
        "cwd {r}"
    );
    assert!(
        r["session_id"].as_str().is_some_and(|s| !s.is_empty()),
        "{r}"
    );
}

/// The launcher's first words when the binary is missing (the rest: where, how to install
/// it, how to remove the hook).
pub const MISSING: &str = "heredoc-guard is missing: ";

/// A heredoc whose body creates the canary when the shell runs it.
pub fn live_heredoc(home: &Home) -> String {
    format!("cat <<EOF\n$(touch {})\nEOF", home.canary().display())
}

/// The same behind a quoted delimiter: runs, prints the text, creates the canary after.
pub fn quoted_heredoc_then_canary(home: &Home) -> String {
    format!(
        "cat <<'EOF'\n$(touch {0})\nEOF\ntouch {0}",
        home.canary().display()
    )
}
