//! Running the built `habit-demo` binary with piped stdin, for the end-to-end tests.

#![allow(dead_code, unreachable_pub)] // each test crate uses a different part of this module

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use habit_tools::{Coach, Store};
use serde_json::Value;

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

    /// Runs the binary in script mode over this sandbox's database, feeding `stdin`.
    /// Returns the output and the script log.
    pub fn run_script(&self, script: &Value, stdin: &str, extra: &[&str]) -> (Output, Value) {
        let script_path = self.path("script.json");
        let log_path = self.path("script-log.json");
        let _ = std::fs::remove_file(&log_path);
        std::fs::write(&script_path, script.to_string()).expect("write script");
        let mut command = self.command();
        command
            .arg("--db")
            .arg(self.db())
            .arg("--script")
            .arg(&script_path)
            .arg("--script-log")
            .arg(&log_path)
            .args(extra);
        let output = run(command, stdin.as_bytes());
        let log = std::fs::read_to_string(&log_path)
            .map(|text| serde_json::from_str(&text).expect("log is JSON"))
            .unwrap_or(Value::Null);
        (output, log)
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
