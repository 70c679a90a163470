//! The `heredoc-guard` binary. With no arguments, or only `--agent NAME` (the agent whose
//! hook runs it), it is the hook (`hook`): one event on stdin, exit 0 (allow) or 2 (deny). With arguments it is a command for a person or a
//! script (`cli`): install, doctor, log, explain and the rest. Nothing else happens here.

mod cli;
mod hook;
mod ledger;
mod utc;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    match hook::hook_args(&args) {
        Some(named) => hook::main(named),
        None => cli::main(),
    }
}
