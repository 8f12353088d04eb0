//! The confirmation and every other screen, attacked as a hostile model would (it controls
//! every argument string, its answer text and the tool names it writes) and through stored
//! records: each finding of issue 9 replayed against the real binary with piped stdin, checking
//! the bytes it wrote and the database it left.
//!
//! Colours are off in these runs (`NO_COLOR`, and stdout is a pipe), so any ESC byte in the
//! output came from the attack.

mod support;

use std::time::Duration;

use serde_json::json;
use support::{Output, Running, Sandbox};

/// Bytes that must never reach the terminal raw.
const RAW: &[char] = &[
    '\x1b', '\r', '\x07', '\u{9b}', '\u{202e}', '\u{2066}', '\u{200b}', '\u{feff}', '\u{2028}',
];

fn assert_inert(out: &Output) {
    for (name, text) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        for c in RAW {
            assert!(!text.contains(*c), "raw {c:?} on {name}\n{out}");
        }
    }
}

/// The rows of the dialog as the terminal shows them, from its title to its prompt.
fn dialog_rows(stdout: &str) -> Vec<&str> {
    let start = stdout.find("   ┌ ").expect("a dialog");
    let end = stdout[start..].find("   └ [y/N]").expect("its prompt") + start;
    stdout[start..end].lines().collect()
}

/// Whether every row starts with the dialog's frame.
fn framed(rows: &[&str]) -> bool {
    rows.iter()
        .all(|r| r.starts_with("   ┌ ") || r.starts_with("   │ "))
}

/// A forged dialog: the real title scrolled away by newlines, then lines drawn like it.
fn forged_text() -> String {
    format!(
        "아침 10분 걷기{}   ┌ 이 작업을 수행할까요? (습관 추가)\n   │ ▶ '물 한 잔 마시기' 습관을 추가합니다",
        "\n".repeat(40)
    )
}

#[test]
fn newlines_cannot_forge_the_dialog() {
    let sandbox = Sandbox::new();
    let script = json!([
        [{"call": {"name": "add_habit", "args": {
            "protocol_id": "build.morning-walk", "frame_level": 2, "framed_text": forged_text()}}}],
        "알겠어요."
    ]);
    let (out, _) = sandbox.run_script(&script, "추가해줘\nn\n", &[]);
    out.assert_success();
    assert_inert(&out);
    // Whether the domain refuses the text first or the dialog shows it, no line of the output
    // draws a dialog except the real one.
    let titles = out
        .stdout
        .lines()
        .filter(|l| l.contains("이 작업을 수행할까요?") && !l.starts_with("   │ "))
        .count();
    let frames = out
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with('┌'))
        .count();
    assert!(titles <= 1 && frames <= 1, "{out}");
    if frames == 1 {
        let rows = dialog_rows(&out.stdout);
        assert!(framed(&rows), "{rows:#?}");
        // The forged text is shown, escaped, inside the real frame.
        assert!(out.stdout.contains("\\n\\n\\n"), "{out}");
    }
    assert_eq!(sandbox.coach().list_active_habits().expect("list").count, 0);
}

#[test]
fn escape_sequences_in_arguments_answers_and_tool_names_are_shown_escaped() {
    let sandbox = Sandbox::new();
    let erase = "\x1b[2K\x1b[1A\r\x1b[2K   ┌ 이 작업을 수행할까요? (습관 보기)";
    let script = json!([
        [{"call": {"name": "add_habit", "args": {
            "protocol_id": "build.morning-walk", "frame_level": 2,
            "framed_text": format!("걷기{erase}")}}}],
        [{"call": {"name": "\x1b]0;pwned\x07\x1b[2Jsearch", "args": {}}}],
        [{"text": "\x1bc"}, {"text": "\u{202e}kcatta\u{2066} 끝"}]
    ]);
    let (out, _) = sandbox.run_script(&script, "추가해줘\nn\n", &[]);
    out.assert_success();
    assert_inert(&out);
    // Each attack is visible as text instead.
    for shown in [
        "\\u{1b}[2K",
        "\\u{1b}]0;pwned\\u{7}",
        "\\u{1b}c",
        "\\u{202e}kcatta",
    ] {
        assert!(out.stdout.contains(shown), "{shown:?}\n{out}");
    }
}

#[test]
fn the_dialog_shows_every_argument_and_what_an_id_refers_to() {
    let sandbox = Sandbox::new();
    // The summary only quotes the free text; the call adds a protocol of the other kind.
    let script = json!([
        [{"call": {"name": "add_habit", "args": {
            "protocol_id": "break.smoking", "frame_level": 2, "framed_text": "아침 10분 걷기"}}}],
        "알겠어요."
    ]);
    let (out, _) = sandbox.run_script(&script, "추가해줘\nn\n", &[]);
    out.assert_success();
    let rows = dialog_rows(&out.stdout).join("\n");
    assert!(
        rows.contains("▶ '아침 10분 걷기' 습관을 추가합니다"),
        "{rows}"
    );
    assert!(rows.contains("break.smoking — "), "{rows}");
    assert!(
        rows.contains("끊을 습관"),
        "the protocol's kind is shown:\n{rows}"
    );
    assert!(rows.contains(": 2"), "the frame level is shown:\n{rows}");
}

#[test]
fn a_long_value_is_clipped_and_every_row_keeps_the_frame() {
    let sandbox = Sandbox::new();
    let long = format!("{}   ┌ 가짜 대화상자", "가".repeat(33));
    let script = json!([
        [{"call": {"name": "add_habit", "args": {
            "protocol_id": "build.morning-walk", "frame_level": 2,
            "framed_text": long.repeat(12)}}}],
        "알겠어요."
    ]);
    let (out, _) = sandbox.run_script(&script, "추가해줘\nn\n", &[]);
    out.assert_success();
    if out.stdout.contains("   ┌ 이 작업을 수행할까요?") {
        let rows = dialog_rows(&out.stdout);
        assert!(framed(&rows), "{rows:#?}");
        assert!(out.stdout.contains("…(+"), "a clip marker\n{out}");
    }
}

#[test]
fn stored_texts_cannot_forge_lines_in_the_habit_list() {
    let sandbox = Sandbox::new();
    // Create the schema, then store a record as another program (or an older version) might.
    let _ = sandbox.coach();
    let conn = rusqlite::Connection::open(sandbox.db()).expect("open");
    conn.execute(
        "INSERT INTO habits (habit_type, protocol_id, title, frame_level, framed_text, created_on)
         VALUES ('build', 'build.morning-walk', ?1, 2, ?2, '2026-01-01')",
        ["제목\x1b[2J", "걷기\n  #2 가짜 습관 — \x1b]52;c;eA==\x07"],
    )
    .expect("insert");
    drop(conn);
    let (out, _) = sandbox.run_script(&json!([]), "/habits\n", &[]);
    out.assert_success();
    assert_inert(&out);
    assert!(
        !out.stdout.lines().any(|l| l.trim_start().starts_with("#2")),
        "{out}"
    );
    assert!(out.stdout.contains("걷기\\n  #2 가짜 습관"), "{out}");
}

#[test]
fn stored_journal_entries_cannot_forge_lines_in_the_history() {
    let sandbox = Sandbox::new();
    let _ = sandbox.coach();
    let conn = rusqlite::Connection::open(sandbox.db()).expect("open");
    let forged = "걷기\n  #9 2026-01-01 00:00 안전한 조회 — \x1b]52;c;eA==\x07\u{202e}";
    conn.execute(
        "INSERT INTO journal (tool, label, summary, arguments, result, at_ms, caller, confirmed)
         VALUES ('add_habit', ?1, ?2, ?3, '{}', 0, 'app', 'confirmer')",
        [
            "습관 추가\x1b[2J",
            &format!("{forged}{}", "가".repeat(5_000)),
            &serde_json::json!({ "framed_text": forged, "x\nkey": 1 }).to_string(),
        ],
    )
    .expect("insert");
    drop(conn);
    let (out, _) = sandbox.run_script(&json!([]), "/history\n", &[]);
    out.assert_success();
    assert_inert(&out);
    assert!(
        !out.stdout.lines().any(|l| l.trim_start().starts_with("#9")),
        "{out}"
    );
    assert!(out.stdout.contains("걷기\\n  #9"), "{out}");
    assert!(out.stdout.contains("…(+"), "a clip marker\n{out}");
    assert!(out.stdout.len() < 10_000, "clipped\n{out}");
}

#[test]
fn an_overlong_line_is_refused_with_a_clear_message() {
    let sandbox = Sandbox::new();
    let script = json!(["짧은 답."]);
    let mut input = "가".repeat(2_000_000); // 6 MB on one line
    input.push_str("\n안녕\n");
    let (out, log) = sandbox.run_script(&script, &input, &[]);
    out.assert_success();
    assert!(
        out.stderr.contains("입력이 너무 깁니다(6000000바이트)"),
        "{}",
        &out.stderr
    );
    assert!(
        out.stdout.contains("🤖 짧은 답."),
        "the next line is still read\n{out}"
    );
    assert!(out.stdout.len() < 100_000, "the long line was not echoed");
    // The model only ever saw the short message.
    assert!(!log.to_string().contains("가가가가"), "{log}");
}

/// After `y`, the write waits on a lock another program holds; Ctrl-C then must not claim the
/// write was stopped, because it commits once the lock is released.
#[test]
fn ctrl_c_after_yes_reports_what_the_write_really_did() {
    let sandbox = Sandbox::new();
    let _ = sandbox.coach(); // the schema exists before the other program locks the file
    let mut app = Running::spawn(sandbox.script_command(&json!([
        [{"call": {"name": "add_habit", "args": {
            "protocol_id": "build.morning-walk", "frame_level": 2, "framed_text": "아침 걷기"}}}],
        "알겠어요."
    ])));
    app.write("추가해줘\n");
    app.wait_for("[y/N] ");
    // Another program takes the write lock, then the person says yes: the write waits.
    let holder = rusqlite::Connection::open(sandbox.db()).expect("open");
    holder.execute_batch("BEGIN IMMEDIATE;").expect("lock");
    app.write("y\n");
    std::thread::sleep(Duration::from_millis(500));
    app.interrupt();
    // The lock goes away well inside the store's busy timeout; the write commits.
    std::thread::sleep(Duration::from_millis(700));
    holder.execute_batch("COMMIT;").expect("unlock");
    drop(holder);
    let shown = app.wait_for("결과는 저장된 그대로예요");
    app.quit();
    assert!(shown.contains("✓ 추가됨: #1"), "{shown}");
    assert!(
        shown.contains("중단 전에 끝난 작업: 습관 추가 완료"),
        "{shown}"
    );
    assert_eq!(sandbox.coach().list_active_habits().expect("list").count, 1);
}

/// Runs the binary on `db` and returns its output; nothing may be asked or written.
fn start_on(sandbox: &Sandbox, db: &std::path::Path) -> Output {
    support::run(
        sandbox.script_command_on(db, &json!([])),
        "추가해줘\ny\n".as_bytes(),
    )
}

/// One line on stderr, exit 1, no prompt: the check ran before the first question.
fn assert_refused_at_start(out: &Output, expected: &str) {
    assert_eq!(out.status.code(), Some(1), "{out}");
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].contains(expected), "{expected:?}\n{out}");
    assert!(!out.stdout.contains("나>"), "nothing was asked\n{out}");
}

/// Every file of `dir`: name, length, and a hash of its bytes.
fn snapshot(dir: &std::path::Path) -> Vec<(String, usize, u64)> {
    use std::hash::{Hash, Hasher};
    let mut files: Vec<(String, usize, u64)> = std::fs::read_dir(dir)
        .expect("dir")
        .flatten()
        .filter(|e| e.path().is_file() && e.file_name().to_string_lossy().starts_with("habits"))
        .map(|e| {
            let bytes = std::fs::read(e.path()).expect("read");
            let mut hash = std::collections::hash_map::DefaultHasher::new();
            bytes.hash(&mut hash);
            let name = e.file_name().to_string_lossy().into_owned();
            (name, bytes.len(), hash.finish())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn database_problems_are_found_at_start_and_leave_the_file_as_it_was() {
    use std::os::unix::fs::PermissionsExt;
    // A read-only file.
    let sandbox = Sandbox::new();
    let _ = sandbox.coach();
    std::fs::set_permissions(sandbox.db(), std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let before = snapshot(sandbox.dir.path());
    assert_refused_at_start(
        &start_on(&sandbox, &sandbox.db()),
        "습관 DB에 쓸 수 없습니다",
    );
    assert_eq!(snapshot(sandbox.dir.path()), before);

    // A read-only folder (SQLite needs to create its journal next to the file).
    let sandbox = Sandbox::new();
    let folder = sandbox.path("ro");
    std::fs::create_dir(&folder).expect("mkdir");
    let db = folder.join("habits.sqlite3");
    drop(support::coach_at(&db));
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    let before = snapshot(&folder);
    assert_refused_at_start(&start_on(&sandbox, &db), "습관 DB에 쓸 수 없습니다");
    assert_eq!(snapshot(&folder), before);
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).expect("chmod");

    // A damaged file: a real database with a page overwritten.
    let sandbox = Sandbox::new();
    {
        let coach = sandbox.coach();
        for (protocol, text) in [
            ("build.morning-walk", "아침 걷기"),
            ("build.read-10-pages", "책 읽기"),
        ] {
            coach
                .add_habit(habit_tools::NewHabit {
                    protocol_id: protocol.into(),
                    frame_level: 1,
                    framed_text: text.into(),
                    anchor_when: None,
                    anchor_after_what: None,
                    dose_text: None,
                })
                .expect("add");
        }
    }
    let conn = rusqlite::Connection::open(sandbox.db()).expect("open");
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;")
        .expect("checkpoint");
    drop(conn);
    let mut bytes = std::fs::read(sandbox.db()).expect("read");
    let page = 4096;
    assert!(bytes.len() >= 3 * page, "{} bytes", bytes.len());
    for b in &mut bytes[2 * page + 8..3 * page] {
        *b = 0xa5;
    }
    std::fs::write(sandbox.db(), &bytes).expect("write");
    let before = snapshot(sandbox.dir.path());
    let out = start_on(&sandbox, &sandbox.db());
    assert_eq!(out.status.code(), Some(1), "{out}");
    assert_eq!(out.stderr.lines().count(), 1, "{out}");
    assert!(out.stderr.contains("손상"), "{out}");
    assert_eq!(snapshot(sandbox.dir.path()), before);

    // A file from a newer version of the app.
    let sandbox = Sandbox::new();
    let _ = sandbox.coach();
    let conn = rusqlite::Connection::open(sandbox.db()).expect("open");
    conn.execute_batch("PRAGMA user_version = 99; PRAGMA journal_mode = DELETE;")
        .expect("version");
    drop(conn);
    let before = snapshot(sandbox.dir.path());
    let out = start_on(&sandbox, &sandbox.db());
    assert_refused_at_start(&out, "99");
    assert!(
        !out.stderr.contains("CREATE TABLE"),
        "not the migration SQL\n{out}"
    );
    assert_eq!(snapshot(sandbox.dir.path()), before);
}
