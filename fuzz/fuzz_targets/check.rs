//! Fuzzes the whole check, readings and rules, as the hook runs it (`check_command` on
//! this thread), on inputs up to the command size limit. The bytes are a command, or
//! `prefix NUL unit NUL suffix`: the unit repeated between prefix and suffix up to 4 KiB,
//! 64 KiB, 256 KiB or 1 MiB (the prefix's length picks which), so that a short input stands
//! for "one construct × k" at the limit. A check that takes over 5 s is a crash: the work
//! budget holds every input to about 100 ms in a release build, and the instrumented
//! build the fuzzer runs is up to about ten times slower, so only a slow path the budget
//! does not cover gets there (a word of many `$` once took 20 s).
//!
//! Then `strip`'s invariant: every substitution it prints for a body is whole: read as a
//! word by bash 3.2 and 4.4, which find a substitution's end by counting (a syntax error
//! inside its program does not stop them), it closes.
#![no_main]

use std::time::{Duration, Instant};

use heredoc_guard::reader::{self as shell, Dialect, Shell};
use heredoc_guard::{check_command, limits, strip};
use libfuzzer_sys::fuzz_target;

const SLOW: Duration = Duration::from_secs(5);

/// The command the bytes stand for.
fn command(data: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(data).ok()?;
    let mut parts = text.splitn(3, '\0');
    let prefix = parts.next()?;
    let (Some(unit), Some(suffix)) = (parts.next(), parts.next()) else {
        return Some(text.to_owned());
    };
    if unit.is_empty() {
        return Some(format!("{prefix}{suffix}"));
    }
    let size = [4 << 10, 64 << 10, 256 << 10, limits::MAX_COMMAND_BYTES][prefix.len() % 4];
    let k = size.saturating_sub(prefix.len() + suffix.len()) / unit.len();
    Some(format!("{prefix}{}{suffix}", unit.repeat(k)))
}

fuzz_target!(|data: &[u8]| {
    let Some(command) = command(data) else {
        return;
    };
    let start = Instant::now();
    let verdict = check_command(&command);
    let took = start.elapsed();
    assert!(
        took < SLOW,
        "slow: the check took {took:?} on {} bytes",
        command.len()
    );
    let _ = verdict.is_allow();
    if command.len() > 64 << 10 {
        return;
    }
    if let Ok(cuts) = strip::cuts(&command) {
        for (s, e) in cuts.iter().flat_map(|c| c.runs.iter().copied()) {
            let run = &command[s..e];
            for shell in [Shell::Bash32, Shell::Bash44] {
                let reading = shell::read(&format!(": {run}\n"), Dialect::new(shell));
                assert!(
                    reading.error.is_none(),
                    "strip printed a run that does not close as a word in {shell:?}: {run:?}"
                );
            }
        }
    }
});
