//! Fuzzes the whole event -> verdict path on the raw bytes, and the bytes as a command
//! through the analysis without its panic net (so that a panic in our own code is a crash
//! the fuzzer reports).
#![no_main]

use libfuzzer_sys::fuzz_target;

fn analyze_unguarded(command: String) {
    let joined = std::thread::Builder::new()
        .stack_size(heredoc_guard::limits::ANALYSIS_STACK_BYTES)
        .spawn(move || {
            let _ = heredoc_guard::analyze::inspect_unguarded(&command);
        })
        .map(|h| h.join());
    match joined {
        Ok(Ok(())) => {}
        // Our code panicked: make it a crash libFuzzer sees.
        Ok(Err(_)) | Err(_) => std::process::abort(),
    }
}

/// Inputs with more `(` than this are skipped: brush-parser backtracks exponentially on
/// some of them (time doubles per `(`), which would stall the run on the parser rather than
/// explore the guard. In the guard, the 3 s analysis deadline bounds them (a deny), and
/// fuzz/regressions keeps the ones found, run by the test suite.
const MAX_OPEN_PARENS: usize = 16;

fuzz_target!(|data: &[u8]| {
    if data.iter().filter(|&&b| b == b'(').count() > MAX_OPEN_PARENS {
        return;
    }
    // brush-parser's own panics are caught and denied by design; keep them quiet so that
    // libFuzzer's abort-on-panic hook does not report them.
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));

    let verdict = heredoc_guard::analyze::check_event(data).verdict;
    let _ = verdict.is_allow();
    if let Ok(text) = std::str::from_utf8(data) {
        // The bytes as a command, analysed without the panic net and the deadline (the
        // guarded path runs the same analysis on a thread it abandons after 3 s; under
        // the sanitizer, abandoned threads would pile up and starve the run).
        analyze_unguarded(text.to_owned());
    }
});
