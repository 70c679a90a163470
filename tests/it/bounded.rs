//! Bounded by construction: every recursive construct read on a small stack, no thread
//! for ordinary commands, and work that grows linearly with every construct repeated
//! (counted in the reader's work units, not timed: speed is measured by bench/run).

use heredoc_guard::limits::{SMALL_STACK_BYTES, SMALL_STACK_DEPTH};
use heredoc_guard::reader::{self as shell, Dialect, Shell, Work};
use heredoc_guard::{check_command, large_stack_readings};

use crate::support::work_limit_reason;

const HEREDOC: &str = "\ncat <<EOF\n$HOME\nEOF\n";

/// Every construct the reader follows by recursion, nested `n` levels deep.
fn nested(n: usize) -> Vec<(&'static str, String)> {
    let wrap = |open: &str, inner: &str, close: &str| {
        format!("{}{inner}{}", open.repeat(n), close.repeat(n))
    };
    let mut backquotes = String::from("x");
    for level in 0..n.min(10) {
        let escape = "\\".repeat((1usize << level) - 1);
        backquotes = format!("{escape}`echo {backquotes}{escape}`");
    }
    vec![
        ("$(…)", format!("echo {}", wrap("$(echo ", "x", ")"))),
        (
            "\"$(…)\"",
            format!("echo {}", wrap("\"$(echo ", "x", ")\"")),
        ),
        ("`…`", format!("echo {backquotes}")),
        ("${…}", format!("echo {}", wrap("${x:-", "x", "}"))),
        ("\"${…}\"", format!("echo {}", wrap("\"${x:-", "x", "}\""))),
        (
            "'…' in \"${…}\"",
            format!("echo \"{}\"", wrap("${x:-'", "x", "'}")),
        ),
        ("$((…))", format!("echo {}", wrap("$((", "1", "))"))),
        ("$[…]", format!("echo {}", wrap("$[", "1", "]"))),
        (
            "(…) in $((…))",
            format!("echo $(({}))", wrap("(", "1", ")")),
        ),
        ("((…))", format!("(({}))", wrap("(", "1", ")"))),
        ("( …)", wrap("( ", "echo x", " )")),
        ("(( …) )", wrap("((", "echo x", ") )")),
        ("{ …; }", wrap("{ ", "true; ", "}; ")),
        ("if", wrap("if true; then ", "true; ", "fi; ")),
        ("while", wrap("while true; do ", "true; ", "done; ")),
        ("for", wrap("for i in a; do ", "true; ", "done; ")),
        ("for ((", wrap("for ((;;)); do ", "true; ", "done; ")),
        ("case", wrap("case x in x) ", "true;; ", "esac;; esac; ")),
        ("function", wrap("f() { ", "true; ", "}; ")),
        ("<(…)", format!("cat {}", wrap("<(cat ", "x", ")"))),
        (">(…)", format!("tee {}", wrap(">(tee ", "x", ")"))),
        ("[[ ( … ) ]]", format!("[[ {} ]]", wrap("( ", "a", " )"))),
        ("[[ ! … ]]", format!("[[ {}a ]]", "! ".repeat(n))),
        ("[[ && ]]", format!("[[ a{} ]]", " && a".repeat(n * 100))),
        ("[[ || ]]", format!("[[ a{} ]]", " || a".repeat(n * 100))),
        ("!", format!("{}true", "! ".repeat(n * 100))),
        ("time", format!("{}true", "time ".repeat(n * 100))),
        ("a=(…)", format!("a=({})", wrap("$(a=(", "x", "))"))),
        ("a[…]", format!("a{}=1", wrap("[", "1", "]"))),
        (
            "@(…)",
            format!("shopt -s extglob\necho {}", wrap("@(", "a", ")")),
        ),
        ("${ …;}", format!("echo {}", wrap("${ echo ", "x", ";}"))),
        (
            "$(<<)",
            format!("echo {}", wrap("$(cat <<E\n", "E\n", ")\n")),
        ),
        ("| pipes", format!("true{}", " | true".repeat(n * 100))),
        ("&& lists", format!("true{}", " && true".repeat(n * 100))),
    ]
}

/// Every reading of every recursive construct, stopped at [`SMALL_STACK_DEPTH`], runs on
/// half of [`SMALL_STACK_BYTES`] in a debug build (a stack overflow aborts the test binary:
/// this cannot pass by failing quietly). Constructs the reader reads as loops (`! ! …`,
/// `[[ a && a … ]]`, pipelines) are repeated a hundred times deeper.
#[test]
fn every_recursive_construct_nested_to_the_small_stack_depth_fits_half_a_small_stack() {
    for (name, shape) in nested(SMALL_STACK_DEPTH + 8) {
        let command = format!("{shape}{HEREDOC}");
        for s in std::iter::once(Shell::Intended).chain(Shell::RUNNING) {
            for extglob in [false, true] {
                let owned = command.clone();
                let ok = std::thread::Builder::new()
                    .stack_size(SMALL_STACK_BYTES / 2)
                    .spawn(move || {
                        let work = Work::new(shell::MAX_WORK, None, SMALL_STACK_DEPTH);
                        let _ = shell::read_with(
                            &owned,
                            Dialect {
                                shell: s,
                                extglob,
                                aliases: false,
                            },
                            &work,
                        );
                    })
                    .map(|h| h.join().is_ok())
                    .unwrap_or(false);
                assert!(ok, "{name}: {s:?} extglob={extglob}");
            }
        }
    }
}

/// The end of a `${…}` or a double-quoted part inside a body is found without recursing
/// once per level past a fixed depth: 100,000 nested `${"` in a body (600 KB) once
/// overflowed the stack (a crash, which blocks nothing), found by a red team (helper-20).
/// On half of a small stack the check now ends in a deny of the body it cannot read.
#[test]
fn a_body_nesting_quotes_in_braces_100000_deep_is_denied_on_half_a_small_stack() {
    for open in ["${\"", "${x:-\""] {
        let n = 100_000;
        let command = format!("cat <<E\nhello\n{}{}\nE\n", open.repeat(n), "\"}".repeat(n));
        let denial = std::thread::Builder::new()
            .stack_size(SMALL_STACK_BYTES / 2)
            .spawn(move || heredoc_guard::check_command(&command).into_denial())
            .expect("thread")
            .join()
            .expect("no stack overflow");
        let denial = denial.unwrap_or_else(|| panic!("{open}: allowed"));
        assert_eq!(
            denial.rule.id(),
            "heredoc-command-substitution",
            "{open}: {}",
            denial.reason
        );
        assert!(
            denial
                .reason
                .contains("more expansions than the guard reads"),
            "{open}: {}",
            denial.reason
        );
    }
}

/// The whole check of a command nesting past [`SMALL_STACK_DEPTH`] starts on a small stack
/// and reads again on a large-stack thread: the verdict comes back, and one thread was
/// used.
#[test]
fn a_command_nesting_past_the_small_stack_depth_is_read_again_on_a_large_stack() {
    for (name, shape) in nested(SMALL_STACK_DEPTH * 3) {
        let command = format!("{shape}{HEREDOC}");
        let outcome = std::thread::Builder::new()
            .stack_size(SMALL_STACK_BYTES / 2)
            .spawn(move || {
                let before = large_stack_readings();
                let verdict = check_command(&command);
                (verdict.is_allow(), large_stack_readings() - before)
            })
            .map(|h| h.join());
        let Ok(Ok((_, threads))) = outcome else {
            panic!("{name}: the check did not come back");
        };
        // Constructs read as loops or counted brackets never nest, nor do heredocs whose
        // bodies hold the next level's text: those stay on the calling thread.
        let loops = [
            "[[ && ]]",
            "[[ || ]]",
            "!",
            "time",
            "| pipes",
            "&& lists",
            "`…`",
            "(…) in $((…))",
            "((…))",
            "(( …) )",
            "a[…]",
            "@(…)",
            "$(<<)",
        ];
        let want = usize::from(!loops.contains(&name));
        assert_eq!(threads, want, "{name}: large-stack readings");
    }
}

/// A typical agent commit (2 KB message in `git commit -m "$(cat <<'EOF' … EOF\n)"`)
/// is read on the calling thread: no thread is spawned, and it is allowed.
#[test]
fn a_two_kilobyte_commit_spawns_no_thread() {
    let line = "- handle `EOF)` closers and $(...) text in the message body, see #12\n";
    let body = line.repeat(2048 / line.len());
    let command = format!("git commit -m \"$(cat <<'EOF'\nfix: the thing\n\n{body}EOF\n)\"");
    assert!(command.len() > 2000);
    let before = large_stack_readings();
    assert!(check_command(&command).is_allow());
    assert_eq!(large_stack_readings(), before, "a thread was spawned");
}

/// Every construct the reader knows inside a word, as text that can be repeated.
const WORD_PIECES: &[&str] = &[
    "\"a\"",
    "'a'",
    "$'a'",
    "$\"a\"",
    "\\a",
    "$a",
    "${a}",
    "${a:-b}",
    "\"${a:-'b'}\"",
    "${a-\"$b\"}",
    "$(a)",
    "\"$(a)\"",
    "`a`",
    "\"`a`\"",
    "$((1))",
    "$((a)+(b))",
    "$[1]",
    "<(a)",
    "@(a)",
    "${ a; }",
    "a=",
    "[1]",
    "{a}",
    "a}",
    "{",
    "$$",
    "\\\n",
    "\r",
    "$(cat <<E\nE\n)",
    "$(cat <<E\nE)",
];

/// Every command construct, as text that can be repeated (one after another on a line,
/// or one per line).
const COMMANDS: &[&str] = &[
    "a",
    "[[ a && b ]]",
    "[[ ( a ) || ! b ]]",
    "((a+1))",
    "(( (a) ))",
    "((a) )",
    "case a in a) b;; esac",
    "a=(x y)",
    "a[1]=x",
    "a <<<a",
    "a >a",
    "a | a",
    "a && a",
    "{ a; }",
    "( a )",
    "f() { a; }",
    "if a; then b; fi",
    "for i in a; do b; done",
    "for ((;;)); do b; done",
    "while a; do b; done",
    "! a",
    "time a",
    "alias a=b",
    "shopt -s extglob",
    "cat <<E\nE",
    "cat <<-E\n\tE",
    "a #c",
];

/// The work units every reading (intended, every shell, extglob on and off) of `command`
/// charges, read on a large stack with no limit in the way.
fn work_of(command: &str) -> usize {
    let owned = command.to_owned();
    std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(move || {
            let work = Work::new(usize::MAX / 4, None, shell::MAX_NESTING);
            for s in std::iter::once(Shell::Intended).chain(Shell::RUNNING) {
                for extglob in [false, true] {
                    let _ = shell::read_with(
                        &owned,
                        Dialect {
                            shell: s,
                            extglob,
                            aliases: false,
                        },
                        &work,
                    );
                }
            }
            work.used()
        })
        .expect("spawn")
        .join()
        .expect("reader panicked")
}

/// A word piece repeated `k` times: in one word, on one line, in one unquoted heredoc
/// body line, one per line of a command; a command repeated on one line (`;`), one per
/// line, inside `$(…)` and in a body. Each with a heredoc after it.
fn placements(c: &str, word: bool, k: usize) -> Vec<(&'static str, String)> {
    let mut v = vec![("body", format!("cat <<EOF\n{}\nEOF\n", c.repeat(k)))];
    if word {
        v.push(("word", format!("echo x{}{HEREDOC}", c.repeat(k))));
        v.push((
            "line",
            format!("echo x {}{HEREDOC}", format!("{c} ").repeat(k)),
        ));
        v.push((
            "command",
            format!("{}{HEREDOC}", format!("echo {c}\n").repeat(k)),
        ));
    } else {
        v.push(("line", format!("{}{HEREDOC}", format!("{c}; ").repeat(k))));
        v.push((
            "command",
            format!("{}{HEREDOC}", format!("{c}\n").repeat(k)),
        ));
        v.push((
            "substitution",
            format!("echo \"$({})\"{HEREDOC}", format!("{c}\n").repeat(k)),
        ));
    }
    v
}

/// The reader's work grows linearly with every construct repeated, wherever it stands:
/// doubling the repetitions at most doubles the work (plus a little for the text around
/// them), and it does grow (every repetition is read). Quadratic rescans (a word read
/// again for each quoted part, the rest of a word read again for each `$(`) fail here.
/// Counted in work units, the reader's measure of time (every byte it reads is charged at
/// the input layer); speed itself is measured by bench/run.
#[test]
fn every_construct_repeated_costs_work_linear_in_the_repetitions() {
    let mut problems = Vec::new();
    let all = WORD_PIECES
        .iter()
        .map(|c| (c, true))
        .chain(COMMANDS.iter().map(|c| (c, false)));
    for (c, word) in all {
        let k = (1500 / c.len()).max(50);
        let pairs = placements(c, word, k)
            .into_iter()
            .zip(placements(c, word, 2 * k));
        for ((place, small), (_, large)) in pairs {
            let (a, b) = (work_of(&small), work_of(&large));
            // Doubling: at most 2.2 times the work; and more work than before.
            if b * 10 > a * 22 || b <= a {
                problems.push(format!(
                    "{c:?} × {k} in one {place}: {a} units, × {}: {b} units",
                    2 * k
                ));
            }
        }
    }
    assert!(problems.is_empty(), "not linear:\n{}", problems.join("\n"));
}

/// The clock, read inside the work meter: a reading past its deadline stops with the
/// time limit (the cause the deny names, `inspection limit: time`), and one within its
/// budget and deadline reads to the end.
#[test]
fn a_reading_past_its_deadline_stops_at_the_time_limit() {
    let command = format!("echo {}{HEREDOC}", "a b ".repeat(50_000));
    let past = Work::new(
        shell::MAX_WORK,
        Some(shell::Deadline::at(std::time::Instant::now())),
        48,
    );
    let r = shell::read_with(&command, Dialect::new(Shell::Bash52), &past);
    let e = r.error.expect("stopped");
    assert_eq!(e.limit, Some(shell::Stop::Time), "{e:?}");
    let later = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    let ample = Work::new(shell::MAX_WORK, Some(shell::Deadline::at(later)), 48);
    let r = shell::read_with(&command, Dialect::new(Shell::Bash52), &ample);
    assert_eq!(r.error, None);
    assert_eq!(r.heredocs.len(), 1);
}

/// The clock the meter reads is the reading thread's CPU time too: a reading whose CPU
/// budget is spent stops with the time limit even when the wall-clock deadline is an hour
/// away, and one with CPU time to spare reads to the end.
#[test]
fn a_reading_past_its_cpu_time_stops_at_the_time_limit() {
    use std::time::Duration;
    let command = format!("echo {}{HEREDOC}", "a b ".repeat(50_000));
    let spent = Work::new(
        shell::MAX_WORK,
        Some(shell::Deadline::after(
            Duration::from_secs(3600),
            Duration::ZERO,
        )),
        48,
    );
    let r = shell::read_with(&command, Dialect::new(Shell::Bash52), &spent);
    let e = r.error.expect("stopped");
    assert_eq!(e.limit, Some(shell::Stop::Time), "{e:?}");
    let ample = Work::new(
        shell::MAX_WORK,
        Some(shell::Deadline::after(
            Duration::from_secs(3600),
            Duration::from_secs(3600),
        )),
        48,
    );
    let r = shell::read_with(&command, Dialect::new(Shell::Bash52), &ample);
    assert_eq!(r.error, None);
    assert_eq!(r.heredocs.len(), 1);
}

/// The work budget ends a reading wherever it is reached: a dense command over it is a
/// limit, `inspection limit: reading work` through the whole check.
#[test]
fn dense_code_over_the_work_budget_is_denied_by_the_work_limit() {
    let command = format!("echo {}{HEREDOC}", "a ".repeat(500_000));
    work_limit_reason(&command, "reading work");
    // (With the clock, a limit all the same: the work budget or the time.)
    let denial = check_command(&command).into_denial().expect("denied");
    assert_eq!(denial.rule.id(), "inspection-limit", "{}", denial.reason);
}

/// The judge keeps a value's texts exactly only while they are few and short (then their
/// bytes): a value that doubles at each assignment (`x1=$x0$x0`, 2^40 bytes in the end)
/// and a long value used many times stay small, a `printf` format reused for many
/// arguments is not multiplied out, and each ends in an allow (nothing evaluates heredoc
/// text there) instead of running out of memory, time or work.
#[test]
fn values_that_multiply_the_input_stay_bounded() {
    let mut doubling = String::from("x0=1; ");
    for i in 1..=40 {
        doubling.push_str(&format!("x{i}=\"$x{}$x{}\"; ", i - 1, i - 1));
    }
    doubling.push_str("echo \"$x40\"");
    let verdict = check_command(&format!("{doubling}{HEREDOC}"));
    assert!(verdict.is_allow(), "{verdict:?}");

    let long = "a".repeat(1 << 19);
    let uses = "\"$x\" ".repeat(2_000);
    let verdict = check_command(&format!("x='{long}'; echo {uses}{HEREDOC}"));
    assert!(verdict.is_allow(), "{verdict:?}");

    // A 64 KiB format with one `%s`, given 2,000 arguments, would print 128 MiB: it is
    // text the command composes, not followed, and the quoted heredoc stays allowed.
    let format = "b".repeat(64 * 1024);
    let args = "1 ".repeat(2_000);
    let verdict = check_command(&format!(
        "printf '{format}%s' {args}\ncat <<'EOF'\n$HOME\nEOF\n"
    ));
    assert!(verdict.is_allow(), "{verdict:?}");
}

/// bash 5.3's `${ …;}` nested 144 levels (each level's value once, not once per use):
/// read and judged within the budget, allowed with a quoted heredoc after it.
#[test]
fn nested_function_substitutions_are_valued_once_per_level() {
    let n = 144;
    let command = format!(
        "echo {}x{}\ncat <<'EOF'\n$HOME\nEOF\n",
        "${ echo ".repeat(n),
        ";}".repeat(n)
    );
    let verdict = check_command(&command);
    assert!(verdict.is_allow(), "{verdict:?}");
}

/// Text `eval` runs has every offset pinned to the `eval`'s, so its nested substitutions
/// share one key: each is walked once (this was an endless recursion, a stack overflow in
/// 10 ms). `eval 'a=$(b=$(c))'` runs no heredoc text: allowed.
#[test]
fn nested_substitutions_in_eval_text_are_walked_once() {
    for command in [
        "eval 'a=$(b=$(c))'",
        "eval 'echo $(echo $(echo x))'",
        "x=$(eval 'echo $(echo $(echo x))')",
        "trap 'echo $(a $(b))' EXIT",
    ] {
        let verdict = check_command(&format!("{command}{HEREDOC}"));
        assert!(verdict.is_allow(), "{command}: {verdict:?}");
    }
}

/// Namerefs that all refer to each other (`declare -n n0 … n9`, every `ni=nj`) are read
/// through once per variable, not once per path (10^8 paths at depth 8): a verdict, the
/// heredoc allowed.
#[test]
fn namerefs_referring_to_each_other_are_each_read_once() {
    let names: Vec<String> = (0..10).map(|i| format!("n{i}")).collect();
    let mut command = format!("declare -n {}\n", names.join(" "));
    for a in &names {
        for b in &names {
            command.push_str(&format!("{a}={b}\n"));
        }
    }
    command.push_str("echo \"$n0\"");
    let verdict = check_command(&format!("{command}{HEREDOC}"));
    assert!(verdict.is_allow(), "{verdict:?}");
}

/// The effects walk's shapes from the time red team (round 6), each at a size that took
/// seconds to minutes, or crashed, in the old effects model: the judge's walk is one pass
/// and its values are capped, so each is read whole and allowed within the work budget
/// (checked without the clock: how long that takes is the bench's to say).
#[test]
fn the_effects_walk_shapes_of_the_time_red_team_end_in_a_verdict() {
    let n = 3_000;
    let body = "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10\n".repeat(16 * 1024);
    let list = |f: &dyn Fn(usize) -> String, sep: &str| (0..n).map(f).collect::<Vec<_>>().join(sep);
    let shapes: Vec<(&str, String)> = vec![
        (
            "every read splits the whole body into fields",
            format!(
                "{{ {} ; }} <<'EOF'\n{body}EOF",
                list(&|_| "read a".into(), "; ")
            ),
        ),
        (
            "every cat's output kept and joined",
            format!(
                "{{ {} ; }} <<'EOF'\n{body}EOF",
                list(&|_| "cat".into(), "; ")
            ),
        ),
        (
            "a large value reassigned",
            format!(
                "v=$(cat <<'EOF'\n{body}EOF\n)\n{}",
                list(&|_| "v=1".into(), "\n")
            ),
        ),
        (
            "a glob read against every file written",
            format!(
                "{}\ncat {}",
                list(&|i| format!(": >f{i}"), "\n"),
                list(&|_| "*".into(), " ")
            ),
        ),
        (
            "names the environment gives, against every variable",
            format!(
                "declare {}\nread x\n: {}",
                list(&|i| format!("a{i}"), " "),
                list(&|_| "$x".into(), " ")
            ),
        ),
        (
            "variables listed by prefix",
            format!(
                "declare {}\n: {}",
                list(&|i| format!("a{i}"), " "),
                list(&|_| "${!a@}".into(), " ")
            ),
        ),
        (
            "one value split into many rebinds",
            format!(
                "c='hash -p /bin/sh {}'\n$c",
                list(&|i| format!("n{i}"), " ")
            ),
        ),
        (
            "aliases defined and used on one line",
            format!(
                "alias {}; : $(: {})",
                list(&|i| format!("a{i}=x"), " "),
                list(&|i| format!("w{i}"), " ")
            ),
        ),
        (
            "many effects on one line",
            // (`date +%s` prints a number; `date` alone prints a zone's name, which files
            // the command may write give: run-time text.)
            format!("v=$(date +%s)\nunset {}", list(&|_| "$v".into(), " ")),
        ),
    ];
    for (name, shape) in shapes {
        let verdict = heredoc_guard::check_command_without_clock(&format!("{shape}{HEREDOC}"));
        assert!(verdict.is_allow(), "{name}: {verdict:?}");
    }
}

/// Text `eval` would run that is too long to follow (two literal copies joined past the
/// 1 MiB a value is followed for) is not dropped: not knowing what runs denies. It held a
/// live heredoc and was allowed when the texts were cleared without a word.
#[test]
fn eval_of_a_variable_is_explicit_and_not_read_whatever_its_text() {
    // `eval "$a"` names its evaluator: the text it runs is the author's choice (the
    // promise's explicit side), however long, and is not read as a program.
    let a = format!("cat <<EOF\n$(canary)\nEOF\n#{}", "x".repeat(400_000));
    let command = format!("a='{a}'\neval \"$a\" \"$a\" \"$a\"");
    assert!(check_command(&command).is_allow());
    // The same text written in the eval's own words is read, and its heredoc denies (a
    // shorter copy: a literal eval text is read by every reading, within the work limit).
    let short = format!("cat <<EOF\n$(canary)\nEOF\n#{}", "x".repeat(100_000));
    let literal = format!("eval '{short}'");
    assert_eq!(
        check_command(&literal).into_denial().map(|d| d.rule.id()),
        Some("heredoc-command-substitution")
    );
}
