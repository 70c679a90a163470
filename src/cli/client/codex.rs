//! OpenAI Codex: where its hooks live, and its own `codex app-server` (JSON-RPC over stdio),
//! through which the hooks' trust is read (`hooks/list`) and written (`config/batchWrite`
//! into `hooks.state."<key>".trusted_hash` of `$CODEX_HOME/config.toml`), as the review in
//! Codex's TUI does.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long one app-server request may take (the first includes its start-up).
const RPC_TIMEOUT: Duration = Duration::from_secs(60);

/// `$CODEX_HOME`, or `~/.codex`.
pub fn home() -> Result<PathBuf, String> {
    match std::env::var_os("CODEX_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => Ok(super::home()?.join(".codex")),
    }
}

/// `$CODEX_HOME/hooks.json`.
pub fn hooks_path() -> Result<PathBuf, String> {
    Ok(home()?.join("hooks.json"))
}

/// One hook as `hooks/list` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedHook {
    pub key: String,
    pub event: String,
    pub command: Option<String>,
    pub matcher: Option<String>,
    pub source_path: String,
    pub current_hash: String,
    /// `trusted`, `untrusted`, `modified` or `managed`.
    pub trust: String,
}

fn listed(v: &Value) -> Option<ListedHook> {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    Some(ListedHook {
        key: s("key")?,
        event: s("eventName")?,
        command: s("command"),
        matcher: s("matcher"),
        source_path: s("sourcePath")?,
        current_hash: s("currentHash")?,
        trust: s("trustStatus")?,
    })
}

/// The TOML key path of a hook's stored trust.
pub fn trust_key_path(key: &str) -> String {
    format!("hooks.state.{}", toml_quoted_key(key))
}

fn toml_quoted_key(key: &str) -> String {
    let mut out = String::from("\"");
    for c in key.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A running `codex app-server`, spoken to over its stdin and stdout.
pub struct AppServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The last lines Codex wrote on stderr: its own words when it stops.
    stderr: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    next_id: u64,
}

impl AppServer {
    /// Starts `codex app-server` (the `codex` at `binary`) and initializes the session.
    pub fn start(binary: &Path) -> Result<AppServer, String> {
        use std::os::unix::process::CommandExt;
        let mut child = Command::new(binary)
            .arg("app-server")
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{} app-server`: {e}", binary.display()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or("no stdout pipe to codex app-server")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let said = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        if let Some(stderr) = child.stderr.take() {
            let said = std::sync::Arc::clone(&said);
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    if let Ok(mut said) = said.lock() {
                        said.push(line);
                        let excess = said.len().saturating_sub(8);
                        said.drain(..excess);
                    }
                }
            });
        }
        let stdin = child.stdin.take();
        let mut server = AppServer {
            child,
            stdin,
            lines: rx,
            stderr: said,
            next_id: 1,
        };
        server.request(
            "initialize",
            json!({"clientInfo": {"name": "heredoc-guard", "version": env!("CARGO_PKG_VERSION")}}),
        )?;
        server.send(&json!({"method": "initialized"}))?;
        Ok(server)
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or("codex app-server's stdin is closed")?;
        // (Made into a string first: serde_json is built without `std`, and its own
        // writer would drop a failed write; the standard library's reports it.)
        let text = message.to_string();
        writeln!(stdin, "{text}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("cannot write to codex app-server: {e}"))
    }

    /// Sends one request and waits for its answer (notifications are skipped).
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        if let Err(e) = self.send(&json!({"id": id, "method": method, "params": params})) {
            // A server that stopped before reading: say what Codex said, not the pipe.
            let said = self.exited(method);
            return Err(if said.contains("Codex said") { said } else { e });
        }
        let deadline = Instant::now() + RPC_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("codex app-server did not answer {method} in time"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited(method));
                }
            };
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id").and_then(Value::as_u64) != Some(id) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(format!("codex app-server refused {method}: {error}"));
            }
            return message
                .get("result")
                .cloned()
                .ok_or_else(|| format!("codex app-server's answer to {method} has no result"));
        }
    }

    /// The error for a server that stopped: with what Codex said on stderr, when it said
    /// anything (waiting a moment for its last words).
    fn exited(&mut self, method: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline && !matches!(self.child.try_wait(), Ok(Some(_))) {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(50));
        let said = self
            .stderr
            .lock()
            .map(|l| l.join(" / "))
            .unwrap_or_default();
        if said.trim().is_empty() {
            format!("codex app-server exited before answering {method}")
        } else {
            format!(
                "codex app-server exited before answering {method}; Codex said: {}",
                said.trim()
            )
        }
    }

    /// Every hook Codex sees for `cwd`.
    pub fn list_hooks(&mut self, cwd: &Path) -> Result<Vec<ListedHook>, String> {
        let result = self.request("hooks/list", json!({"cwds": [cwd]}))?;
        let mut hooks = Vec::new();
        for entry in result
            .get("data")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for hook in entry
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                hooks.extend(listed(hook));
            }
        }
        Ok(hooks)
    }

    /// Stores trust (`Some(hash)`) or removes it (`None`) for each key, in one write.
    pub fn write_trust(&mut self, edits: &[(String, Option<String>)]) -> Result<(), String> {
        if edits.is_empty() {
            return Ok(());
        }
        let edits: Vec<Value> = edits
            .iter()
            .map(|(key, hash)| match hash {
                Some(hash) => json!({"keyPath": format!("{}.trusted_hash", trust_key_path(key)),
                    "value": hash, "mergeStrategy": "upsert"}),
                None => json!({"keyPath": trust_key_path(key), "value": null,
                    "mergeStrategy": "replace"}),
            })
            .collect();
        self.request("config/batchWrite", json!({"edits": edits}))
            .map(|_| ())
    }
}

impl Drop for AppServer {
    fn drop(&mut self) {
        // Closing stdin ends the server; give it a moment, then end its group.
        self.stdin.take();
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        super::process::kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
