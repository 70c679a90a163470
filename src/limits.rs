//! The inspection limits. Sizes are checked before any reading; nesting depth, the
//! number of heredocs and the readings' work budget while reading (the reader stops at
//! them). A command over one of them
//! is denied: a guard that cannot inspect something must not let it through.

/// Largest hook event read from stdin. A model writes every event's large part (a
/// command, a file's content) as its output for one tool call, at most a few hundred
/// kilobytes (128K output tokens); the limit leaves room for ten times that, escapes
/// included, and keeps reading the event itself to a few milliseconds.
pub const MAX_EVENT_BYTES: usize = 8 * 1024 * 1024;
/// Largest heredoc-bearing command that is read: twice the most a model writes in one
/// tool call. Every input up to it is answered within the time limits ([`MAX_CPU`]).
pub const MAX_COMMAND_BYTES: usize = 1024 * 1024;
// The readings keep the body scans of a command up to twice its size (`shell::heredoc`).
const _: () = assert!(crate::shell::MAX_KEPT_BODY_BYTES >= 2 * MAX_COMMAND_BYTES);

/// A command up to this size is read by every shell, whatever it holds; a larger one by
/// bash 5.2 and zsh, and by every shell when it holds a construct on which the versions
/// are measured to differ.
pub const READ_EVERY_SHELL_BYTES: usize = 16 * 1024;
/// The CPU time the readings and the rules of one command may take on the thread that
/// reads (the work meter looks at the clock every [`crate::shell::CLOCK_EVERY`] units). In
/// the hook it counts from the process's start, so that decoding a large event leaves the
/// readings less: every hook answers within 100 ms on a 2-core machine, whatever the
/// event holds. The CPU clock, not the wall clock, so that the machine's load does not
/// turn an allow into a deny. A debug build (the test suite's, many times slower, on a
/// busy machine) gets far longer, so that its verdicts are the release build's.
pub const MAX_CPU: std::time::Duration = if cfg!(debug_assertions) {
    std::time::Duration::from_secs(10)
} else {
    std::time::Duration::from_millis(40)
};
/// The same by the wall clock, for a thread the machine does not run: far below any
/// client's hook timeout (30 s).
pub const MAX_TIME: std::time::Duration = if cfg!(debug_assertions) {
    std::time::Duration::from_secs(20)
} else {
    std::time::Duration::from_secs(1)
};

/// How deep the readings nest on the calling thread: every recursive construct fits
/// [`SMALL_STACK_BYTES`] at this depth (a test reads each one this deep on a thread with
/// that stack, in a debug build). A command that nests deeper is read again on a thread
/// with a stack for `shell::MAX_NESTING` levels.
pub const SMALL_STACK_DEPTH: usize = 48;
/// The stack the calling thread is known to have at least: a test thread's (2 MiB), less
/// than a main thread's (8 MiB).
pub const SMALL_STACK_BYTES: usize = 2 * 1024 * 1024;

/// Which limit a command is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    EventSize,
    CommandSize,
    Heredocs,
    Nesting,
    /// The readings' shared work budget (dense code, substitutions read again).
    Work,
    /// The clock: [`MAX_CPU`] of CPU time, or [`MAX_TIME`] by the wall clock.
    Time,
}

impl Limit {
    /// The limit a reader's stop is (a stack too small for the nesting, when it reaches
    /// here, is the nesting limit).
    pub fn of_stop(stop: crate::shell::Stop) -> Limit {
        use crate::shell::Stop;
        match stop {
            Stop::Heredocs => Limit::Heredocs,
            Stop::Nesting | Stop::Deep => Limit::Nesting,
            Stop::Work => Limit::Work,
            Stop::Time => Limit::Time,
        }
    }
}

impl Limit {
    /// The name shown in `inspection limit: <which>`.
    pub fn name(self) -> &'static str {
        match self {
            Limit::EventSize => "event size",
            Limit::CommandSize => "command size",
            Limit::Heredocs => "number of heredocs",
            Limit::Nesting => "nesting depth",
            Limit::Work => "reading work",
            Limit::Time => "time",
        }
    }

    /// The limit's value, as written in docs/reference.md.
    pub fn value(self) -> String {
        match self {
            Limit::EventSize => format!("{MAX_EVENT_BYTES} bytes"),
            Limit::CommandSize => format!("{MAX_COMMAND_BYTES} bytes"),
            Limit::Heredocs => crate::shell::MAX_HEREDOCS.to_string(),
            Limit::Nesting => crate::shell::MAX_NESTING.to_string(),
            Limit::Work => format!("{} units", crate::shell::MAX_WORK),
            Limit::Time => format!("{} ms", MAX_CPU.as_millis()),
        }
    }
}
