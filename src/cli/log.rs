//! `heredoc-guard log [--agent A] [--dir D] [--since T] [--until T] [-n N] [--json]`: the
//! last denials from the ledger, each with where it came from (agent, directory, tool,
//! session), and the count of every rule among the denials that match. It reads the
//! ledger and the one earlier releases wrote (`~/.claude/logs/`), merged by time. The
//! ledger holds no command text, so neither does this.

use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::ledger;

/// One denial as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub ts: String,
    /// `ts` in milliseconds since the epoch, when it can be read.
    pub at: Option<i64>,
    pub rule: String,
    pub cause: Option<String>,
    pub agent: Option<String>,
    pub cwd: Option<String>,
    pub tool: Option<String>,
    pub session_id: Option<String>,
}

/// Which denials to show.
#[derive(Debug, Default)]
pub struct Filter {
    pub agent: Option<String>,
    /// The directory a denial's working directory must be, or be under.
    pub dir: Option<PathBuf>,
    pub since: Option<i64>,
    pub until: Option<i64>,
}

impl Filter {
    fn keeps(&self, e: &Entry) -> bool {
        if let Some(agent) = &self.agent
            && e.agent.as_deref() != Some(agent.as_str())
        {
            return false;
        }
        if let Some(dir) = &self.dir
            && !e
                .cwd
                .as_deref()
                .is_some_and(|c| Path::new(c).starts_with(dir))
        {
            return false;
        }
        if self.since.is_some() || self.until.is_some() {
            let Some(at) = e.at else { return false };
            if self.since.is_some_and(|s| at < s) || self.until.is_some_and(|u| at >= u) {
                return false;
            }
        }
        true
    }

    fn is_empty(&self) -> bool {
        self.agent.is_none() && self.dir.is_none() && self.since.is_none() && self.until.is_none()
    }
}

/// Reads `--since`/`--until`: a duration back from now (`30m`, `2h`, `7d`, `1w`) or a date
/// or time in RFC 3339 (`2026-12-01`, `2026-12-01T15:00Z`; UTC when no offset is given).
pub fn parse_when(text: &str, now: i64) -> Result<i64, String> {
    let t = text.trim();
    let unit = t.char_indices().last().and_then(|(i, c)| match c {
        's' => Some((i, 1_000)),
        'm' => Some((i, 60_000)),
        'h' => Some((i, 3_600_000)),
        'd' => Some((i, 86_400_000)),
        'w' => Some((i, 7 * 86_400_000)),
        _ => None,
    });
    if let Some((i, ms)) = unit
        && let Ok(n) = t[..i].parse::<i64>()
    {
        return Ok(now - n.saturating_mul(ms));
    }
    crate::utc::parse(t).ok_or_else(|| {
        format!("cannot read the time {text:?}: give a duration (30m, 2h, 7d, 1w) or a date (2026-12-01, 2026-12-01T15:00Z)")
    })
}

/// What the ledger holds, summed up.
#[derive(Debug, Default)]
pub struct Summary {
    /// The files read (those that exist).
    pub paths: Vec<String>,
    pub ledger: String,
    pub last: Vec<Entry>,
    pub counts: BTreeMap<String, u64>,
    /// Denials that match the filter.
    pub total: u64,
    /// Denials in the files, matching or not.
    pub all: u64,
    /// Lines that are not ledger records.
    pub unreadable: u64,
    pub filtered: bool,
}

/// Reads the ledger (and the old one), keeping the last `n` denials that `filter` keeps.
pub fn read(n: usize, filter: &Filter) -> Result<Summary, String> {
    let path = ledger::path()?;
    let mut summary = Summary {
        ledger: path.display().to_string(),
        filtered: !filter.is_empty(),
        ..Summary::default()
    };
    let mut entries = Vec::new();
    let mut files = vec![path];
    files.extend(ledger::old_path());
    for file in &files {
        if read_file(file, &mut entries, &mut summary)? {
            summary.paths.push(file.display().to_string());
        }
    }
    // Merged by time; records whose time cannot be read keep their place at the start.
    entries.sort_by_key(|e| e.at.unwrap_or(i64::MIN));
    let mut last = VecDeque::with_capacity(n.min(10_000));
    for entry in entries {
        summary.all += 1;
        if !filter.keeps(&entry) {
            continue;
        }
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

/// Reads one ledger file into `entries`; false when it does not exist.
fn read_file(path: &Path, entries: &mut Vec<Entry>, summary: &mut Summary) -> Result<bool, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(format!("cannot open the ledger {}: {e}", path.display())),
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(format!(
            "the ledger {} is not a regular file",
            path.display()
        ));
    }
    for line in BufReader::new(file).split(b'\n') {
        let line = line.map_err(|e| format!("cannot read the ledger {}: {e}", path.display()))?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match parse(&line) {
            Some(entry) => entries.push(entry),
            None => summary.unreadable += 1,
        }
    }
    Ok(true)
}

fn parse(line: &[u8]) -> Option<Entry> {
    let v: Value = serde_json::from_slice(line).ok()?;
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    let ts = s("ts")?;
    Some(Entry {
        at: crate::utc::parse(&ts),
        ts,
        rule: s("rule")?,
        cause: s("cause"),
        agent: s("agent"),
        cwd: s("cwd"),
        tool: s("tool"),
        session_id: s("session_id"),
    })
}

/// Prints the summary as text or JSON.
pub fn print(summary: &Summary, as_json: bool, out: &mut dyn Write) -> std::io::Result<()> {
    if as_json {
        let last: Vec<Value> = summary
            .last
            .iter()
            .map(|e| {
                json!({"ts": e.ts, "rule": e.rule, "cause": e.cause, "agent": e.agent,
                    "cwd": e.cwd, "tool": e.tool, "session_id": e.session_id})
            })
            .collect();
        let v = json!({
            "ledger": summary.ledger,
            "read": summary.paths,
            "total": summary.total,
            "counts": summary.counts,
            "last": last,
            "unreadable_lines": summary.unreadable,
        });
        // (Made into a string first: serde_json is built without `std`, and its own
        // writer would drop a failed write; the standard library's reports it.)
        let text = v.to_string();
        return writeln!(out, "{text}");
    }
    if summary.paths.is_empty() {
        return writeln!(
            out,
            "No denials recorded: the ledger {} does not exist yet.",
            summary.ledger
        );
    }
    let matching = if summary.filtered {
        format!(" matching (of {})", summary.all)
    } else {
        String::new()
    };
    writeln!(
        out,
        "{} denial{}{matching} in {}",
        summary.total,
        plural(summary.total),
        summary.paths.join(" and ")
    )?;
    if !summary.last.is_empty() {
        writeln!(out, "\nlast {}:", summary.last.len())?;
        for e in &summary.last {
            let cause = e
                .cause
                .as_ref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default();
            writeln!(out, "  {}  {}{cause}", e.ts, e.rule)?;
            let mut from = Vec::new();
            if let Some(a) = &e.agent {
                from.push(a.clone());
            }
            if let Some(t) = &e.tool {
                from.push(t.clone());
            }
            if let Some(c) = &e.cwd {
                from.push(format!("in {c}"));
            }
            if let Some(s) = &e.session_id {
                from.push(format!("session {s}"));
            }
            if !from.is_empty() {
                writeln!(out, "      {}", from.join(", "))?;
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

#[cfg(test)]
mod tests {
    use super::parse_when;

    #[test]
    fn durations_count_back_from_now_and_dates_are_read_as_utc() {
        let now = 1_796_138_329_487;
        assert_eq!(parse_when("30m", now), Ok(now - 1_800_000));
        assert_eq!(parse_when("2h", now), Ok(now - 7_200_000));
        assert_eq!(parse_when("1w", now), Ok(now - 604_800_000));
        assert_eq!(parse_when("2026-12-01", now), Ok(1_796_083_200_000));
        assert!(parse_when("last tuesday", now).is_err());
    }
}
