//! The command line: every flag of `habit-demo`, parsed with clap's derive API.
//!
//! Two flags are hidden from `--help` because they exist for tests only: `--script` replaces the
//! model with a scripted session (so the binary can be driven end to end without llama.cpp)
//! and `--script-log` records what that session received.

use std::path::PathBuf;

use clap::builder::RangedU64ValueParser;
use clap::{Parser, Subcommand};

/// A Korean habit coach in the terminal: a local Gemma model that searches a habit catalog,
/// adds habits and logs them in a SQLite file, asking you before anything is written.
#[derive(Debug, Parser)]
#[command(
    name = "habit-demo",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "\
Type Korean, e.g. \"아침 운동 습관을 찾아줘\". Commands inside the chat:
  /habits   your habits and streaks, read straight from the database
  /tools    the tools the model may call, and which ones ask before running
  /new      start a new conversation (새 대화); saved habits stay
  /help     this list
  /quit     leave (Ctrl-D works too)

A tool that writes (습관 추가, 기록하기) asks \"이 작업을 수행할까요?\" first. Only y, yes, 예
or 네 runs it; Enter, n, anything else, end of input or Ctrl-C cancels, and the model is told.
Standard input need not be a terminal: piped lines answer chat turns and confirmations in order."
)]
pub(crate) struct Cli {
    /// The GGUF model to run [default: $GEMMA_MODEL, else the Gemma 3 270M that
    /// scripts/fetch-model.sh caches in ~/.cache/agent-rs/models/]
    #[arg(long, value_name = "PATH")]
    pub(crate) model: Option<PathBuf>,

    /// The habit database (SQLite; created if missing) [default:
    /// habit-coach/habits.sqlite3 in the user data directory, e.g. ~/.local/share]
    #[arg(long, value_name = "PATH")]
    pub(crate) db: Option<PathBuf>,

    /// Most model turns per message (one call and the answer at least); a model still calling
    /// tools after that is stopped
    #[arg(long, value_name = "N", default_value_t = agent_core::DEFAULT_MAX_TURNS,
          value_parser = RangedU64ValueParser::<usize>::new().range(2..=32))]
    pub(crate) max_turns: usize,

    /// CPU threads for the model [default: the cores other processes are not keeping busy]
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub(crate) threads: Option<usize>,

    /// Also show the raw JSON of tool calls and results, and timings
    #[arg(long, short)]
    pub(crate) verbose: bool,

    /// Run tools that need confirmation without asking (for scripts); printed loudly
    #[arg(long)]
    pub(crate) yes: bool,

    /// Tests only: play model turns from this JSON file instead of loading a model
    #[arg(long, value_name = "FILE", hide = true)]
    pub(crate) script: Option<PathBuf>,

    /// Tests only: with --script, write what the scripted model received to this JSON file
    #[arg(long, value_name = "FILE", hide = true, requires = "script")]
    pub(crate) script_log: Option<PathBuf>,

    /// Another mode instead of the chat
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

/// The modes other than the chat.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Serve the habit tools to another assistant over MCP on stdin/stdout (no model is
    /// loaded); writes ask the person through the client first
    Mcp(crate::mcp::McpArgs),
    /// Do a model's one-time start-up work now (evaluate the preamble, read the tools'
    /// examples) and keep it in the cache files, so the chat's first message is answered at
    /// once; on a prepared machine it only restores them
    Prepare(crate::prepare::PrepareArgs),
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn mcp_is_a_mode_of_its_own() {
        let cli = Cli::try_parse_from(["habit-demo", "mcp", "--db", "/tmp/h.db"]).expect("valid");
        let Some(Command::Mcp(args)) = cli.command else {
            panic!("not the mcp mode: {cli:?}");
        };
        assert_eq!(args.db, Some(PathBuf::from("/tmp/h.db")));
        assert_eq!(args.confirm_timeout, 300);
        // The chat's flags do not apply to it; `--yes` least of all.
        assert!(Cli::try_parse_from(["habit-demo", "--yes", "mcp"]).is_err());
    }

    #[test]
    fn prepare_takes_the_models_flags_and_no_database() {
        let cli =
            Cli::try_parse_from(["habit-demo", "prepare", "--model", "/m.gguf"]).expect("valid");
        let Some(Command::Prepare(args)) = cli.command else {
            panic!("not the prepare mode: {cli:?}");
        };
        assert_eq!(args.model, Some(PathBuf::from("/m.gguf")));
        assert!(Cli::try_parse_from(["habit-demo", "prepare", "--db", "/tmp/h.db"]).is_err());
        assert!(Cli::try_parse_from(["habit-demo", "--model", "/m.gguf", "prepare"]).is_err());
    }

    #[test]
    fn max_turns_must_be_positive() {
        assert!(Cli::try_parse_from(["habit-demo", "--max-turns", "1"]).is_err());
        let cli = Cli::try_parse_from(["habit-demo", "--max-turns", "2"]).expect("valid");
        assert_eq!(cli.max_turns, 2);
    }
}
