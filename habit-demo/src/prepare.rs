//! `habit-demo prepare`: a model's one-time start-up work, done ahead of the first chat.
//!
//! The first start of a model with these tools evaluates the preamble (the instructions, the
//! tools' declarations and their examples: a few seconds on two cores),
//! cuts the reading model tool choice uses, and reads the declared examples (some 7 s). All
//! of it is kept in the prefix cache's files, so every later start restores it in about a
//! second (the preamble in a tenth of one). The chat does this work in the background on its
//! first start, and a message sent before it is done waits for it; this mode does it up
//! front, with progress shown, so that no conversation ever waits for it. `scripts/demo.sh` runs it before the chat: on a
//! prepared machine it only restores the files and exits.
//!
//! It reads and writes no habit database: the tools are registered over an in-memory store,
//! since the preamble depends on the tools' declarations, not on anyone's habits.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use agent_core::llm::gemma::{GemmaOptions, PrefixSource, Threads};
use agent_core::{Agent, ChatConfig};
use clap::builder::RangedU64ValueParser;
use habit_tools::{COACH_INSTRUCTIONS, Coach, Store};

use crate::error::DemoError;
use crate::interrupt::Interrupts;
use crate::model;
use crate::ui::{Style, Ui};

/// The flags of `habit-demo prepare`.
#[derive(Debug, clap::Args)]
pub(crate) struct PrepareArgs {
    /// The GGUF model to prepare [default: the chat's: $GEMMA_MODEL, else the model
    /// scripts/fetch-model.sh caches]
    #[arg(long, value_name = "PATH")]
    pub(crate) model: Option<std::path::PathBuf>,

    /// CPU threads for the model [default: the cores other processes are not keeping busy]
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub(crate) threads: Option<usize>,
}

/// Prepares the model and reports what was done; exit status 1 with the reason on failure.
pub(crate) fn main(args: PrepareArgs) -> ExitCode {
    let ui = Arc::new(Ui::for_stdout());
    let outcome = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(DemoError::Runtime)
        .and_then(|runtime| runtime.block_on(run(args, &ui)));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error @ DemoError::Interrupted) => {
            ui.status_line(Style::Warn, &error.to_string());
            ExitCode::from(130)
        }
        Err(error) => {
            ui.error(&error.to_string());
            ExitCode::FAILURE
        }
    }
}

async fn run(args: PrepareArgs, ui: &Arc<Ui>) -> Result<(), DemoError> {
    let store = Arc::new(Store::open_in_memory()?);
    let registry =
        Arc::new(habit_tools::registry_builder(Coach::with_system_clock(store)).build()?);
    let config = ChatConfig::new(COACH_INSTRUCTIONS, &registry);
    let (path, source) = model::resolve(args.model);
    let mut options = GemmaOptions::default();
    if let Some(threads) = args.threads {
        options.threads = Threads::from_count(threads);
    }
    let interrupts = Interrupts::install();
    let loaded = model::load(&path, source, options, config, ui, &interrupts).await?;

    let begun = Instant::now();
    let written_after = SystemTime::now();
    let label = "대화 서두(지시문, 도구 설명, 예시)를 준비하는 중…";
    model::interruptible(&interrupts, ui.spin(label, label, loaded.session.ready()))
        .await?
        .map_err(DemoError::Model)?;
    let stats = loaded.session.stats();
    let how = match stats.preamble_source {
        PrefixSource::File => "캐시 파일에서 복원",
        PrefixSource::Memory => "메모리에서 복원",
        _ => "평가",
    };
    ui.status_line(
        Style::Good,
        &format!(
            "✓ 대화 서두 {}토큰: {how} ({:.1}초)",
            stats.preamble_tokens,
            begun.elapsed().as_secs_f64()
        ),
    );
    model::report_repairs(ui, &loaded.backend);

    let examples = registry.examples().count();
    // The agent's default strategy is the chat's: the same examples, read the same way.
    let mut agent = Agent::new(loaded.session, Arc::clone(&registry));
    let started = Instant::now();
    let label = format!("도구 선택을 위해 예시 {examples}개를 읽는 중…");
    model::interruptible(&interrupts, ui.spin(&label, &label, agent.prepare()))
        .await?
        .map_err(DemoError::Prepare)?;
    // The agent goes on without the model's reading when it fails (tool choice is then the
    // router's alone); here that is worth saying.
    if agent.chooser().reading().is_some() {
        ui.status_line(
            Style::Good,
            &format!(
                "✓ 도구 선택 예시 {examples}개 읽기 ({:.1}초)",
                started.elapsed().as_secs_f64()
            ),
        );
    } else {
        ui.status_line(
            Style::Warn,
            "⚠ 모델이 예시를 읽지 못했습니다: 도구 선택은 어휘 라우터만으로 합니다",
        );
    }
    model::report_repairs(ui, &loaded.backend);
    let total = loaded.elapsed.as_secs_f64() + begun.elapsed().as_secs_f64();
    let dir = loaded.backend.options().prefix_cache.dir();
    // The backend treats a cache it cannot write as a cost, not a failure; preparing is
    // only worth something if the files are there, so that is checked, not assumed.
    let kept = dir.as_deref().is_some_and(|dir| {
        stats.preamble_source == PrefixSource::File || wrote_state_since(dir, written_after)
    });
    match (kept, dir) {
        (true, Some(dir)) => ui.status_line(
            Style::Good,
            &format!(
                "준비 완료 ({total:.1}초): 다음 시작부터는 {}에서 복원합니다",
                dir.display()
            ),
        ),
        (_, dir) => ui.status_line(
            Style::Warn,
            &format!(
                "⚠ 준비는 했지만 캐시 파일을 쓰지 못했습니다 ({}): 다음 시작도 처음부터 준비합니다",
                dir.map_or_else(|| "캐시 꺼짐".to_owned(), |d| d.display().to_string())
            ),
        ),
    }
    Ok(())
}

/// Whether `dir` holds a KV state file written at or after `since`.
fn wrote_state_since(dir: &Path, since: SystemTime) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|entry| {
            entry.path().extension().is_some_and(|ext| ext == "kv")
                && entry
                    .metadata()
                    .and_then(|meta| meta.modified())
                    .is_ok_and(|modified| modified >= since)
        })
    })
}
