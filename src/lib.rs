//! heredoc-guard: a PreToolUse hook for coding agents that denies a shell command when an
//! unquoted heredoc body holds a command substitution the shell would run.
//!
//! The library is the whole guard; `main.rs` only wires stdin, stdout and the exit code.
//! Its public face: [`check_command`], [`check_event`], [`explain`] and [`strip`], with
//! their types.

mod check;
pub mod client;
pub mod config;
pub mod doctor;
pub mod event;
pub mod explain;
pub mod install;
pub mod ledger;
pub mod limits;
pub mod log;
pub mod output;
pub mod reason;
mod report;
mod rules;
pub mod shell;
pub mod strip;
pub mod verdict;

pub use check::{EventVerdict, check_command, check_event, inspect};
pub use report::{Finding, FindingKind, Heredoc, Report};
pub use verdict::{Denial, Rule, Stage, Verdict};
