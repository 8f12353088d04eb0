//! The agent loop: one user message at a time — decide what to do, have the model write the
//! calls, run them, feed the results back, and always end with words.
//!
//! [`Agent::send`] first asks the tool-choice stage ([`Chooser::plan_in`], with the calls of
//! the conversation's earlier turns) for the turn's *plan*: the tools to call, in order, or
//! none. Then, for each step, it asks the session for
//! exactly that call ([`ToolChoice::Call`]) — the model writes only the arguments,
//! constrained to the values the app allows this turn — and runs it through the
//! [`Dispatcher`]. Where the first call took one member of a list the request names
//! ("서울이랑 부산 둘 다"), the plan gains a call of the same tool for each other member
//! ([`Chooser::repeat_for_list`]). After the last step, or as soon as a call is cancelled,
//! refused or fails,
//! the model gets one more turn in which it may only answer in text ([`ToolChoice::None`]);
//! if it writes nothing usable, the runtime's default answer for that outcome stands in
//! ([`Messages`]). So every message ends with words, a cancelled call is acknowledged instead
//! of retried, and the user never sees four identical calls.
//!
//! With [`Strategy::Model`] the stage is skipped and the model decides every turn, for models
//! tuned to call tools: then a call identical to one already made in this user turn — with
//! nothing changed since by a destructive tool — is answered `repeated_call` instead of
//! running again, and the loop stops at `max_turns` model turns (default 4), answering that
//! last turn's calls with a `turn_limit` error rather than leaving them unanswered. Every call
//! the model emits gets exactly one result.
//!
//! A turn can be interrupted from another task ([`Agent::interrupter`]). Interruption is
//! honoured while the model writes and before a call starts; a call that already started —
//! the person said yes, the write is under way — is awaited, and
//! [`AgentError::Interrupted`] reports what ran, so a UI never claims a write was stopped
//! when it committed.
//!
//! | file | owns |
//! |---|---|
//! | `run.rs` | [`Agent`]: the loop of one message |
//! | `options.rs` | how an agent is set up, and its parts |
//! | `calls.rs` | running the calls a model wrote |
//! | `answer.rs` | judging the closing answer |
//! | `claims.rs` | whether an answer says something was done |
//! | `turn.rs` | the state of one user turn |
//! | `history.rs` | repeated calls within a turn |
//! | `interrupt.rs` | [`Interrupter`], and tool choice's evidence given up on interruption |
//! | `report.rs` | where events go, and the confirmer that reports |
//! | `events.rs` | [`AgentEvent`], [`EventSink`] |
//! | `error.rs` | [`AgentError`], [`CompletedCall`] |
//!
//! [`Chooser::plan_in`]: crate::choice::Chooser::plan_in
//! [`Chooser::repeat_for_list`]: crate::choice::Chooser::repeat_for_list
//! [`ToolChoice::Call`]: crate::ToolChoice::Call
//! [`ToolChoice::None`]: crate::ToolChoice::None
//! [`Dispatcher`]: crate::Dispatcher
//! [`Messages`]: crate::Messages
//! [`Strategy::Model`]: crate::choice::Strategy::Model

mod answer;
mod calls;
mod claims;
mod error;
mod events;
mod history;
mod interrupt;
mod options;
mod report;
mod run;
mod turn;

pub use error::{AgentError, CompletedCall};
pub use events::{AgentEvent, EventSink, IgnoreEvents};
pub use interrupt::Interrupter;
pub use run::{Agent, DEFAULT_MAX_TURNS, DEFAULT_SOFT_HISTORY_LIMIT};
