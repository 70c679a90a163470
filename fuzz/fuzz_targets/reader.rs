//! Fuzzes the reader of bash alone: every dialect (the intended reading, bash 3.2 to 5.3,
//! zsh, each with and without extglob) reads the bytes. A panic is a crash libFuzzer
//! reports (nothing catches it here), and a reading that takes longer than a second is
//! reported as slow: the reader is meant to be linear, and inputs are a few KiB.
#![no_main]

use std::time::{Duration, Instant};

use heredoc_guard::reader::{self as shell, Dialect, Shell};
use libfuzzer_sys::fuzz_target;

/// The guard reads on a thread with this stack (the deepest nesting it follows).
const STACK_BYTES: usize = 256 * 1024 * 1024;
const SLOW: Duration = Duration::from_secs(1);

fn read_every_way(command: &str) {
    for shell in Shell::ALL {
        for (extglob, aliases) in [(false, false), (true, false), (false, true)] {
            let start = Instant::now();
            let reading = shell::read(
                command,
                Dialect {
                    shell,
                    extglob,
                    aliases,
                },
            );
            let took = start.elapsed();
            assert!(
                took < SLOW,
                "slow: {shell:?} extglob={extglob} aliases={aliases} took {took:?}"
            );
            // Every offset a reading reports lies inside the command, or just past its end
            // (the newline bash reads after the last line).
            let len = command.len() as u32 + 1;
            for h in &reading.heredocs {
                assert!(
                    h.op <= len && h.body.0 <= h.body.1 && h.body.1 <= len,
                    "{shell:?}: heredoc {h:?}"
                );
            }
            for e in &reading.exec {
                assert!(e.at <= len, "{shell:?}: exec {e:?}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(command) = std::str::from_utf8(data) else {
        return;
    };
    let command = command.to_owned();
    let joined = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || read_every_way(&command))
        .map(|h| h.join());
    match joined {
        Ok(Ok(())) => {}
        // A panic in the reader: make it a crash libFuzzer sees.
        Ok(Err(_)) | Err(_) => std::process::abort(),
    }
});
