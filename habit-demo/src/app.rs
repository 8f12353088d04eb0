//! Start-up: open the habit database, register the nine tools behind the terminal confirmer,
//! load the model (or, in the hidden test mode, the script), print the banner, and hand over
//! to the chat loop.
//!
//! The database is opened before the model is loaded so that a database problem is reported
//! at once, not after the slower model load.

use std::path::PathBuf;
use std::sync::Arc;

use agent_core::choice::Strategy;
use agent_core::llm::gemma::{GemmaBackend, GemmaOptions, Threads};
use agent_core::llm::scripted::ScriptedSession;
use agent_core::{Agent, ChatConfig, ChatSession, Registry};
use habit_tools::{COACH_INSTRUCTIONS, Coach, Store};

use crate::chat::{Chat, Exit};
use crate::cli::Cli;
use crate::confirm::TerminalConfirmer;
use crate::error::DemoError;
use crate::input::LineSource;
use crate::interrupt::Interrupts;
use crate::render::Renderer;
use crate::ui::{Style, Ui};
use crate::{model, script};

/// Runs the program for parsed arguments.
///
/// # Errors
/// Start-up failures; once the chat runs, problems are reported in it and it carries on.
pub(crate) async fn run(cli: Cli) -> Result<Exit, DemoError> {
    let ui = Arc::new(Ui::for_stdout());
    let db_path = match &cli.db {
        Some(path) => path.clone(),
        None => Store::default_path()?,
    };
    let store = Arc::new(Store::open(&db_path)?);
    let coach = Coach::with_system_clock(store);

    let input =
        LineSource::stdin(Arc::clone(&ui)).map_err(|e| DemoError::Terminal(e.to_string()))?;
    let interrupts = Interrupts::install();
    let confirmer =
        TerminalConfirmer::new(input.clone(), Arc::clone(&ui), interrupts.clone(), cli.yes);
    let registry = Arc::new(habit_tools::registry_builder(coach.clone()).build()?);
    let config = ChatConfig::new(COACH_INSTRUCTIONS, &registry);
    let renderer = Arc::new(Renderer::new(Arc::clone(&ui), cli.verbose));
    let parts = Parts {
        coach,
        input,
        ui,
        renderer,
        registry,
        confirmer,
        db_path,
        interrupts,
    };

    if let Some(script_path) = &cli.script {
        let session = ScriptedSession::new(config, script::load(script_path)?);
        let transcript = session.transcript();
        // A script is what the model does, every turn: it decides, as a tool-tuned model would.
        let exit = parts
            .chat(session, "스크립트 (모델 없음)", &cli, Strategy::Model, None)
            .await;
        if let Some(log) = &cli.script_log {
            script::write_log(log, &transcript.received())?;
        }
        return Ok(exit);
    }

    let (path, source) = model::resolve(cli.model.clone());
    let mut options = GemmaOptions::default();
    if let Some(threads) = cli.threads {
        options.threads = Threads::from_count(threads);
    }
    let loaded = model::load(&path, source, options, config, &parts.ui, &parts.interrupts).await?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    if cli.verbose {
        let options = loaded.backend.options();
        // The session starts in the background; until it has, the count is the setting's.
        let threads = match loaded.session.stats().threads {
            0 => options.threads.to_string(),
            chosen => chosen.to_string(),
        };
        parts.ui.line(
            Style::Dim,
            &format!(
                "모델: {} · 형식 {} · 스레드 {} · 문맥 {} 토큰 · 답 최대 {} 토큰 · 준비 {:.1}초",
                path.display(),
                loaded.backend.format().name(),
                threads,
                options.context_size,
                options.max_text_tokens,
                loaded.elapsed.as_secs_f64()
            ),
        );
    }
    let cache = Some(loaded.backend.clone());
    Ok(parts
        .chat(loaded.session, &name, &cli, Strategy::default(), cache)
        .await)
}

/// What start-up prepared for the chat, whatever the session.
struct Parts {
    coach: Coach,
    input: LineSource,
    ui: Arc<Ui>,
    renderer: Arc<Renderer>,
    registry: Arc<Registry>,
    confirmer: TerminalConfirmer,
    db_path: PathBuf,
    interrupts: Interrupts,
}

impl Parts {
    async fn chat<S: ChatSession>(
        self,
        session: S,
        model_name: &str,
        cli: &Cli,
        strategy: Strategy,
        cache: Option<GemmaBackend>,
    ) -> Exit {
        self.banner(model_name, cli);
        let agent = Agent::new(session, Arc::clone(&self.registry))
            .with_strategy(strategy)
            .with_confirmer(self.confirmer)
            .with_events(self.renderer.sink())
            .with_max_turns(cli.max_turns);
        Chat {
            agent,
            prepared: false,
            cache,
            coach: self.coach,
            input: self.input,
            renderer: self.renderer,
            ui: self.ui,
            interrupts: self.interrupts,
        }
        .run()
        .await
    }

    fn banner(&self, model_name: &str, cli: &Cli) {
        let ui = &self.ui;
        ui.line(Style::Bold, &format!("🤖 습관 코치 — {model_name}"));
        ui.line(Style::Dim, &format!("습관 DB: {}", self.db_path.display()));
        ui.line(
            Style::Dim,
            "예: \"아침 운동 습관을 찾아줘\" · /habits 내 습관 · /tools 도구 · /new 새 대화 · /help · /quit (Ctrl-D)",
        );
        if cli.yes {
            let labels: Vec<&str> = self
                .registry
                .tools()
                .filter(|tool| tool.is_destructive())
                .map(|tool| tool.label())
                .collect();
            ui.line(
                Style::Warn,
                &format!(
                    "⚠ --yes: 확인이 필요한 작업({})도 묻지 않고 바로 수행합니다!",
                    labels.join(", ")
                ),
            );
        }
        ui.blank();
    }
}
