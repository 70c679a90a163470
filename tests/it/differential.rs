//! The shell is the oracle: generated heredoc commands run in real bash (and zsh when it
//! is installed) in a sandbox; the guard must deny every command that ran the canary.
//!
//! Size and seed: `HEREDOC_GUARD_DIFF_CASES` (default 3000) and `HEREDOC_GUARD_DIFF_SEED`.
//! A failing case prints its seed, index and command, ready for fixtures/.
//!
//! A run of the canary is a bypass only when it came from heredoc text: when the guard
//! allowed a command, the command is run again with its heredoc bodies removed (`strip`);
//! if the canary still runs, it was ordinary, visible code (say, lines after a body that
//! closed early), which this guard does not judge.
//!
//! Denied by design, left out of the false-denial rate: a heredoc without its closing line
//! (bash runs such a body, but its extent is bash's guess), `$'…'`/`$"…"` delimiters,
//! `${v@P}` (runs what the variable holds), and bash 5.3 `${ cmd; }` forms that bash 5.2
//! rejects.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use heredoc_guard::analyze::{self, FindingKind};
use heredoc_guard::body::SubstKind;

use crate::generator as gen_;
use crate::oracle::{self, Sandbox};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Why the guard denied, as a report category.
fn category(command: &str) -> String {
    match analyze::inspect(command) {
        Ok(report) => match report.findings.first().map(|f| &f.kind) {
            Some(FindingKind::Substitution(k)) => format!("substitution: {k:?}"),
            Some(FindingKind::Boundary(b)) => format!("boundary: {b:?}"),
            Some(FindingKind::AnsiCDelimiter) => "ansi-c delimiter".to_owned(),
            None => "allowed".to_owned(),
        },
        Err(d) => format!("{}: {}", d.rule.id(), d.failure.map_or("", |f| f.1)),
    }
}

/// Denied by design: not counted as false denials.
fn by_design(case: &gen_::Case, category: &str) -> bool {
    case.labels.contains(&"missing-closer")
        || case.labels.contains(&"delim-ansi-c")
        || category == "ansi-c delimiter"
        || category == format!("substitution: {:?}", SubstKind::PromptExpansion)
        || category == format!("substitution: {:?}", SubstKind::FunSub)
}

struct Tally {
    cases: usize,
    zsh_cases: usize,
    canary_cases: usize,
    benign: usize,
    bypasses: Vec<String>,
    visible: usize,
    false_denials: BTreeMap<String, Vec<String>>,
    by_design: usize,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            cases: 0,
            zsh_cases: 0,
            canary_cases: 0,
            benign: 0,
            bypasses: Vec::new(),
            visible: 0,
            false_denials: BTreeMap::new(),
            by_design: 0,
        }
    }
}

fn run_suite(seed: u64, count: u64) -> Tally {
    let bash = oracle::bash_path().expect("bash is required");
    let zsh = oracle::zsh_path();
    let workers = 2u64;
    let results: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let bash = bash.clone();
                let zsh: Option<PathBuf> = zsh.clone();
                scope.spawn(move || {
                    let sandbox = Sandbox::new();
                    let mut t = Tally::new();
                    let mut index = w;
                    while index < count {
                        let case = gen_::case(seed, index);
                        let command = case.render();
                        let in_bash = sandbox.run(&bash, &command);
                        let in_zsh = match (&zsh, case.bash_only) {
                            (Some(z), false) => {
                                t.zsh_cases += 1;
                                Some(sandbox.run(z, &command))
                            }
                            _ => None,
                        };
                        let ran =
                            in_bash.canary_ran || in_zsh.as_ref().is_some_and(|o| o.canary_ran);
                        let denied = !heredoc_guard::check_command(&command).is_allow();
                        t.cases += 1;
                        let show = || {
                            format!(
                                "seed {seed} index {index} shape {:?}\n---\n{command}\n---",
                                case.shape
                            )
                        };
                        if ran {
                            t.canary_cases += 1;
                            // Does the canary still run with every heredoc body removed?
                            let visible = !denied
                                && heredoc_guard::strip::strip(&command).is_ok_and(|stripped| {
                                    (in_bash.canary_ran && sandbox.run(&bash, &stripped).canary_ran)
                                        || (in_zsh.as_ref().is_some_and(|o| o.canary_ran)
                                            && zsh.as_ref().is_some_and(|z| {
                                                sandbox.run(z, &stripped).canary_ran
                                            }))
                                });
                            if visible {
                                t.visible += 1;
                            } else if !denied {
                                t.bypasses.push(format!(
                                    "BYPASS (bash ran: {}, zsh ran: {:?}) {}",
                                    in_bash.canary_ran,
                                    in_zsh.as_ref().map(|o| o.canary_ran),
                                    show()
                                ));
                            }
                        } else if !in_bash.syntax_error && !in_bash.timed_out {
                            t.benign += 1;
                            if denied {
                                let cat = category(&command);
                                if by_design(&case, &cat) {
                                    t.by_design += 1;
                                } else {
                                    t.false_denials.entry(cat).or_default().push(show());
                                }
                            }
                        }
                        index += workers;
                    }
                    t
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    let mut total = Tally::new();
    for t in results {
        total.cases += t.cases;
        total.zsh_cases += t.zsh_cases;
        total.canary_cases += t.canary_cases;
        total.benign += t.benign;
        total.bypasses.extend(t.bypasses);
        total.visible += t.visible;
        total.by_design += t.by_design;
        for (k, v) in t.false_denials {
            total.false_denials.entry(k).or_default().extend(v);
        }
    }
    total
}

#[test]
fn generated_heredoc_commands_never_run_the_canary_past_the_guard() {
    let count = env_u64("HEREDOC_GUARD_DIFF_CASES", 3_000);
    let seed = env_u64("HEREDOC_GUARD_DIFF_SEED", 0x5EED_2026);
    let t = run_suite(seed, count);
    let false_total: usize = t.false_denials.values().map(Vec::len).sum();
    let mut report = format!(
        "differential: seed {seed}, {} cases ({} also under zsh{}), canary ran in {} ({} of them from visible code outside heredoc bodies), bypasses {}, benign {}, false denials {} ({:.2}%), denied by design {}\n",
        t.cases,
        t.zsh_cases,
        if oracle::zsh_path().is_none() {
            ", zsh not installed"
        } else {
            ""
        },
        t.canary_cases,
        t.visible,
        t.bypasses.len(),
        t.benign,
        false_total,
        100.0 * false_total as f64 / t.benign.max(1) as f64,
        t.by_design
    );
    for (cat, cases) in &t.false_denials {
        report.push_str(&format!("  false denials, {cat}: {}\n", cases.len()));
    }
    // Printed past the test harness's capture, so a passing run shows its figures too;
    // every bypass and false denial goes to target/differential-report.txt.
    let _ = std::io::stderr().write_all(report.as_bytes());
    let mut full = report.clone();
    for b in &t.bypasses {
        full.push_str(&format!("{b}\n"));
    }
    for (cat, cases) in &t.false_denials {
        for c in cases {
            full.push_str(&format!("FALSE DENIAL ({cat}) {c}\n"));
        }
    }
    let _ = std::fs::write(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/differential-report.txt"),
        full,
    );
    let examples: Vec<&String> = t
        .false_denials
        .values()
        .flat_map(|v| v.iter().take(2))
        .collect();
    assert!(
        t.bypasses.is_empty(),
        "{report}\n{}",
        t.bypasses
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        false_total * 50 <= t.benign,
        "{report}\nfalse denials over 2%, e.g.:\n{}",
        examples
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        t.canary_cases > count as usize / 10,
        "too few live cases: {report}"
    );
}

#[test]
#[ignore = "prints sample generated commands; run with --ignored --nocapture"]
fn print_generated_samples() {
    for i in 0..env_u64("HEREDOC_GUARD_DIFF_SAMPLES", 8) {
        println!(
            "--- {i}\n{}",
            gen_::case(env_u64("HEREDOC_GUARD_DIFF_SEED", 0x5EED_2026), i).render()
        );
    }
}
