//! Runs a child process with stdin fed from memory, stdout and stderr collected, and a
//! deadline after which the child is killed.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a finished (or killed) child gave back.
#[derive(Debug)]
pub struct Finished {
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
    /// The signal that ended it, if any.
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// True when the deadline passed and the child was killed.
    pub timed_out: bool,
}

impl Finished {
    /// "exit 2", "signal 6" or "killed after the deadline", for messages.
    pub fn status_text(&self) -> String {
        match (self.timed_out, self.code, self.signal) {
            (true, _, _) => "no answer before the deadline (killed)".to_owned(),
            (false, Some(code), _) => format!("exit {code}"),
            (false, None, Some(signal)) => format!("killed by signal {signal}"),
            (false, None, None) => "unknown status".to_owned(),
        }
    }
}

/// Runs `command` with `stdin`, for at most `timeout`. The child leads a process group of
/// its own, and the whole group is killed at the deadline (so a shell's children go too).
pub fn run(mut command: Command, stdin: &[u8], timeout: Duration) -> Result<Finished, String> {
    use std::os::unix::process::CommandExt;
    command
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = spawn(&mut command)?;
    let input = stdin.to_vec();
    let writer = child.stdin.take().map(|mut pipe| {
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        })
    });
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(pipe) = pipe {
                let _ = pipe.take(1 << 20).read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + timeout;
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                timed_out = true;
                kill_group(child.id());
                let _ = child.kill();
                match child.wait() {
                    Ok(status) => break status,
                    Err(e) => return Err(format!("cannot wait for the child: {e}")),
                }
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("cannot wait for the child: {e}")),
        }
    };
    if let Some(w) = writer {
        let _ = w.join();
    }
    use std::os::unix::process::ExitStatusExt;
    Ok(Finished {
        code: status.code(),
        signal: status.signal(),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
    })
}

/// Spawns `command`, retrying for a moment on ETXTBSY (a file just written is briefly
/// "busy" while a process forked meanwhile still holds its write descriptor).
fn spawn(command: &mut Command) -> Result<std::process::Child, String> {
    let mut tries = 0;
    loop {
        match command.spawn() {
            Ok(child) => return Ok(child),
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && tries < 20 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(25));
            }
            Err(e) => return Err(format!("cannot start {:?}: {e}", command.get_program())),
        }
    }
}

/// Kills the process group `pgid` (a child started with `process_group(0)`), through
/// kill(1).
pub fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}
