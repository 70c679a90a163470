//! Help that lists what each level takes: `install --help` and `uninstall --help` name
//! every agent and, under "Options by agent", each agent's options with their help, taken
//! from the same definition as the agents' own `--help` so the two cannot drift apart.

use clap::Command;

/// The command line with the option lists added to every level that takes an agent.
pub fn command(cli: Command) -> Command {
    cli.mut_subcommand("install", with_agent_options)
        .mut_subcommand("uninstall", with_agent_options)
}

/// Puts "Options by agent" before the subcommand's own after-help text.
fn with_agent_options(level: Command) -> Command {
    let table = agent_options(&level);
    let after = match level.get_after_help() {
        Some(text) => format!("{table}\n\n{text}"),
        None => table,
    };
    level.after_help(after)
}

/// One line per option of each agent (`--name  help`), the agent's name on its first line;
/// an agent without options says so.
fn agent_options(level: &Command) -> String {
    let agents: Vec<(&str, Vec<(String, String)>)> = level
        .get_subcommands()
        .map(|agent| {
            let options = agent
                .get_arguments()
                .filter(|a| a.get_id() != "help" && !a.is_positional())
                .map(|a| {
                    let name = match (a.get_long(), a.get_short()) {
                        (Some(long), _) => format!("--{long}"),
                        (None, Some(short)) => format!("-{short}"),
                        (None, None) => a.get_id().to_string(),
                    };
                    let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
                    (name, help)
                })
                .collect();
            (agent.get_name(), options)
        })
        .collect();
    let name_width = agents.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let option_width = agents
        .iter()
        .flat_map(|(_, o)| o.iter().map(|(n, _)| n.len()))
        .max()
        .unwrap_or(0);
    let mut out = String::from("Options by agent:");
    for (agent, options) in &agents {
        if options.is_empty() {
            out.push_str(&format!("\n  {agent:name_width$}  (no options)"));
        }
        for (i, (option, help)) in options.iter().enumerate() {
            let shown = if i == 0 { *agent } else { "" };
            out.push_str(&format!(
                "\n  {shown:name_width$}  {option:option_width$}  {help}"
            ));
        }
    }
    out
}
