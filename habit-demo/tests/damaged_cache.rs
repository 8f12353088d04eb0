//! The model-state cache as a failing disk, a torn write or another program with the user's
//! rights could leave it: each kind of damaged file, one at a time, under a prepared cache —
//! cut short at its layout's boundaries (with a `.meta` forged to match, so the checksum
//! cannot catch it), emptied, filled with other bytes, swapped with another cache file, made
//! a FIFO, a device, a directory, a dangling link or a link to a huge file; vectors that are
//! NaN or of another width under a checksum that matches. Every start must end in seconds,
//! never abort, say in one line which file it made again, and leave a cache the next start
//! restores; and after all of it the chat chooses exactly as it did on the clean cache. Two
//! processes preparing an empty cache at once leave one the next start restores; Ctrl-C
//! during a first start ends it at once with a line that says so.
//!
//! Needs the real model, like `live.rs`: skipped locally without it, a failure under
//! `CI=true`.

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use support::{Output, Sandbox};

/// The line a start prints for each cache file it made again.
const REPAIRED: &str = "⚠ 캐시 파일을 다시 만들었습니다";

/// The cache's files, found by what they are.
struct Files {
    dir: PathBuf,
}

impl Files {
    fn find(&self, wanted: impl Fn(&str) -> bool) -> PathBuf {
        let mut names: Vec<String> = fs::read_dir(&self.dir)
            .expect("the cache directory")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|name| wanted(name))
            .collect();
        names.sort();
        assert_eq!(names.len(), 1, "one such file: {names:?}");
        self.dir.join(&names[0])
    }

    /// The preamble's KV state.
    fn state(&self) -> PathBuf {
        self.find(|n| n.ends_with(".kv"))
    }

    fn state_meta(&self) -> PathBuf {
        self.state().with_extension("meta")
    }

    /// The reading model cut from the model's first blocks.
    fn cut(&self) -> PathBuf {
        self.find(|n| n.ends_with(".gguf"))
    }

    fn cut_meta(&self) -> PathBuf {
        self.cut().with_extension("meta")
    }

    /// The declared examples' vectors.
    fn vectors(&self) -> PathBuf {
        self.find(|n| n.ends_with(".vectors"))
    }
}

/// Writes `bytes` as the state file and rewrites its `.meta` to match them, as a torn write
/// that happened to leave a matching `.meta`, or a forger, would.
fn forge_state(files: &Files, bytes: &[u8]) {
    let meta = fs::read_to_string(files.state_meta()).expect("the state's .meta");
    let forged: String = meta
        .lines()
        .map(|line| {
            if line.starts_with("bytes ") {
                format!("bytes {}\n", bytes.len())
            } else if line.starts_with("hash ") {
                format!("hash {:016x}\n", xxhash_rust::xxh3::xxh3_64(bytes))
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    fs::write(files.state(), bytes).expect("write the state");
    fs::write(files.state_meta(), forged).expect("write the .meta");
}

/// FNV-1a, the vectors file's checksum.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A vectors file of `count` vectors of `width` values each, all `value`, with a checksum
/// that matches.
fn forge_vectors(path: &Path, count: u64, width: u64, value: f32) {
    let mut bytes = b"AGRSVEC1".to_vec();
    bytes.extend(count.to_le_bytes());
    bytes.extend(width.to_le_bytes());
    for _ in 0..count * width {
        bytes.extend(value.to_le_bytes());
    }
    let hash = fnv(&bytes);
    bytes.extend(hash.to_le_bytes());
    fs::write(path, bytes).expect("write the vectors");
}

/// The count and width a vectors file records.
fn vectors_shape(path: &Path) -> (u64, u64) {
    let bytes = fs::read(path).expect("the vectors");
    let field = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    (field(8), field(16))
}

fn replace_with_fifo(path: &Path) {
    let _ = fs::remove_file(path);
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(made.success());
}

fn replace_with_link(path: &Path, target: &Path) {
    let _ = fs::remove_file(path);
    std::os::unix::fs::symlink(target, path).expect("symlink");
}

fn replace_with_dir(path: &Path) {
    let _ = fs::remove_file(path);
    fs::create_dir(path).expect("a directory");
    fs::write(path.join("inside"), b"x").expect("a file inside");
}

fn cut_to(path: &Path, len: u64) {
    let file = fs::OpenOptions::new().write(true).open(path).expect("open");
    file.set_len(len).expect("truncate");
}

#[test]
fn every_kind_of_damaged_cache_file_is_made_again_in_seconds_and_changes_no_choice() {
    let Some(model) = support::model_path() else {
        return;
    };
    let sandbox = Sandbox::new();
    let files = Files {
        dir: sandbox.path("cache").join("agent-rs").join("prefix"),
    };
    let prepare = || -> (Output, Duration) {
        let mut command = sandbox.command();
        command.arg("prepare").arg("--model").arg(&model);
        let started = Instant::now();
        let out = support::run_within(command, b"", Duration::from_secs(300));
        (out, started.elapsed())
    };
    let chat = || -> Vec<String> {
        let db = sandbox.path("chat.sqlite3");
        let _ = fs::remove_file(&db);
        let mut command = sandbox.command();
        command.arg("--model").arg(&model).arg("--db").arg(&db);
        let out = support::run_within(
            command,
            "수면에 좋은 습관 찾아줘\n1번 습관 연속 기록 알려줘\n고마워\n".as_bytes(),
            Duration::from_secs(300),
        );
        out.assert_success();
        // What was chosen and said; timings and the banner aside.
        out.stdout
            .lines()
            .filter(|l| l.starts_with("🔧") || l.starts_with("🤖") || l.starts_with("  "))
            .map(str::to_owned)
            .collect()
    };

    let (first, whole) = prepare();
    first.assert_success();
    assert!(first.stderr.contains("토큰: 평가"), "{first}");
    let clean_choices = chat();
    assert!(!clean_choices.is_empty(), "the chat said nothing");
    let tokens: u64 = fs::read_to_string(files.state_meta())
        .expect("the .meta")
        .lines()
        .find_map(|l| l.strip_prefix("tokens "))
        .and_then(|n| n.parse().ok())
        .expect("a token count");
    let huge = sandbox.path("huge");
    fs::File::create(&huge)
        .and_then(|f| f.set_len(4 << 30))
        .expect("a sparse 4 GiB file");

    type Damage = Box<dyn Fn(&Files)>;
    let state_cut = |len: fn(u64, u64) -> u64| -> Damage {
        Box::new(move |files: &Files| {
            let bytes = fs::read(files.state()).expect("the state");
            let len = usize::try_from(len(bytes.len() as u64, tokens)).expect("a length");
            forge_state(files, &bytes[..len]);
        })
    };
    let cases: Vec<(&str, Damage)> = vec![
        ("state: empty, .meta forged", state_cut(|_, _| 0)),
        ("state: only the header", state_cut(|_, _| 12)),
        ("state: header and tokens", state_cut(|_, n| 12 + 4 * n)),
        (
            "state: the cells' positions, no rows",
            state_cut(|_, n| 12 + 4 * n + 8 + 12 * n),
        ),
        ("state: half", state_cut(|len, _| len / 2)),
        ("state: one byte short", state_cut(|len, _| len - 1)),
        (
            "state: random bytes, .meta forged",
            Box::new(|files: &Files| {
                let len = fs::metadata(files.state()).expect("state").len();
                let mut x = 0x2545_f491_4f6c_dd1d_u64;
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x as u8
                    })
                    .collect();
                forge_state(files, &bytes);
            }),
        ),
        (
            "state: one byte flipped",
            Box::new(|files: &Files| {
                let mut bytes = fs::read(files.state()).expect("state");
                let middle = bytes.len() / 2;
                bytes[middle] ^= 0x40;
                fs::write(files.state(), bytes).expect("write");
            }),
        ),
        (
            "state: a stale .meta (another model)",
            Box::new(|files: &Files| {
                let meta = fs::read_to_string(files.state_meta()).expect("meta");
                let stale = meta.replacen("model ", "model 1-", 1);
                fs::write(files.state_meta(), stale).expect("write");
            }),
        ),
        (
            "state and vectors swapped",
            Box::new(|files: &Files| {
                let (state, vectors) = (files.state(), files.vectors());
                let aside = files.dir.join("aside");
                fs::rename(&state, &aside).expect("rename");
                fs::rename(&vectors, &state).expect("rename");
                fs::rename(&aside, &vectors).expect("rename");
            }),
        ),
        (
            "state: a FIFO",
            Box::new(|f: &Files| replace_with_fifo(&f.state())),
        ),
        (
            "state: a link to /dev/zero",
            Box::new(|f: &Files| replace_with_link(&f.state(), Path::new("/dev/zero"))),
        ),
        (
            "state: a directory",
            Box::new(|f: &Files| replace_with_dir(&f.state())),
        ),
        (
            "state: a dangling link",
            Box::new(|f: &Files| replace_with_link(&f.state(), Path::new("/nonexistent"))),
        ),
        (
            "state's .meta: empty",
            Box::new(|f: &Files| fs::write(f.state_meta(), b"").expect("write")),
        ),
        (
            "state's .meta: 1 MB",
            Box::new(|f: &Files| fs::write(f.state_meta(), vec![b'a'; 1 << 20]).expect("write")),
        ),
        (
            "state's .meta: a FIFO",
            Box::new(|f: &Files| replace_with_fifo(&f.state_meta())),
        ),
        (
            "state's .meta: a directory",
            Box::new(|f: &Files| replace_with_dir(&f.state_meta())),
        ),
        (
            "vectors: all NaN, checksum matching",
            Box::new(|f: &Files| {
                let (count, width) = vectors_shape(&f.vectors());
                forge_vectors(&f.vectors(), count, width, f32::NAN);
            }),
        ),
        (
            "vectors: another width, checksum matching",
            Box::new(|f: &Files| {
                let (count, _) = vectors_shape(&f.vectors());
                forge_vectors(&f.vectors(), count, 3, 0.5);
            }),
        ),
        (
            "vectors: half",
            Box::new(|f: &Files| {
                let len = fs::metadata(f.vectors()).expect("vectors").len();
                cut_to(&f.vectors(), len / 2);
            }),
        ),
        (
            "vectors: empty",
            Box::new(|f: &Files| cut_to(&f.vectors(), 0)),
        ),
        (
            "vectors: a FIFO",
            Box::new(|f: &Files| replace_with_fifo(&f.vectors())),
        ),
        (
            "vectors: a link to /dev/zero",
            Box::new(|f: &Files| replace_with_link(&f.vectors(), Path::new("/dev/zero"))),
        ),
        (
            "vectors: a link to a 4 GiB file",
            Box::new(move |f: &Files| replace_with_link(&f.vectors(), &huge)),
        ),
        (
            "vectors: a directory",
            Box::new(|f: &Files| replace_with_dir(&f.vectors())),
        ),
        (
            "reading model: half",
            Box::new(|f: &Files| {
                let len = fs::metadata(f.cut()).expect("cut").len();
                cut_to(&f.cut(), len / 2);
            }),
        ),
        (
            "reading model: a FIFO",
            Box::new(|f: &Files| replace_with_fifo(&f.cut())),
        ),
        (
            "reading model: a directory",
            Box::new(|f: &Files| replace_with_dir(&f.cut())),
        ),
        (
            "reading model's .meta: another model",
            Box::new(|f: &Files| {
                let meta = fs::read_to_string(f.cut_meta()).expect("meta");
                fs::write(f.cut_meta(), meta.replacen("model ", "model 1-", 1)).expect("write");
            }),
        ),
    ];

    // Every start may evaluate what it must make again, and no more: the whole first
    // preparation, with room for a machine that is busy with other work.
    let limit = whole * 2 + Duration::from_secs(20);
    for (name, damage) in &cases {
        damage(&files);
        let (out, took) = prepare();
        assert!(out.status.success(), "{name}: exit {:?}\n{out}", out.status);
        assert!(!out.stderr.contains("GGML_ASSERT"), "{name}\n{out}");
        assert!(took < limit, "{name}: {took:?} (limit {limit:?})\n{out}");
        let repaired = out
            .stderr
            .lines()
            .filter(|l| l.starts_with(REPAIRED))
            .count();
        assert!(
            (1..=2).contains(&repaired),
            "{name}: one line per file made again\n{out}"
        );
        assert!(out.stderr.contains("준비 완료"), "{name}\n{out}");
        // The outcomes, for whoever reads the test's output (`--nocapture`).
        for line in out.stderr.lines().filter(|l| l.starts_with(REPAIRED)) {
            eprintln!("{name} ({:.1} s): {line}", took.as_secs_f64());
        }
        // What this start wrote, the next one restores without a word.
        let (again, _) = prepare();
        again.assert_success();
        assert!(
            again.stderr.contains("캐시 파일에서 복원"),
            "{name}: {again}"
        );
        assert!(!again.stderr.contains(REPAIRED), "{name}: {again}");
        let kinds = [files.state(), files.vectors(), files.cut()];
        for file in kinds {
            assert!(
                fs::symlink_metadata(&file).is_ok_and(|m| m.is_file()),
                "{name}: {} is a regular file again",
                file.display()
            );
        }
    }

    let choices = chat();
    eprintln!("choices after every repair:\n{}", choices.join("\n"));
    assert_eq!(
        choices, clean_choices,
        "the same choices as on the clean cache"
    );

    // Two processes preparing an empty cache at once each write whole pairs under the
    // directory's lock: whichever pair is left, the next start restores it without a repair.
    fs::remove_dir_all(&files.dir).expect("empty the cache");
    let spawn = || {
        let mut command = sandbox.command();
        command
            .arg("prepare")
            .arg("--model")
            .arg(&model)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        command.spawn().expect("spawn prepare")
    };
    let (one, two) = (spawn(), spawn());
    for child in [one, two] {
        let out = support::wait(child, Duration::from_secs(600));
        out.assert_success();
        assert!(!out.stderr.contains(REPAIRED), "{out}");
    }
    let (after, _) = prepare();
    after.assert_success();
    assert!(after.stderr.contains("캐시 파일에서 복원"), "{after}");
    assert!(!after.stderr.contains(REPAIRED), "{after}");

    // Ctrl-C during a first start's work ends it at once, with a line that says so.
    fs::remove_dir_all(&files.dir).expect("empty the cache");
    let child = spawn();
    std::thread::sleep(Duration::from_millis(2500));
    let pressed = Instant::now();
    support::interrupt(child.id());
    let out = support::wait(child, Duration::from_secs(30));
    assert!(
        pressed.elapsed() < Duration::from_secs(5),
        "{:?}",
        pressed.elapsed()
    );
    assert_eq!(out.status.code(), Some(130), "{out}");
    assert!(out.stderr.contains("시작을 중단했습니다"), "{out}");
    let (resumed, _) = prepare();
    resumed.assert_success();
    assert!(!resumed.stderr.contains(REPAIRED), "{resumed}");
}
