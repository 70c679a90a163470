//! The inspection limits, checked before any parsing. A heredoc-bearing command over one of
//! them is denied: a guard that cannot inspect something must not let it through.
//!
//! Every check here is a single linear pass over the bytes.

/// Largest hook event read from stdin.
pub const MAX_EVENT_BYTES: usize = 64 * 1024 * 1024;
/// Largest heredoc-bearing command that is parsed.
pub const MAX_COMMAND_BYTES: usize = 4 * 1024 * 1024;
/// Most heredocs in one command, nested ones included.
pub const MAX_HEREDOCS: usize = 1_000;
/// Deepest nesting of brackets and compound-command keywords (see [`nesting_depth`]).
pub const MAX_NESTING: usize = 1_000;
/// Most parse attempts spent finding where command substitutions in words end.
pub const MAX_PARSE_ATTEMPTS: usize = 2_000;
/// Longest time the analysis may take before the command is denied.
pub const ANALYSIS_TIMEOUT_MS: u64 = 3_000;
/// Largest resident memory of the process while the analysis runs (Linux; read from
/// /proc/self/status between waits).
pub const MAX_RESIDENT_BYTES: u64 = 512 * 1024 * 1024;
/// How often the deadline and the memory are checked while the analysis runs.
pub const WATCH_INTERVAL_MS: u64 = 20;
/// Stack for the analysis thread: enough for `MAX_NESTING` levels of the parser's
/// deepest recursion, in debug builds too.
pub const ANALYSIS_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Which limit a command is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    EventSize,
    CommandSize,
    Heredocs,
    Nesting,
    ParseAttempts,
    Time,
    Memory,
}

impl Limit {
    /// The name shown in `inspection limit: <which>`.
    pub fn name(self) -> &'static str {
        match self {
            Limit::EventSize => "event size",
            Limit::CommandSize => "command size",
            Limit::Heredocs => "number of heredocs",
            Limit::Nesting => "nesting depth",
            Limit::ParseAttempts => "parse attempts",
            Limit::Time => "analysis time",
            Limit::Memory => "memory",
        }
    }

    /// The limit's value, as written in the README.
    pub fn value(self) -> String {
        match self {
            Limit::EventSize => format!("{} bytes", MAX_EVENT_BYTES),
            Limit::CommandSize => format!("{} bytes", MAX_COMMAND_BYTES),
            Limit::Heredocs => MAX_HEREDOCS.to_string(),
            Limit::Nesting => MAX_NESTING.to_string(),
            Limit::ParseAttempts => MAX_PARSE_ATTEMPTS.to_string(),
            Limit::Time => format!("{} ms", ANALYSIS_TIMEOUT_MS),
            Limit::Memory => format!("{} MiB resident", MAX_RESIDENT_BYTES / (1024 * 1024)),
        }
    }
}

/// The process's resident memory, from /proc/self/status (`None` where there is no
/// /proc, as on macOS: there only the deadline bounds a runaway parse).
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Checks a heredoc-bearing command against the limits that need no parse.
pub fn check_command(command: &str) -> Result<(), Limit> {
    if command.len() > MAX_COMMAND_BYTES {
        return Err(Limit::CommandSize);
    }
    if nesting_depth(command.as_bytes()) > MAX_NESTING {
        return Err(Limit::Nesting);
    }
    Ok(())
}

/// An upper bound on how deep the parser will recurse: the deepest running count of open
/// `(`, `{`, `[` and backquotes-in-brackets, plus compound keywords `if`, `case`, `do`
/// (closed by `fi`, `esac`, `done`). It over-counts (quotes and heredoc bodies are not
/// skipped), which can only deny, never let a deep command reach the parser.
pub fn nesting_depth(b: &[u8]) -> usize {
    let mut depth = 0usize;
    let mut max = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            b'a'..=b'z' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_lowercase() {
                    i += 1;
                }
                let preceded = start > 0 && is_word_byte(b[start - 1]);
                let followed = i < b.len() && is_word_byte(b[i]);
                if !preceded && !followed {
                    match &b[start..i] {
                        b"if" | b"case" | b"do" => depth += 1,
                        b"fi" | b"esac" | b"done" => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                }
                max = max.max(depth);
                continue;
            }
            _ => {}
        }
        max = max.max(depth);
        i += 1;
    }
    max
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_counts_brackets_and_keywords() {
        assert_eq!(nesting_depth(b"echo $(echo $(echo x))"), 2);
        assert_eq!(nesting_depth(b"if a; then if b; then c; fi; fi"), 2);
        assert_eq!(
            nesting_depth(b"while a; do b; done; while c; do d; done"),
            1
        );
        assert_eq!(nesting_depth(b"diff verify"), 0);
    }
}
