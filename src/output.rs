//! What the hook prints: nothing for an allow; for a deny, the reason on stderr and one
//! line of JSON on stdout with exactly the three fields both agents accept.

use serde_json::json;

/// The deny JSON line (without newline).
pub fn deny_json(reason: &str) -> String {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    })
    .to_string()
}
