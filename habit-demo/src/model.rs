//! Loading the GGUF model and starting its chat session, with a spinner and the time it took.
//!
//! Loading blocks for about a second (longer from a cold disk), so it runs on a helper thread
//! while this one draws the spinner on stderr. When stderr is not a terminal there is no
//! animation, just a line before and a line after. The session then starts in the background
//! (its preamble restored from the cache file, or evaluated on a model's first start): the
//! chat shows its prompt at once, and the first message waits for whatever is left.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use agent_core::ChatConfig;
use agent_core::LlmError;
use agent_core::llm::gemma::{CacheFault, GemmaBackend, GemmaOptions, GemmaSession, MODEL_ENV};

use crate::error::DemoError;
use crate::interrupt::{Interrupts, Level};
use crate::ui::{Style, Ui};

/// Where the model path came from, for the error when it is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ModelSource {
    /// `--model PATH`.
    Flag,
    /// `$GEMMA_MODEL`.
    Env,
    /// The cache of `scripts/fetch-model.sh`.
    Default,
}

/// The model to load: `--model`, else the backend's default (which honours `$GEMMA_MODEL`).
pub(crate) fn resolve(flag: Option<PathBuf>) -> (PathBuf, ModelSource) {
    match flag {
        Some(path) => (path, ModelSource::Flag),
        None => {
            let source = if std::env::var_os(MODEL_ENV).is_some_and(|v| !v.is_empty()) {
                ModelSource::Env
            } else {
                ModelSource::Default
            };
            (GemmaBackend::default_model_path(), source)
        }
    }
}

/// A loaded model with its session, and how long getting there took.
pub(crate) struct Loaded {
    /// The model (kept alive for the session).
    pub(crate) backend: GemmaBackend,
    /// The conversation.
    pub(crate) session: GemmaSession,
    /// Wall-clock time of loading the weights and starting the session's thread.
    pub(crate) elapsed: Duration,
}

/// Loads `path` and starts a session with `config`, showing progress through `ui`.
///
/// # Errors
/// One [`DemoError`] per failure: the file is missing, is not a GGUF, or llama.cpp refused it.
pub(crate) async fn load(
    path: &Path,
    source: ModelSource,
    options: GemmaOptions,
    config: ChatConfig,
    ui: &Ui,
    interrupts: &Interrupts,
) -> Result<Loaded, DemoError> {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let started = Instant::now();
    let owned = path.to_path_buf();
    let worker = tokio::task::spawn_blocking(move || {
        let backend = GemmaBackend::load(&owned, options)?;
        // The preamble is restored (or, on a model's first start, evaluated for seconds)
        // on the session's thread while the person reads the banner and types.
        let session = backend.session_in_background(config)?;
        Ok::<_, LlmError>((backend, session))
    });
    let (label, plain) = (
        format!("모델을 불러오는 중… {name}"),
        format!("모델을 불러오는 중… {}", path.display()),
    );
    let loading = ui.spin(&label, &plain, worker);
    let outcome = interruptible(interrupts, loading)
        .await?
        .unwrap_or_else(|_| Err(LlmError::Load("the loading thread panicked".to_owned())));
    let (backend, session) = outcome.map_err(|error| describe(error, path, source))?;
    let elapsed = started.elapsed();
    ui.status_line(
        Style::Good,
        &format!(
            "✓ 모델 준비 완료: {name} ({:.1}초, 가중치 {:.1}초)",
            elapsed.as_secs_f64(),
            backend.load_time().as_secs_f64()
        ),
    );
    Ok(Loaded {
        backend,
        session,
        elapsed,
    })
}

/// `work`, unless Ctrl-C is pressed first: then [`DemoError::Interrupted`] (the work is
/// dropped; a thread of llama.cpp's still running ends with the process).
pub(crate) async fn interruptible<T>(
    interrupts: &Interrupts,
    work: impl Future<Output = T>,
) -> Result<T, DemoError> {
    tokio::select! {
        done = work => Ok(done),
        () = interrupts.next(Level::Start) => Err(DemoError::Interrupted),
    }
}

/// One line per file of the model-state cache that `backend` found unusable and made again
/// since the last report (a damaged or foreign file costs a rebuild, and the person is told).
pub(crate) fn report_repairs(ui: &Ui, backend: &GemmaBackend) {
    for repair in backend.cache_repairs() {
        let why = match &repair.fault {
            CacheFault::NotAFile => "일반 파일이 아니거나 길이가 맞지 않음".to_owned(),
            CacheFault::Mismatch => "기록(.meta)과 맞지 않음".to_owned(),
            CacheFault::Damaged(detail) => format!("내용이 온전하지 않음: {detail}"),
            CacheFault::Unloadable(detail) => format!("불러올 수 없음: {detail}"),
            _ => repair.fault.to_string(),
        };
        ui.status_line(
            Style::Warn,
            &format!(
                "⚠ 캐시 파일을 다시 만들었습니다 ({why}): {}",
                repair.file.display()
            ),
        );
    }
}

/// The one-line error for a failed load.
fn describe(error: LlmError, path: &Path, source: ModelSource) -> DemoError {
    let shown = path.display().to_string();
    match (error, source) {
        (LlmError::ModelNotFound { .. }, ModelSource::Default) => {
            DemoError::ModelNotFetched { path: shown }
        }
        (LlmError::ModelNotFound { .. }, ModelSource::Flag) => DemoError::ModelNotFound {
            path: shown,
            given_by: "--model",
        },
        (LlmError::ModelNotFound { .. }, ModelSource::Env) => DemoError::ModelNotFound {
            path: shown,
            given_by: MODEL_ENV,
        },
        (LlmError::NotGguf { .. }, _) => DemoError::NotGguf { path: shown },
        // The reason alone: LlmError's own words would say "could not load" a second time.
        (LlmError::Load(reason), _) => DemoError::ModelLoad(reason),
        (other, _) => DemoError::Model(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_default_model_names_the_fetch_command() {
        let error = describe(
            LlmError::ModelNotFound {
                path: "/x.gguf".into(),
            },
            Path::new("/x.gguf"),
            ModelSource::Default,
        );
        assert!(
            error.to_string().contains("scripts/fetch-model.sh"),
            "{error}"
        );
        let error = describe(
            LlmError::ModelNotFound {
                path: "/x.gguf".into(),
            },
            Path::new("/x.gguf"),
            ModelSource::Flag,
        );
        assert!(error.to_string().contains("--model"), "{error}");
    }

    #[test]
    fn a_load_error_says_could_not_load_once() {
        let error = describe(
            LlmError::Load("/x.gguf: Permission denied (os error 13)".into()),
            Path::new("/x.gguf"),
            ModelSource::Flag,
        );
        assert_eq!(
            error.to_string(),
            "모델을 불러오지 못했습니다: /x.gguf: Permission denied (os error 13)"
        );
    }
}
