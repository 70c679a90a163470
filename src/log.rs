//! `heredoc-guard log [--json] [-n N]`: the last denials from the ledger (time, rule,
//! cause) and the count of every rule over the whole ledger. The ledger holds no command
//! text, so neither does this.

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Write};

use serde_json::{Value, json};

use crate::ledger;

/// One denial as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub ts: String,
    pub rule: String,
    pub cause: Option<String>,
}

/// What the ledger holds, summed up.
#[derive(Debug, Default)]
pub struct Summary {
    pub path: String,
    pub exists: bool,
    pub last: Vec<Entry>,
    pub counts: BTreeMap<String, u64>,
    pub total: u64,
    /// Lines that are not ledger records.
    pub unreadable: u64,
}

/// Reads the ledger, keeping the last `n` denials.
pub fn read(n: usize) -> Result<Summary, String> {
    let path = ledger::path()?;
    let mut summary = Summary {
        path: path.display().to_string(),
        ..Summary::default()
    };
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags_nonblocking()
        .open(&path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(summary),
        Err(e) => return Err(format!("cannot open the ledger {}: {e}", path.display())),
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(format!(
            "the ledger {} is not a regular file",
            path.display()
        ));
    }
    summary.exists = true;
    let mut last = VecDeque::with_capacity(n.min(10_000));
    for line in BufReader::new(file).split(b'\n') {
        let line = line.map_err(|e| format!("cannot read the ledger {}: {e}", path.display()))?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Some(entry) = parse(&line) else {
            summary.unreadable += 1;
            continue;
        };
        summary.total += 1;
        *summary.counts.entry(entry.rule.clone()).or_default() += 1;
        if n > 0 {
            if last.len() == n {
                last.pop_front();
            }
            last.push_back(entry);
        }
    }
    summary.last = last.into();
    Ok(summary)
}

fn parse(line: &[u8]) -> Option<Entry> {
    let v: Value = serde_json::from_slice(line).ok()?;
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    Some(Entry {
        ts: s("ts")?,
        rule: s("rule")?,
        cause: s("cause"),
    })
}

/// Opening for reading without blocking on a FIFO.
trait NonBlocking {
    fn custom_flags_nonblocking(&mut self) -> &mut Self;
}

impl NonBlocking for std::fs::OpenOptions {
    fn custom_flags_nonblocking(&mut self) -> &mut Self {
        use std::os::unix::fs::OpenOptionsExt;
        self.custom_flags(libc::O_NONBLOCK)
    }
}

/// Prints the summary as text or JSON.
pub fn print(summary: &Summary, as_json: bool, out: &mut dyn Write) -> std::io::Result<()> {
    if as_json {
        let last: Vec<Value> = summary
            .last
            .iter()
            .map(|e| json!({"ts": e.ts, "rule": e.rule, "cause": e.cause}))
            .collect();
        let v = json!({
            "ledger": summary.path,
            "total": summary.total,
            "counts": summary.counts,
            "last": last,
            "unreadable_lines": summary.unreadable,
        });
        return writeln!(out, "{v}");
    }
    if !summary.exists {
        return writeln!(
            out,
            "No denials recorded: the ledger {} does not exist yet.",
            summary.path
        );
    }
    writeln!(
        out,
        "{} denial{} in {}",
        summary.total,
        plural(summary.total),
        summary.path
    )?;
    if !summary.last.is_empty() {
        writeln!(out, "\nlast {}:", summary.last.len())?;
        for e in &summary.last {
            match &e.cause {
                Some(cause) => writeln!(out, "  {}  {}  ({cause})", e.ts, e.rule)?,
                None => writeln!(out, "  {}  {}", e.ts, e.rule)?,
            }
        }
    }
    if !summary.counts.is_empty() {
        writeln!(out, "\nby rule:")?;
        let mut counts: Vec<(&String, &u64)> = summary.counts.iter().collect();
        counts.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (rule, count) in counts {
            writeln!(out, "  {count:>6}  {rule}")?;
        }
    }
    if summary.unreadable > 0 {
        writeln!(
            out,
            "\n{} line{} not read (not ledger records)",
            summary.unreadable,
            plural(summary.unreadable)
        )?;
    }
    Ok(())
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
