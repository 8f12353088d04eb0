//! End-to-end tests of the `habit-demo` binary with a scripted model (the hidden `--script`
//! flag): piped stdin answers chat turns and confirmations in order, a second `Store` on the
//! same file checks what was written, and `--script-log` shows what the "model" was told.

mod support;

use std::time::Duration;

use habit_tools::{NewEntry, NewHabit, TrackerValue};
use serde_json::{Value, json};
use support::{Running, Sandbox};

const FRAMED: &str = "아침 커피 후 10분 걷기";

/// The model asks to add a habit, then answers once it has the result.
fn add_habit_script() -> Value {
    json!([
        [{"call": {"name": "add_habit", "args": {
            "protocol_id": "build.morning-walk", "frame_level": 2, "framed_text": FRAMED}}}],
        "알겠어요."
    ])
}

fn habit_count(sandbox: &Sandbox) -> u32 {
    sandbox
        .coach()
        .list_active_habits()
        .expect("list habits")
        .count
}

fn first_result(log: &Value) -> &Value {
    &log["tool_results"][0][0]["result"]
}

#[test]
fn an_approved_call_writes_to_the_database() {
    for answer in ["y", "YES", " 예 ", "네"] {
        let sandbox = Sandbox::new();
        let (out, log) = sandbox.run_script(
            &add_habit_script(),
            format!("아침 걷기 습관 추가해줘\n{answer}\n"),
            &[],
        );
        out.assert_success();
        for expected in [
            "🔧 습관 추가 …",
            "이 작업을 수행할까요?",
            "카탈로그의 build 또는 break 프로토콜로 새 습관을 추가합니다",
            &format!("▶ '{FRAMED}' 습관을 추가합니다"),
            "[y/N]",
            "✓ 추가됨: #1",
            "🤖 알겠어요.",
        ] {
            assert!(
                out.stdout.contains(expected),
                "{expected:?} ({answer:?})\n{out}"
            );
        }
        assert!(
            !out.stdout.contains("\"status\""),
            "raw JSON without --verbose\n{out}"
        );
        let habits = sandbox.coach().list_active_habits().expect("list");
        assert_eq!(habits.count, 1, "{answer:?}\n{out}");
        assert_eq!(habits.items[0].framed_text, FRAMED);
        assert_eq!(first_result(&log)["status"], "ok", "{log}");
    }
}

#[test]
fn a_declined_call_writes_nothing_and_the_model_is_told_cancelled() {
    for answer in ["", "n", "no", "아니요", "yes please", "ㅇ"] {
        let sandbox = Sandbox::new();
        let (out, log) = sandbox.run_script(
            &add_habit_script(),
            format!("아침 걷기 습관 추가해줘\n{answer}\n"),
            &[],
        );
        out.assert_success();
        assert_eq!(habit_count(&sandbox), 0, "{answer:?}\n{out}");
        assert_eq!(
            first_result(&log),
            &json!({"status": "cancelled", "reason": "user did not confirm"}),
            "{answer:?}"
        );
        assert!(out.stdout.contains("⊘ 취소했습니다"), "{out}");
        assert!(
            out.stdout.contains("🤖 알겠어요."),
            "the turn goes on\n{out}"
        );
    }
}

#[test]
fn end_of_input_at_the_confirmation_cancels_and_exits_cleanly() {
    let sandbox = Sandbox::new();
    let (out, log) = sandbox.run_script(&add_habit_script(), "아침 걷기 습관 추가해줘\n", &[]);
    out.assert_success();
    assert_eq!(habit_count(&sandbox), 0);
    assert_eq!(first_result(&log)["status"], "cancelled");
}

#[test]
fn ctrl_c_at_a_piped_confirmation_cancels_the_call_only() {
    let sandbox = Sandbox::new();
    let mut app = Running::spawn(sandbox.script_command(&add_habit_script()));
    app.write("추가해줘\n");
    // Stdin stays open, so only Ctrl-C can answer the confirmation.
    app.wait_for("[y/N] ");
    std::thread::sleep(Duration::from_millis(200));
    app.interrupt();
    app.wait_for("알겠어요");
    let rest = app.quit();
    assert!(rest.contains("⊘ 취소했습니다"), "{rest}");
    assert_eq!(habit_count(&sandbox), 0);
    assert_eq!(first_result(&sandbox.script_log())["status"], "cancelled");
}

#[test]
fn yes_flag_approves_without_asking_and_says_so() {
    let sandbox = Sandbox::new();
    let (out, _) = sandbox.run_script(&add_habit_script(), "추가해줘\n", &["--yes"]);
    out.assert_success();
    assert!(
        out.stdout
            .contains("⚠ --yes: 확인이 필요한 작업(습관 추가, 기록하기, 습관 그만두기, 습관 수정, 기록 고치기)"),
        "{out}"
    );
    assert!(out.stdout.contains("묻지 않고 수행합니다"), "{out}");
    assert_eq!(habit_count(&sandbox), 1);
}

#[test]
fn new_clears_the_conversation() {
    let sandbox = Sandbox::new();
    let (out, log) = sandbox.run_script(
        &json!(["안녕하세요!", "다시 안녕하세요!"]),
        "안녕\n/new\n안녕\n",
        &[],
    );
    out.assert_success();
    assert_eq!(log["clears"], 1, "{log}");
    assert_eq!(log["user_inputs"], json!(["안녕", "안녕"]));
    let new_at = out.stdout.find("새 대화를 시작합니다").expect("announced");
    let second = out
        .stdout
        .find("🤖 다시 안녕하세요!")
        .expect("second answer");
    assert!(new_at < second, "{out}");
}

#[test]
fn unknown_commands_get_a_helpful_line_and_never_reach_the_model() {
    let sandbox = Sandbox::new();
    let (out, log) = sandbox.run_script(&json!([]), "/foo\n/hab\n/\n", &[]);
    out.assert_success();
    assert!(
        out.stdout.contains(
            "알 수 없는 명령어입니다: /foo — 쓸 수 있는 명령어: /habits /history /tools /new /help /quit"
        ),
        "{out}"
    );
    assert!(out.stdout.contains("혹시 /habits ?"), "{out}");
    assert_eq!(log["user_inputs"], json!([]));
}

#[test]
fn habits_shows_the_store_with_streaks() {
    let sandbox = Sandbox::new();
    let coach = sandbox.coach();
    let added = coach
        .add_habit(NewHabit {
            protocol_id: "build.morning-walk".into(),
            frame_level: 2,
            framed_text: FRAMED.into(),
            anchor_when: None,
            anchor_after_what: None,
            dose_text: None,
        })
        .expect("add");
    coach
        .log_tracker_entry(NewEntry {
            habit_id: added.habit_id,
            value: TrackerValue::Done,
            date: None,
            note: None,
        })
        .expect("log");
    let (out, _) = sandbox.run_script(&json!([]), "/habits\n", &[]);
    out.assert_success();
    for expected in [
        "내 습관 1개 — 만들 습관 1개(남은 자리 2)",
        &format!("#{} {FRAMED}", added.habit_id),
        "연속 1일 · 최장 1일 · 최근 30일 1회 · 씨앗",
    ] {
        assert!(out.stdout.contains(expected), "{expected:?}\n{out}");
    }
}

#[test]
fn tools_lists_labels_and_which_ask_first() {
    let sandbox = Sandbox::new();
    let (out, _) = sandbox.run_script(&json!([]), "/tools\n", &[]);
    out.assert_success();
    for label in [
        "습관 검색",
        "프로토콜 조회",
        "활성 습관 목록",
        "연속 기록 조회",
        "습관 추가",
        "기록하기",
        "습관 그만두기",
        "습관 수정",
        "기록 고치기",
    ] {
        assert!(out.stdout.contains(label), "{label}\n{out}");
    }
    let asking: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("실행 전 확인"))
        .collect();
    assert_eq!(asking.len(), 5, "{asking:?}");
    assert!(asking[0].contains("add_habit") && asking[1].contains("log_tracker_entry"));
    assert!(asking[4].contains("correct_tracker_entry"), "{asking:?}");
}

#[test]
fn end_of_input_and_quit_exit_zero() {
    let sandbox = Sandbox::new();
    let (out, _) = sandbox.run_script(&json!([]), "", &[]);
    out.assert_success();
    assert!(out.stdout.contains("🤖 습관 코치"), "{out}");
    let (out, log) = sandbox.run_script(&json!(["안녕"]), "/help\n/quit\n안녕\n", &[]);
    out.assert_success();
    assert!(out.stdout.contains("/habits"), "{out}");
    assert_eq!(log["user_inputs"], json!([]), "nothing after /quit is read");
}

#[test]
fn model_failures_and_odd_input_do_not_end_the_chat() {
    let sandbox = Sandbox::new();
    let mut input = b"\xff\xfe broken utf-8\n\x01\x02\x1b[31m\n".to_vec();
    input.extend("가".repeat(1300).as_bytes()); // 3,900 bytes: under the line limit
    input.extend(b"\n\n   \n/habits\n");
    let (out, _) = sandbox.run_script(&json!([]), &input, &[]);
    out.assert_success();
    // Three messages reached the (exhausted) script; each failure is one line on stderr.
    let failures: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("오류: 모델이 답하지 못했습니다 (script_exhausted)"))
        .collect();
    assert_eq!(failures.len(), 3, "{out}");
    assert!(
        out.stdout.contains("내 습관 0개"),
        "still answering after the failures\n{out}"
    );
}

#[test]
fn the_turn_limit_is_reported() {
    let sandbox = Sandbox::new();
    let script = json!([
        [{"call": {"name": "list_active_habits", "args": {}}}],
        [{"call": {"name": "get_streak", "args": {"habit_id": 1}}}]
    ]);
    let (out, log) = sandbox.run_script(&script, "내 습관\n", &["--max-turns", "2"]);
    out.assert_success();
    assert!(
        out.stdout
            .contains("도구 호출 루프가 너무 길어 중단했습니다"),
        "{out}"
    );
    let last = log["tool_results"]
        .as_array()
        .and_then(|b| b.last())
        .expect("batches");
    assert_eq!(last[0]["result"]["code"], "turn_limit", "{log}");
}

#[test]
fn verbose_shows_the_raw_json() {
    let sandbox = Sandbox::new();
    let script = json!([[{"call": {"name": "search_catalog", "args": {"keyword": "걷기"}}}], "끝"]);
    let (out, _) = sandbox.run_script(&script, "걷기\n", &["--verbose"]);
    out.assert_success();
    assert!(
        out.stdout.contains(r#"search_catalog {"keyword":"걷기"}"#),
        "{out}"
    );
    assert!(
        out.stdout.contains(r#"→ 모델에게: {"status":"ok""#),
        "{out}"
    );
    let (quiet, _) = sandbox.run_script(&script, "걷기\n", &[]);
    assert!(quiet.stdout.contains("🔧 습관 검색 …"), "{quiet}");
    assert!(quiet.stdout.contains("개 찾음:"), "{quiet}");
    assert!(
        !quiet.stdout.contains('{'),
        "no JSON without --verbose\n{quiet}"
    );
}

#[test]
fn help_documents_every_flag_but_not_the_test_ones() {
    let sandbox = Sandbox::new();
    let mut command = sandbox.command();
    command.arg("--help");
    let out = support::run(command, b"");
    out.assert_success();
    for flag in [
        "--model",
        "--db",
        "--max-turns",
        "--threads",
        "--verbose",
        "--yes",
        "/habits",
    ] {
        assert!(out.stdout.contains(flag), "{flag}\n{out}");
    }
    assert!(!out.stdout.contains("--script"), "{out}");
}

/// Asserts a run failed with exactly one error line containing `expected`.
fn assert_one_error(out: &support::Output, expected: &str) {
    assert_eq!(out.status.code(), Some(1), "{out}");
    let errors: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("오류:"))
        .collect();
    assert_eq!(errors.len(), 1, "{out}");
    assert!(errors[0].contains(expected), "{expected:?}\n{out}");
}

#[test]
fn a_missing_model_names_the_fetch_command() {
    let sandbox = Sandbox::new();
    let mut command = sandbox.command();
    command.arg("--db").arg(sandbox.db());
    let out = support::run(command, b"");
    assert_one_error(&out, "받으려면: scripts/fetch-model.sh");

    let mut command = sandbox.command();
    command
        .arg("--db")
        .arg(sandbox.db())
        .env("GEMMA_MODEL", sandbox.path("nope.gguf"));
    assert_one_error(
        &support::run(command, b""),
        "GEMMA_MODEL로 지정한 경로를 확인하세요",
    );
}

#[test]
fn a_file_that_is_not_gguf_is_refused() {
    let sandbox = Sandbox::new();
    let fake = sandbox.path("model.gguf");
    std::fs::write(&fake, b"<html>not a model</html>").expect("write");
    let mut command = sandbox.command();
    command
        .arg("--db")
        .arg(sandbox.db())
        .arg("--model")
        .arg(&fake);
    assert_one_error(&support::run(command, b""), "GGUF 모델 파일이 아닙니다");
}

#[test]
fn an_unreadable_database_is_one_line() {
    let sandbox = Sandbox::new();
    let db = sandbox.db();
    std::fs::write(&db, "this is not a database, just text ".repeat(100)).expect("write");
    let (out, _) = sandbox.run_script(&json!([]), "", &[]);
    assert_one_error(&out, "SQLite 데이터베이스가 아니거나 손상되었습니다");

    let dir_db = sandbox.path("a-directory");
    std::fs::create_dir(&dir_db).expect("mkdir");
    assert_one_error(
        &support::run(sandbox.script_command_on(&dir_db, &json!([])), b""),
        "습관 DB를 열 수 없습니다",
    );
}

#[test]
fn a_locked_database_is_one_line() {
    let sandbox = Sandbox::new();
    let db = sandbox.db();
    // Another program holds an exclusive lock on a fresh database for the whole run.
    let holder = rusqlite::Connection::open(&db).expect("open");
    holder
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; CREATE TABLE t (x);")
        .expect("lock");
    let (out, _) = sandbox.run_script(&json!([]), "", &[]);
    assert_one_error(&out, "습관 DB가 다른 프로그램에 잠겨 있습니다");
    drop(holder);
}

#[test]
fn take_it_back_undoes_the_last_write_after_a_yes_and_history_shows_it_after_a_restart() {
    let sandbox = Sandbox::new();
    // Only the add is scripted: the undo is planned and answered by the runtime.
    let (out, _) = sandbox.run_script(
        &add_habit_script(),
        "아침 걷기 습관 추가해줘\ny\n방금 거 취소해줘\ny\n",
        &[],
    );
    out.assert_success();
    for expected in [
        "이 작업을 수행할까요? (습관 추가 되돌리기)",
        &format!("▶ 되돌릴 작업: '{FRAMED}' 습관을 추가합니다"),
        &format!("되돌렸어요. ('{FRAMED}' 습관을 추가합니다)"),
    ] {
        assert!(out.stdout.contains(expected), "{expected:?}\n{out}");
    }
    assert_eq!(habit_count(&sandbox), 0, "{out}");

    let (out, _) = sandbox.run_script(&json!([]), "/history\n", &[]);
    out.assert_success();
    for expected in [
        "작업 기록 — 최근 2개 (오래된 것부터)",
        "#1 ",
        &format!("습관 추가 — '{FRAMED}' 습관을 추가합니다"),
        "되돌려짐(#2)",
        "습관 추가 되돌리기 — 되돌릴 작업:",
        "#1을(를) 되돌림",
        "앱의 코치 · 확인 후 실행",
        "protocol_id=build.morning-walk",
    ] {
        assert!(out.stdout.contains(expected), "{expected:?}\n{out}");
    }
}

#[test]
fn a_declined_undo_changes_nothing() {
    let sandbox = Sandbox::new();
    let (out, _) = sandbox.run_script(
        &add_habit_script(),
        "아침 걷기 습관 추가해줘\ny\nundo that\nn\n",
        &[],
    );
    out.assert_success();
    assert!(out.stdout.contains("습관 추가 되돌리기"), "{out}");
    assert!(out.stdout.contains("실행하지 않았어요"), "{out}");
    assert_eq!(habit_count(&sandbox), 1, "{out}");
}
