//! The `heredoc-guard` binary. With no arguments it is the hook (`hook`): one event on
//! stdin, exit 0 (allow) or 2 (deny). With arguments it is a command for a person or a
//! script (`cli`): install, doctor, log, explain and the rest. Nothing else happens here.

mod cli;
mod hook;
mod ledger;
mod utc;

use std::process::ExitCode;

fn main() -> ExitCode {
    if std::env::args_os().len() > 1 {
        cli::main()
    } else {
        hook::main()
    }
}
