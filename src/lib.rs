//! heredoc-guard: a PreToolUse hook for coding agents that denies a shell command when an
//! unquoted heredoc body holds a command substitution the shell would run.
//!
//! The library is the check: [`check_command`], [`check_event`], [`explain`] and
//! [`strip`], with their report and verdict types, the event's [`Context`] and the
//! [`limits`] they read within. The binary (`src/main.rs`) adds hook mode's plumbing
//! (stdin, the deny's output, the ledger) and the command line (`src/cli/`: install,
//! doctor, log and the rest), none of which is library API. The event's decoding, the
//! messages, the tamper check and the reader are private to the crate; the test suite and
//! the fuzz targets reach the reader through the hidden [`reader`] door.

mod check;
mod event;
pub mod explain;
mod judge;
pub mod limits;
mod reason;
mod report;
mod rules;
mod search;
mod shell;
pub mod strip;
mod tamper;
pub mod verdict;

pub use check::{
    EventVerdict, Verdict, check_command, check_command_without_clock, check_event, inspect,
};
#[doc(hidden)]
pub use check::{hook_process, large_stack_readings};
pub use event::{Agent, Context, SHELL_TOOLS};
pub use report::{Finding, FindingKind, Heredoc, Report};
pub use verdict::{Denial, Rule, Stage};

/// The reader's door for the test suite and the fuzz targets: a command read as one shell
/// reads it, and the limits it reads within. Not library API: the reader itself
/// (`src/shell/`) is private to the crate.
#[doc(hidden)]
pub mod reader {
    pub use crate::shell::{
        Deadline, Dialect, MAX_HEREDOCS, MAX_NESTING, MAX_WORK, Reading, Shell, Stop, Work, read,
        read_with,
    };
}
