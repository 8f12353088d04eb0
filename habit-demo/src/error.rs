//! Why the demo could not start, each as one line a person can act on: which file, what is
//! wrong with it, and what to run or pass instead.

use agent_core::{LlmError, RegistryError};
use habit_tools::StoreError;

/// What stops the program before (or instead of) the chat.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum DemoError {
    /// The default model file is not there yet.
    #[error(
        "모델 파일이 없습니다: {path} — 받으려면: scripts/fetch-model.sh (scripts/demo.sh는 자동으로 받습니다)"
    )]
    ModelNotFetched {
        /// Where it was expected.
        path: String,
    },
    /// A model file named by `--model` or `$GEMMA_MODEL` does not exist.
    #[error("모델 파일이 없습니다: {path} — {given_by}로 지정한 경로를 확인하세요")]
    ModelNotFound {
        /// The path given.
        path: String,
        /// `--model` or `GEMMA_MODEL`.
        given_by: &'static str,
    },
    /// The model file is not a GGUF.
    #[error("GGUF 모델 파일이 아닙니다: {path} — llama.cpp용 .gguf 파일을 지정하세요")]
    NotGguf {
        /// The path given.
        path: String,
    },
    /// llama.cpp (or the file system) could not load the model; the reason as it was given.
    #[error("모델을 불러오지 못했습니다: {0}")]
    ModelLoad(String),
    /// The model loaded, but its session could not start.
    #[error("모델을 시작하지 못했습니다: {0}")]
    Model(#[source] LlmError),
    /// The database is locked by another writer.
    #[error(
        "습관 DB가 다른 프로그램에 잠겨 있습니다: {path} — 그 프로그램을 닫거나 잠시 후 다시 시도하세요"
    )]
    DbLocked {
        /// The database path.
        path: String,
    },
    /// The database file is not SQLite, or is damaged.
    #[error(
        "습관 DB를 읽을 수 없습니다: {path}는 SQLite 데이터베이스가 아니거나 손상되었습니다 — 옮겨 두거나 --db로 다른 파일을 지정하세요"
    )]
    DbUnreadable {
        /// The database path.
        path: String,
    },
    /// The database cannot be opened or created.
    #[error("습관 DB를 열 수 없습니다: {path} ({reason})")]
    DbCannotOpen {
        /// The database path.
        path: String,
        /// The underlying reason.
        reason: String,
    },
    /// The database file or its folder is read-only: found before anything is asked.
    #[error(
        "습관 DB에 쓸 수 없습니다: {path} ({reason}) — 쓰기 권한을 확인하거나 --db로 다른 파일을 지정하세요"
    )]
    DbReadOnly {
        /// The database path.
        path: String,
        /// What is read-only.
        reason: String,
    },
    /// `PRAGMA quick_check` found the database damaged.
    #[error(
        "습관 DB가 손상되었습니다: {path} ({detail}) — 파일을 옮겨 두고 새로 시작하거나 백업에서 되살리세요"
    )]
    DbCorrupt {
        /// The database path.
        path: String,
        /// The check's first finding.
        detail: String,
    },
    /// Any other database problem (newer schema, no data directory, …).
    #[error("습관 DB 오류: {0}")]
    Db(#[source] StoreError),
    /// The tools could not be registered (a bug, not a user error).
    #[error("도구를 등록하지 못했습니다: {0}")]
    Registry(#[from] RegistryError),
    /// `habit-demo prepare` stopped before the examples were read.
    #[error("도구 선택을 준비하지 못했습니다: {0}")]
    Prepare(#[source] agent_core::AgentError),
    /// The terminal could not be set up for line editing.
    #[error("터미널 입력을 준비하지 못했습니다: {0}")]
    Terminal(String),
    /// The async runtime could not start.
    #[error("실행 환경을 준비하지 못했습니다: {0}")]
    Runtime(#[source] std::io::Error),
    /// Ctrl-C while the model was loading or its start-up work was being done: the program
    /// leaves, and what was left undone is done at the next start.
    #[error("시작을 중단했습니다 (Ctrl-C) — 끝내지 못한 준비는 다음 시작에서 이어서 합니다")]
    Interrupted,
    /// A `--script` file could not be read or parsed, or its log written.
    #[error("스크립트 파일 {path}: {reason}")]
    Script {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

impl From<StoreError> for DemoError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Locked { location } => Self::DbLocked { path: location },
            StoreError::NotADatabase { location } => Self::DbUnreadable { path: location },
            StoreError::CannotOpen { location, reason } => Self::DbCannotOpen {
                path: location,
                reason,
            },
            StoreError::ReadOnly { location, reason } => Self::DbReadOnly {
                path: location,
                reason,
            },
            StoreError::Corrupt { location, detail } => Self::DbCorrupt {
                path: location,
                detail,
            },
            other => Self::Db(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_errors_become_the_specific_lines() {
        let locked = DemoError::from(StoreError::Locked {
            location: "/tmp/h.db".into(),
        });
        assert!(matches!(locked, DemoError::DbLocked { .. }));
        assert!(locked.to_string().contains("잠겨"), "{locked}");
        let unreadable = DemoError::from(StoreError::NotADatabase {
            location: "/tmp/h.db".into(),
        });
        assert!(unreadable.to_string().contains("SQLite"), "{unreadable}");
        let other = DemoError::from(StoreError::NoDataDir);
        assert!(matches!(other, DemoError::Db(_)));
    }

    #[test]
    fn every_message_is_one_line() {
        let errors = [
            DemoError::ModelNotFetched { path: "/m".into() },
            DemoError::ModelNotFound {
                path: "/m".into(),
                given_by: "--model",
            },
            DemoError::NotGguf { path: "/m".into() },
            DemoError::DbLocked { path: "/d".into() },
        ];
        for error in errors {
            assert!(!error.to_string().contains('\n'), "{error}");
        }
    }
}
