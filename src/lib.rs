//! heredoc-guard: a PreToolUse hook for coding agents that denies a shell command when an
//! unquoted heredoc body holds a command substitution the shell would run.
//!
//! The library is the whole guard; `main.rs` only wires stdin, stdout and the exit code.

pub mod analyze;
pub mod body;
pub mod client;
mod collect;
pub mod config;
pub mod delimiter;
pub mod doctor;
pub mod event;
pub mod explain;
pub mod install;
pub mod ledger;
mod lex;
pub mod limits;
pub mod log;
pub mod output;
pub mod prefilter;
pub mod reason;
pub mod shell;
pub mod strip;
pub mod verdict;
pub mod words;

pub use analyze::check_command;
pub use verdict::{Denial, Rule, Stage, Verdict};
