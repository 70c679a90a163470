//! The bench's event generator (bench/events.py, bench/shapes.py, run with python3): each
//! ordinary script it writes is a Claude Code Bash event whose command has exactly the size
//! asked, and the text is shell that bash reads and the guard allows. (The timing itself is
//! bench/run's; nothing here measures speed.)

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::oracle::bash_path;
use crate::support::{allow_problem, run};

/// The scripts the bench times, written out here: the seven shapes of issue 28 and the two
/// templates of public scripts' shapes.
const SHAPES: [&str; 9] = [
    "echo-lines",
    "heredoc-functions",
    "read-loops",
    "exports",
    "if-blocks",
    "pipelines",
    "test-blocks",
    "installer",
    "test-suite",
];

/// Runs `python3 bench/events.py <dir> --shapes-only --sizes <sizes>` and returns `dir`'s
/// `shapes/` folder. python3 is needed (bench/run needs it too): without it, this fails and
/// says so.
fn generate(dir: &Path, sizes: &[usize]) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
    let out = Command::new("python3")
        .arg(root.join("bench/events.py"))
        .arg(dir)
        .args(["--shapes-only", "--sizes", &sizes.join(",")])
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "could not run python3 ({e}): the bench's event generator bench/events.py needs \
                 python3 3.9 or later on PATH (apt-get install python3)"
            )
        });
    assert!(
        out.status.success(),
        "bench/events.py failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join("shapes")
}

#[test]
fn bench_generator_writes_each_ordinary_script_as_a_claude_bash_event_of_the_size_asked() {
    let dir = tempfile::tempdir().expect("tempdir");
    // The smallest and largest sizes the bench uses, and one that is no multiple of a unit.
    let sizes = [4096, 5001, 1_040_000];
    let shapes = generate(dir.path(), &sizes);
    let mut expected = Vec::new();
    for shape in SHAPES {
        for size in sizes {
            expected.push(format!("{shape}@{size}.json"));
            expected.push(format!("{shape}@{size}.sh"));
        }
    }
    expected.sort();
    let mut written: Vec<String> = std::fs::read_dir(&shapes)
        .expect("shapes/ written")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, expected, "the files the generator wrote");
    let events = std::fs::read_dir(dir.path().join("events")).expect("events/");
    assert_eq!(events.count(), 0, "--shapes-only wrote events/ cases");

    for shape in SHAPES {
        for size in sizes {
            let name = format!("{shape}@{size}");
            let text = std::fs::read(shapes.join(format!("{name}.json"))).expect("event");
            let event: serde_json::Value = serde_json::from_slice(&text)
                .unwrap_or_else(|e| panic!("{name}.json is not JSON: {e}"));
            assert_eq!(event["hook_event_name"], "PreToolUse", "{name}");
            assert_eq!(event["tool_name"], "Bash", "{name}");
            let command = event["tool_input"]["command"]
                .as_str()
                .unwrap_or_else(|| panic!("{name}: tool_input.command is not a string"));
            assert_eq!(command.len(), size, "{name}: the command's size in bytes");
            assert!(
                command.len() < 1_048_576,
                "{name}: over the command size limit"
            );
            let plain = std::fs::read(shapes.join(format!("{name}.sh"))).expect("script");
            assert_eq!(
                plain,
                command.as_bytes(),
                "{name}.sh differs from the event's command"
            );
        }
    }
}

#[test]
fn bench_ordinary_scripts_at_4_kib_are_shell_bash_reads_and_the_guard_allows() {
    let dir = tempfile::tempdir().expect("tempdir");
    let shapes = generate(dir.path(), &[4096]);
    let bash = bash_path().expect("bash (/bin/bash or /usr/bin/bash) to check the scripts");
    let ledger = dir.path().join("ledger.jsonl");
    for shape in SHAPES {
        let script = shapes.join(format!("{shape}@4096.sh"));
        let read = Command::new(&bash)
            .arg("-n")
            .arg(&script)
            .output()
            .expect("bash -n");
        assert!(
            read.status.success() && read.stderr.is_empty(),
            "{shape}: bash -n rejects the bench's script: {}",
            String::from_utf8_lossy(&read.stderr)
        );
        let event = std::fs::read(shapes.join(format!("{shape}@4096.json"))).expect("event");
        let r = run(&event, &ledger);
        assert_eq!(
            allow_problem(&r),
            None,
            "{shape}: an ordinary script of 4 KiB, nothing in it runs heredoc text"
        );
    }
}
