//! The shells are the oracle: generated heredoc commands run in every shell the oracle has
//! (bash 3.2 to 5.3, bash with extglob, zsh), each in a sandbox. The generator puts the
//! canary word only inside heredoc bodies, so a canary run after an allow is a bypass,
//! whatever the guard thinks of it: no excuse goes through the guard's own code.
//!
//! Two controls, decided by the shells too: an allowed `eval "alias …"` case whose canary
//! also runs with `echo` in place of `eval` ran it as the command's own text (a mutated
//! operator closed the eval's quotes), and is counted apart from bypasses; and an allowed
//! case of a shape that names its evaluator (`eval` of heredoc text, a receiver the
//! command rebinds: the promise's explicit side) is counted apart only when the same
//! command without that evaluator runs no canary in any shell.
//!
//! Size and seed: `HEREDOC_GUARD_DIFF_CASES` (default 3000) and `HEREDOC_GUARD_DIFF_SEED`.
//! Every bypass and false denial, with its seed, index and command, goes to
//! `target/differential-report.txt`.
//!
//! A benign case is one where no shell ran the canary and bash 5.2 read it without a syntax
//! error. Denied by design, and counted apart from false denials: a heredoc without its
//! closing line, `$'…'` / `$"…"` delimiters, `${v@P}`, delimiters holding expansions, alias
//! definitions, `!(` without a blank, a body with an unbalanced `)` or quote inside `$(…)`
//! (bash 3.2 ends the substitution there) (all decided from what the generator put in); and denials of a shape where some shell does not keep the
//! heredoc bodies as data, decided by the shells alone: the same case with a bare `canary`
//! line (or, under quoted delimiters, a `$(canary)` line) put first or last in every body
//! runs the canary in some shell.

use std::collections::BTreeMap;

use crate::generator as gen_;
use crate::oracle::{self, Sandbox};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Denied by design: not counted as false denials (decided from what the generator put
/// in, never from the guard's answer). See docs/shells.md and docs/rules.md, "Denied on purpose".
fn by_design(case: &gen_::Case) -> bool {
    case.labels.iter().any(|l| {
        matches!(
            *l,
            "missing-closer"
                | "delim-ansi-c"
                | "delim-locale"
                | "prompt-transform"
                | "delim-dollar-paren"
                | "delim-quote-in-dollar-paren"
                | "delim-dollar-brace"
                | "delim-quote-in-dollar-brace"
                | "delim-arith"
                | "delim-backquote-part"
        )
    }) || matches!(
        case.shape,
        // Alias expansion; a heredoc in an unquoted body; `!(` without a blank, an extglob
        // pattern to bash with extglob on and a glob group to zsh.
        gen_::Shape::AliasHeredoc
            | gen_::Shape::InsideUnquotedBody
            | gen_::Shape::BangParen
            // An alias the command defines reads the lines after it (with expand_aliases
            // on, as Claude Code runs it) otherwise than without.
            | gen_::Shape::AliasNoShopt
            | gen_::Shape::AliasSpelled
            | gen_::Shape::AliasViaEval
            // An alias that comments out the heredoc operator: the body is code.
            | gen_::Shape::AliasComment
            // Text joined to the operator line, which an author takes for the body.
            | gen_::Shape::OperatorLineJoined
    ) || (case.in_paren_substitution() && case.body_unbalanced())
    // bash 3.2 ends `$(…)` at a body's unbalanced `)` or quote and reads the rest as code.
}

/// The command names the evaluator of its heredoc text (the promise's explicit side):
/// `eval` of it, or a receiver it rebinds (`hash -p`, a function named like the command,
/// `exec <<` before a shell). Decided from the shape the generator built; the canary's
/// run is then checked against a control without the evaluator ([`explicit_control`]).
fn explicit(case: &gen_::Case) -> bool {
    matches!(
        case.shape,
        gen_::Shape::EvalFlow
            | gen_::Shape::HashReceiver
            | gen_::Shape::FunctionReceiver
            | gen_::Shape::ExecInput
    )
}

/// The same command without its explicit evaluator (`eval` made `echo`, the rebinding
/// line dropped, the shell after `exec <<` made `true`): if the shells run the canary in
/// it too, the heredoc itself ran it, and an allow is a bypass.
fn explicit_control(case: &gen_::Case) -> Option<String> {
    let rendered = case.render();
    match case.shape {
        gen_::Shape::EvalFlow => rendered
            .strip_prefix("eval ")
            .map(|r| format!("echo {r} >/dev/null")),
        gen_::Shape::HashReceiver | gen_::Shape::FunctionReceiver => {
            rendered.split_once('\n').map(|(_, rest)| rest.to_owned())
        }
        gen_::Shape::ExecInput => rendered.strip_suffix("/bin/sh").map(|r| format!("{r}true")),
        _ => None,
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    canary_cases: usize,
    benign: usize,
    rejected_by_bash52: usize,
    bypasses: Vec<String>,
    false_denials: BTreeMap<String, Vec<String>>,
    by_design: usize,
    /// Benign cases denied where some shell does not keep the bodies as data (a probe
    /// ran the canary).
    body_as_code: usize,
    /// Benign cases denied that only the missing older bash versions could judge: their
    /// heredocs sit inside `$(…)`, `<(…)` or backquotes, where bash 3.2, 4.4 and 5.1 find
    /// the end of the substitution by their own scanners (decided from the generator).
    unverified: Vec<String>,
    ran_in: BTreeMap<String, usize>,
    /// Allowed cases whose canary a shell runs as plain command text, before any heredoc
    /// exists (see [`plain_text_runs_it`]).
    plain_text: usize,
    /// Allowed cases whose canary runs through an evaluator the command names (and not
    /// without it).
    explicit: usize,
}

/// Whether the canary of an `eval "alias …'<<op'"` case runs as plain command text: a
/// mutated operator (a stray `"`, `$\` and a newline) can close the eval's double quotes
/// early, and then the outer shell runs a `$(canary)` of the body as part of eval's own
/// argument, before eval runs and before any heredoc exists. Decided by the shells alone:
/// the same command with `echo` in place of `eval` (which runs no text) runs the canary
/// too, in every shell that ran it. A substitution in the command's own text is the command's, not a heredoc's: out of
/// the guard's scope by design.
fn plain_text_runs_it(
    case: &gen_::Case,
    shells: &[oracle::Oracle],
    outcomes: &[oracle::Outcome],
    sandbox: &Sandbox,
) -> bool {
    if case.shape != gen_::Shape::AliasViaEval {
        return false;
    }
    let rendered = case.render();
    let Some(control) = rendered.strip_prefix("eval ") else {
        return false;
    };
    let control = format!("echo {control}");
    shells
        .iter()
        .zip(outcomes)
        .filter(|(_, o)| o.canary_ran)
        .all(|(s, _)| sandbox.run(s, &control).canary_ran)
}

/// Variants of the case that show, from the shells alone, that some shell does not keep
/// its heredoc bodies as data: a bare `canary` line first or last in every body, or
/// ` ;canary` after every body line (a shell that runs it reads body lines as commands),
/// and, when every delimiter is quoted, a `$(canary)` line first or last (a shell that
/// runs it expands a body meant as data).
fn body_probes(case: &gen_::Case) -> Vec<String> {
    let quoted = case.heredocs.iter().all(|h| h.spelling.quotes_body());
    let mut lines = vec!["canary"];
    if quoted {
        lines.push("$(canary)");
    }
    let mut probes = Vec::new();
    for line in lines {
        for first in [true, false] {
            let mut probe = case.clone();
            for h in &mut probe.heredocs {
                let at = if first { 0 } else { h.lines.len() };
                h.lines.insert(at, line.to_owned());
            }
            probes.push(probe.render());
        }
    }
    // The same lines, each followed by ` ;canary`: a shell that reads any of them as code.
    let mut probe = case.clone();
    for h in &mut probe.heredocs {
        for l in &mut h.lines {
            l.push_str(" ;canary");
        }
    }
    probes.push(probe.render());
    probes
}

fn run_suite(seed: u64, count: u64) -> Tally {
    let shells = oracle::shells();
    assert!(!shells.is_empty(), "no shell to run the oracle in");
    let main_bash = shells
        .iter()
        .position(|s| s.name == "bash-5.2")
        .or_else(|| shells.iter().position(|s| s.name == "system bash"))
        .expect("a bash 5.2");
    let old_bash_missing = oracle::missing_shells().iter().any(|m| {
        ["bash-3.2", "bash-4.4", "bash-5.1"]
            .iter()
            .any(|v| m.starts_with(v))
    });
    // Workers wait on the shells they run (start-up, the file system): more workers than
    // cores keeps the cores busy.
    let workers = env_u64("HEREDOC_GUARD_DIFF_WORKERS", 6).max(1);
    let results: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                scope.spawn(move || {
                    let sandbox = Sandbox::new();
                    let mut t = Tally::default();
                    let mut index = w;
                    while index < count {
                        let case = gen_::case(seed, index);
                        let command = case.render();
                        let outcomes: Vec<_> = shells.iter().map(|s| sandbox.run(s, &command)).collect();
                        let ran: Vec<&str> = shells
                            .iter()
                            .zip(&outcomes)
                            .filter(|(_, o)| o.canary_ran)
                            .map(|(s, _)| s.name.as_str())
                            .collect();
                        let denied = !heredoc_guard::check_command(&command).is_allow();
                        t.cases += 1;
                        let show = || {
                            format!(
                                "seed {seed} index {index} shape {:?} labels {:?}\n---\n{command}\n---",
                                case.shape, case.labels
                            )
                        };
                        if !ran.is_empty() {
                            t.canary_cases += 1;
                            for r in &ran {
                                *t.ran_in.entry((*r).to_owned()).or_default() += 1;
                            }
                            if !denied {
                                let explicit_only = explicit(&case)
                                    && explicit_control(&case).is_some_and(|control| {
                                        !shells.iter().any(|s| sandbox.run(s, &control).canary_ran)
                                    });
                                if explicit_only {
                                    t.explicit += 1;
                                } else if plain_text_runs_it(&case, shells, &outcomes, &sandbox) {
                                    t.plain_text += 1;
                                } else {
                                    t.bypasses.push(format!("BYPASS (canary ran in {}) {}", ran.join(", "), show()));
                                }
                            }
                        } else if outcomes[main_bash].syntax_error || outcomes.iter().any(|o| o.timed_out) {
                            t.rejected_by_bash52 += 1;
                        } else {
                            t.benign += 1;
                            if denied {
                                if by_design(&case) {
                                    t.by_design += 1;
                                } else if body_probes(&case).iter().any(|probe| {
                                    shells.iter().any(|s| sandbox.run(s, probe).canary_ran)
                                }) {
                                    t.body_as_code += 1;
                                } else if old_bash_missing
                                    && (case.in_paren_substitution()
                                        || case.shape == gen_::Shape::Backquotes)
                                {
                                    t.unverified.push(show());
                                } else {
                                    let rule = heredoc_guard::check_command(&command)
                                        .into_denial()
                                        .map(|d| d.rule.id())
                                        .unwrap_or("?");
                                    t.false_denials
                                        .entry(format!("{rule} in {:?}", case.shape))
                                        .or_default()
                                        .push(show());
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
    let mut total = Tally::default();
    for t in results {
        total.cases += t.cases;
        total.canary_cases += t.canary_cases;
        total.benign += t.benign;
        total.rejected_by_bash52 += t.rejected_by_bash52;
        total.bypasses.extend(t.bypasses);
        total.by_design += t.by_design;
        total.body_as_code += t.body_as_code;
        total.plain_text += t.plain_text;
        total.explicit += t.explicit;
        total.unverified.extend(t.unverified);
        for (k, v) in t.false_denials {
            total.false_denials.entry(k).or_default().extend(v);
        }
        for (k, v) in t.ran_in {
            *total.ran_in.entry(k).or_default() += v;
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
    let shells: Vec<&str> = oracle::shells().iter().map(|s| s.name.as_str()).collect();
    let mut report = format!(
        "differential: seed {seed}, {} cases in {}; canary ran in {} cases ({}); bypasses {} (and {} run as plain command text, by an echo control; {} run through an evaluator the command names, by a control without it); benign {}, false denials {} ({:.3}%), denied by design {} (by label) + {} (a shell does not keep the bodies as data); rejected by bash 5.2 or timed out {}\n",
        t.cases,
        shells.join(", "),
        t.canary_cases,
        t.ran_in
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join(", "),
        t.bypasses.len(),
        t.plain_text,
        t.explicit,
        t.benign,
        false_total,
        100.0 * false_total as f64 / t.benign.max(1) as f64,
        t.by_design,
        t.body_as_code,
        t.rejected_by_bash52,
    );
    for (cat, cases) in &t.false_denials {
        report.push_str(&format!("  false denials, {cat}: {}\n", cases.len()));
    }
    if !t.unverified.is_empty() {
        report.push_str(&format!(
            "  not judged here: {} denials inside $(…), <(…) or backquotes, which only the missing {} could judge (listed in target/differential-report.txt)\n",
            t.unverified.len(),
            oracle::missing_shells().join(", ")
        ));
    }
    oracle::tell(report.trim_end());
    let mut full = report.clone();
    for b in &t.bypasses {
        full.push_str(&format!("{b}\n"));
    }
    for (cat, cases) in &t.false_denials {
        for c in cases {
            full.push_str(&format!("FALSE DENIAL ({cat}) {c}\n"));
        }
    }
    for c in &t.unverified {
        full.push_str(&format!("NOT JUDGED HERE (older bash missing) {c}\n"));
    }
    let _ = std::fs::write(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/differential-report.txt"),
        full,
    );
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
        false_total * 1000 <= t.benign,
        "{report}\nfalse denials over 0.1%, e.g.:\n{}",
        t.false_denials
            .values()
            .flat_map(|v| v.iter().take(2))
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        t.canary_cases > count as usize / 10,
        "too few live cases: {report}"
    );
    assert!(
        t.benign > count as usize / 10,
        "too few benign cases: {report}"
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
