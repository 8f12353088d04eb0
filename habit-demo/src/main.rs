//! `habit-demo`: a Korean AI habit coach in the terminal. A local Gemma model (llama.cpp) talks
//! with you and calls the habit tools; anything that writes asks on stdin first.
//!
//! | module | owns |
//! |---|---|
//! | `cli` | the flags |
//! | `app` | start-up: database, tools, model or script, banner |
//! | `model` | loading the GGUF with a spinner; model errors |
//! | `chat` | the loop: lines → commands or agent turns; Ctrl-C |
//! | `commands` | `/new`, `/tools`, `/habits`, `/help`, `/quit` |
//! | `input` | the line source shared by the chat and the confirmation prompt |
//! | `interrupt` | Ctrl-C outside the line editor, routed to the innermost waiter |
//! | `confirm` | the `[y/N]` confirmation of destructive tools |
//! | `render` | agent events → streamed answer, tool lines |
//! | `outcome` | one-line Korean summaries of tool results |
//! | `ui` | terminal output and styles |
//! | `script` | the hidden `--script` test mode |
//! | `mcp` | `habit-demo mcp`: the tools served to another assistant over MCP instead of the chat |
//! | `prepare` | `habit-demo prepare`: a model's one-time start-up work, done before the chat |
//! | `error` | start-up errors, one line each |

mod app;
mod chat;
mod cli;
mod commands;
mod confirm;
mod error;
mod input;
mod interrupt;
mod mcp;
mod model;
mod outcome;
mod prepare;
mod render;
mod script;
mod ui;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let mut cli = cli::Cli::parse();
    match cli.command.take() {
        Some(cli::Command::Mcp(args)) => return mcp::main(args),
        Some(cli::Command::Prepare(args)) => return prepare::main(args),
        None => {}
    }
    let outcome = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(error::DemoError::Runtime)
        .and_then(|runtime| runtime.block_on(app::run(cli)));
    match outcome {
        Ok(chat::Exit::Done) => ExitCode::SUCCESS,
        // The conventional status of a process ended by SIGINT.
        Ok(chat::Exit::Interrupted) => ExitCode::from(130),
        Err(error @ error::DemoError::Interrupted) => {
            ui::Ui::for_stdout().status_line(ui::Style::Warn, &error.to_string());
            ExitCode::from(130)
        }
        Err(error) => {
            ui::Ui::for_stdout().error(&error.to_string());
            ExitCode::FAILURE
        }
    }
}
