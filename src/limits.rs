//! The inspection limits. Sizes are checked before any reading; nesting depth, the
//! number of heredocs and the readings' work budget while reading (the reader stops at
//! them). A command over one of them
//! is denied: a guard that cannot inspect something must not let it through.

/// Largest hook event read from stdin.
pub const MAX_EVENT_BYTES: usize = 64 * 1024 * 1024;
/// Largest heredoc-bearing command that is read.
pub const MAX_COMMAND_BYTES: usize = 4 * 1024 * 1024;

/// Which limit a command is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    EventSize,
    CommandSize,
    Heredocs,
    Nesting,
    /// The readings' shared work budget (dense code, substitutions read again).
    Work,
}

impl Limit {
    /// The limit a reader's stop names (its cause).
    pub fn of_reader_cause(cause: &str) -> Limit {
        match cause {
            "number of heredocs" => Limit::Heredocs,
            "work" => Limit::Work,
            _ => Limit::Nesting,
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
        }
    }

    /// The limit's value, as written in the README.
    pub fn value(self) -> String {
        match self {
            Limit::EventSize => format!("{MAX_EVENT_BYTES} bytes"),
            Limit::CommandSize => format!("{MAX_COMMAND_BYTES} bytes"),
            Limit::Heredocs => crate::shell::MAX_HEREDOCS.to_string(),
            Limit::Nesting => crate::shell::MAX_NESTING.to_string(),
            Limit::Work => format!("{} units", crate::shell::MAX_WORK),
        }
    }
}
