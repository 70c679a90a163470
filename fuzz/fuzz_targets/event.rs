//! Fuzzes the whole hook path: the raw bytes as an event, and the bytes as the command of
//! a Bash event, through `check_event`. It must give a verdict for every input (a panic
//! there is caught and denied by design, so the `reader` target is the one that sees
//! panics); an allow must come with no denial.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The guard turns its own panics into denials; keep the default hook quiet.
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));

    let _ = heredoc_guard::check_event(data.to_vec()).verdict.is_allow();
    if let Ok(command) = std::str::from_utf8(data) {
        let event = serde_json::json!({
            "tool_name": "Bash",
            "tool_input": { "command": command },
        });
        let bytes = serde_json::to_vec(&event).unwrap_or_default();
        let _ = heredoc_guard::check_event(bytes).verdict.is_allow();
    }
});
