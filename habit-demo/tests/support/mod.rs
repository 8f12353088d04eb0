//! Running the built `habit-demo` binary with piped stdin, for the end-to-end tests: a sandbox
//! for its files, whole runs ([`run`], [`Sandbox::run_script`]) and a run driven between its
//! prompts ([`Running`]).

#![allow(dead_code, unreachable_pub)] // each test crate uses a different part of this module

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use habit_tools::{Coach, Store};
use serde_json::Value;

/// The real model for the live tests (`$GEMMA_MODEL`, else the cache of
/// `scripts/fetch-model.sh`); `None`, with a message, when it is missing — except under
/// `CI=true`, where a missing model fails the test so CI cannot pass without running it.
pub fn model_path() -> Option<PathBuf> {
    let path = agent_core::llm::gemma::GemmaBackend::default_model_path();
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "no model at {}: CI must run scripts/fetch-model.sh (or set GEMMA_MODEL) first",
        path.display()
    );
    eprintln!(
        "skipping live test: no model at {} (run scripts/fetch-model.sh)",
        path.display()
    );
    None
}

/// Sends Ctrl-C (SIGINT) to the process `pid`.
pub fn interrupt(pid: u32) {
    let status = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
}

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_habit-demo");

/// What one run printed and how it ended.
#[derive(Debug)]
pub struct Output {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    /// Panics with both streams unless the run exited 0.
    pub fn assert_success(&self) {
        assert!(self.status.success(), "exit {:?}\n{self}", self.status);
    }
}

impl std::fmt::Display for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--- stdout ---\n{}\n--- stderr ---\n{}",
            self.stdout, self.stderr
        )
    }
}

/// A scratch directory with a database path, a script and its log.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temp dir"),
        }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("habits.sqlite3")
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// A command for the binary with a clean environment: no colours, no model or data
    /// directory from the developer's machine.
    pub fn command(&self) -> Command {
        let mut command = Command::new(BIN);
        command
            .env("NO_COLOR", "1")
            .env_remove("GEMMA_MODEL")
            .env("HOME", self.dir.path())
            .env("XDG_CACHE_HOME", self.dir.path().join("cache"))
            .env("XDG_DATA_HOME", self.dir.path().join("data"));
        command
    }

    /// A command for the binary in script mode over the database at `db`: `script` is written
    /// to `script.json` as the model's turns, and what the model was told goes to
    /// `script-log.json` (removed first, so [`Sandbox::script_log`] reads only this run's).
    pub fn script_command_on(&self, db: &Path, script: &Value) -> Command {
        let script_path = self.path("script.json");
        let log_path = self.path("script-log.json");
        let _ = std::fs::remove_file(&log_path);
        std::fs::write(&script_path, script.to_string()).expect("write script");
        let mut command = self.command();
        command
            .arg("--db")
            .arg(db)
            .arg("--script")
            .arg(&script_path)
            .arg("--script-log")
            .arg(&log_path);
        command
    }

    /// [`Sandbox::script_command_on`] this sandbox's database.
    pub fn script_command(&self, script: &Value) -> Command {
        self.script_command_on(&self.db(), script)
    }

    /// The log of the last scripted run, `Null` when it wrote none.
    pub fn script_log(&self) -> Value {
        std::fs::read_to_string(self.path("script-log.json"))
            .map(|text| serde_json::from_str(&text).expect("log is JSON"))
            .unwrap_or(Value::Null)
    }

    /// Runs the binary in script mode over this sandbox's database, feeding `stdin` (bytes, so
    /// a test can send what is not UTF-8). Returns the output and the script log.
    pub fn run_script(
        &self,
        script: &Value,
        stdin: impl AsRef<[u8]>,
        extra: &[&str],
    ) -> (Output, Value) {
        let mut command = self.script_command(script);
        command.args(extra);
        let output = run(command, stdin.as_ref());
        (output, self.script_log())
    }

    /// A coach over this sandbox's database, opened independently of the binary.
    pub fn coach(&self) -> Coach {
        coach_at(&self.db())
    }
}

/// A coach over the database at `path`.
pub fn coach_at(path: &Path) -> Coach {
    Coach::with_system_clock(Arc::new(Store::open(path).expect("open store")))
}

/// Runs `command` with `stdin` piped (then closed) and waits at most two minutes.
pub fn run(command: Command, stdin: &[u8]) -> Output {
    run_within(command, stdin, Duration::from_secs(120))
}

/// [`run`] with another time limit.
pub fn run_within(mut command: Command, stdin: &[u8], limit: Duration) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn habit-demo");
    if let Some(mut pipe) = child.stdin.take() {
        // The binary may exit before reading everything (e.g. after /quit).
        let _ = pipe.write_all(stdin);
    }
    wait(child, limit)
}

/// Collects a child's output, killing it if it runs past `limit`.
pub fn wait(mut child: Child, limit: Duration) -> Output {
    let mut stdout = child.stdout.take().expect("stdout piped");
    let mut stderr = child.stderr.take().expect("stderr piped");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "habit-demo ran for more than {limit:?}; stdout so far:\n{}",
                out.join().unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// The binary running with stdin held open and stdout read as it comes, for a test that acts
/// between its prompts (answers late, takes a lock, sends Ctrl-C). Stderr is discarded.
///
/// The child is reaped only by [`Running::quit`], so the pid [`Running::interrupt`] signals
/// stays its own for the whole test.
pub struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    chunks: Receiver<Vec<u8>>,
    seen: Vec<u8>,
}

impl Running {
    /// Starts `command` with stdin and stdout piped.
    pub fn spawn(mut command: Command) -> Self {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn habit-demo");
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().expect("stdout piped");
        // A thread, so that `wait_for` can give up at its deadline instead of blocking in read.
        let (sender, chunks) = channel();
        std::thread::spawn(move || {
            let mut buffer = [0_u8; 512];
            while let Ok(n @ 1..) = stdout.read(&mut buffer) {
                if sender.send(buffer[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            chunks,
            seen: Vec::new(),
        }
    }

    /// Types `text` (include the newline).
    pub fn write(&mut self, text: &str) {
        self.stdin
            .as_mut()
            .expect("stdin still open")
            .write_all(text.as_bytes())
            .expect("write to habit-demo");
    }

    /// Waits up to a minute for `needle` in stdout and returns all of stdout so far; past the
    /// deadline the child is killed and the test fails with what it printed.
    pub fn wait_for(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !String::from_utf8_lossy(&self.seen).contains(needle) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.seen.extend(chunk),
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("no {needle:?} in:\n{}", String::from_utf8_lossy(&self.seen));
                }
            }
        }
        String::from_utf8_lossy(&self.seen).into_owned()
    }

    /// Ctrl-C: SIGINT to the child, as the terminal sends it.
    pub fn interrupt(&self) {
        interrupt(self.child.id());
    }

    /// Ends the input and waits for the goodbye and a clean exit; returns all of stdout.
    pub fn quit(mut self) -> String {
        drop(self.stdin.take());
        let shown = self.wait_for("안녕히 가세요");
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "{status:?}\n{shown}");
        shown
    }
}
