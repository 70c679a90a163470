//! heredoc-guard: a PreToolUse hook for coding agents that denies a shell command when an
//! unquoted heredoc body holds a command substitution the shell would run.
//!
//! The library is the whole guard; `main.rs` only wires stdin, stdout and the exit code.
//! Its public face: [`check_command`], [`check_event`], [`explain`] and [`strip`], with
//! their types.

mod check;
// The modules below are public for the binary (`main.rs`, `cli.rs`), the test suite and the
// fuzz targets, not as library API: hidden from the documentation.
#[doc(hidden)]
pub mod client;
#[doc(hidden)]
pub mod config;
#[doc(hidden)]
pub mod doctor;
#[doc(hidden)]
pub mod event;
pub mod explain;
#[doc(hidden)]
pub mod install;
#[doc(hidden)]
pub mod ledger;
#[doc(hidden)]
pub mod limits;
#[doc(hidden)]
pub mod log;
#[doc(hidden)]
pub mod output;
#[doc(hidden)]
pub mod reason;
mod report;
mod rules;
#[doc(hidden)]
pub mod shell;
pub mod strip;
pub mod verdict;

pub use check::{EventVerdict, check_command, check_event, inspect};
pub use report::{Finding, FindingKind, Heredoc, Report};
pub use verdict::{Denial, Rule, Stage, Verdict};
