//! The one integration-test binary: every test drives the built `heredoc-guard` binary
//! the way an agent does (an event on stdin, an exit code and output back).

mod agents;
mod bench;
mod bounded;
mod cli;
mod clients;
mod differential;
mod docs;
mod doctor;
mod fixtures;
mod generator;
mod help;
mod install;
mod launcher;
mod ledger;
mod limits;
mod log;
mod oracle;
mod properties;
mod sandbox;
mod subcommands;
mod support;
mod tamper;
mod tools;
mod verdict_first;
