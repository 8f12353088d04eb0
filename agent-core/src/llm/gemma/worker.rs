//! The inference thread of one session: it owns the llama.cpp context, keeps the
//! conversation in the KV cache, and runs turns.
//!
//! KV-cache reuse: the worker tracks `n_past`, the conversation tokens already evaluated, and
//! evaluates only what a new input appends at positions `n_past..`. The one token that is
//! sampled but not evaluated at the end of a turn (the token that completed a JSON reply, when
//! the turn is ended without waiting for `<end_of_turn>`) is kept in `pending` and evaluated
//! with the next input, so the cache always holds exactly the rendered conversation.
//!
//! Nothing a model or user does may abort or panic: a message that cannot fit even an empty
//! context is [`LlmError::PromptTooLong`]; one that does not fit after the history is
//! [`LlmError::ContextFull`] (the session is left as it was, `clear()` starts over); a
//! context that fills during generation ends the turn with `ContextFull`. A failed llama.cpp
//! evaluation leaves the cache in an unknown state, so the session refuses further turns
//! until `clear()`. A panic in a turn is caught and reported the same way.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::token::LlamaToken;

use super::format::{RenderState, TurnInput, function_gemma, gemma};
use super::json_stream::{JsonReply, ParsedReply};
use super::model::{Shared, context_size};
use super::sampler::{Sampled, TokenSampler};
use super::session::{SessionStats, TurnStats};
use super::utf8::Utf8Buffer;
use super::{PromptFormat, grammar};
use crate::llm::{ChatConfig, ChatEvent, LlmError};

/// Room kept free for the reply when a new input is admitted.
const MIN_REPLY_TOKENS: usize = 16;

/// Where a turn's events go.
pub(super) type EventSender = tokio::sync::mpsc::Sender<Result<ChatEvent, LlmError>>;

/// What the session handle asks of the worker.
pub(super) enum Command {
    /// Run one turn and stream its events.
    Turn {
        /// The user message or tool results.
        input: TurnInput,
        /// Where the events go; dropping the receiver cancels the turn.
        events: EventSender,
    },
    /// Append results to the conversation without generating (see
    /// [`ChatSession::record_tool_results`](crate::llm::ChatSession::record_tool_results)).
    Record(TurnInput),
    /// Forget the conversation.
    Clear,
}

/// The worker thread's body: set up, report readiness, then serve commands until the
/// session handle is dropped.
pub(super) fn run(
    shared: &Shared,
    config: ChatConfig,
    commands: &mpsc::Receiver<Command>,
    ready: &mpsc::Sender<Result<(), LlmError>>,
    stats: &Arc<Mutex<SessionStats>>,
) {
    let mut worker = match Worker::new(shared, config, Arc::clone(stats)) {
        Ok(worker) => worker,
        Err(error) => {
            let _ = ready.send(Err(error));
            return;
        }
    };
    if ready.send(Ok(())).is_err() {
        return;
    }
    for command in commands {
        match command {
            Command::Turn { input, events } => {
                let guard = events.clone();
                let outcome = catch_unwind(AssertUnwindSafe(|| worker.turn(&input, events)));
                if outcome.is_err() {
                    let reason = "the inference thread panicked; clear() the session".to_owned();
                    worker.broken = Some(reason.clone());
                    let _ = guard.blocking_send(Err(LlmError::Inference(reason)));
                }
            }
            Command::Record(input) => {
                if catch_unwind(AssertUnwindSafe(|| worker.record(&input))).is_err() {
                    worker.broken =
                        Some("the inference thread panicked; clear() the session".to_owned());
                }
            }
            Command::Clear => worker.clear(),
        }
    }
}

/// How the model's reply is read.
enum Reply {
    /// Plain text, streamed as it comes.
    Plain(Utf8Buffer),
    /// A grammar-constrained JSON object.
    Json(Utf8Buffer, JsonReply),
    /// FunctionGemma text and calls.
    FunctionGemma(FunctionGemmaReply),
}

#[derive(Default)]
struct FunctionGemmaReply {
    text: Utf8Buffer,
    call: Option<Vec<u8>>,
    calls: usize,
}

/// FunctionGemma's marker tokens, looked up once (absent in other vocabularies).
#[derive(Clone, Copy)]
struct Markers {
    start_call: Option<LlamaToken>,
    end_call: Option<LlamaToken>,
    start_response: Option<LlamaToken>,
    escape: Option<LlamaToken>,
}

/// What a token means for the turn.
enum Step {
    /// Keep generating.
    Continue,
    /// The reply is complete; the token is part of it but need not be evaluated now.
    StopKeep,
    /// A marker ended the reply; the token is not part of the conversation.
    StopDrop,
}

/// Why generation stopped.
enum End {
    Finished,
    TokenLimit,
    Cancelled,
    Error(LlmError),
}

struct Worker<'m> {
    shared: &'m Shared,
    ctx: LlamaContext<'m>,
    batch: LlamaBatch<'static>,
    sampler: TokenSampler,
    config: ChatConfig,
    json_replies: bool,
    markers: Markers,
    capacity: usize,
    n_past: usize,
    pending: Vec<LlamaToken>,
    started: bool,
    model_turn_open: bool,
    after_calls: bool,
    broken: Option<String>,
    stats: Arc<Mutex<SessionStats>>,
}

impl<'m> Worker<'m> {
    fn new(
        shared: &'m Shared,
        config: ChatConfig,
        stats: Arc<Mutex<SessionStats>>,
    ) -> Result<Self, LlmError> {
        let options = &shared.options;
        let threads = i32::try_from(options.threads.max(1)).unwrap_or(i32::MAX);
        let batch_size = options.batch_size.max(1);
        let params = LlamaContextParams::default()
            .with_n_ctx(Some(context_size(options)))
            .with_n_batch(batch_size)
            .with_n_ubatch(batch_size)
            .with_n_seq_max(1)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        let ctx = shared
            .model
            .new_context(shared.backend, params)
            .map_err(|e| LlmError::Load(format!("could not create a llama.cpp context: {e}")))?;
        let capacity = usize::try_from(ctx.n_ctx()).unwrap_or(usize::MAX);
        let json_replies =
            shared.format == PromptFormat::GemmaJson && gemma::uses_json_replies(&config);
        let grammar = if json_replies {
            grammar::reply_grammar(
                &config.tools,
                config.tool_choice,
                options.max_calls_per_turn,
            )?
        } else {
            None
        };
        let sampler = TokenSampler::new(
            &shared.model,
            grammar.as_deref(),
            options.temperature,
            options.seed,
            options.constrained_sampling,
            if json_replies {
                shared.banned_tokens()
            } else {
                &[]
            },
        )?;
        let declaration_tokens = shared
            .tokenize(&shared.format.render_preamble(&config))
            .len();
        {
            let mut stats = stats.lock().unwrap_or_else(PoisonError::into_inner);
            stats.declaration_tokens = declaration_tokens;
            stats.context_capacity = capacity;
        }
        Ok(Self {
            shared,
            ctx,
            // `evaluate` chunks by `ctx.n_batch()`, which is at most `batch_size`.
            batch: LlamaBatch::new(usize::try_from(batch_size).unwrap_or(512), 1),
            sampler,
            config,
            json_replies,
            markers: Markers {
                start_call: shared.special_token(function_gemma::START_CALL),
                end_call: shared.special_token(function_gemma::END_CALL),
                start_response: shared.special_token(function_gemma::START_RESPONSE),
                escape: shared.special_token(function_gemma::ESCAPE),
            },
            capacity,
            n_past: 0,
            pending: Vec::new(),
            started: false,
            model_turn_open: false,
            after_calls: false,
            broken: None,
            stats,
        })
    }

    fn clear(&mut self) {
        self.ctx.clear_kv_cache();
        self.n_past = 0;
        self.pending.clear();
        self.started = false;
        self.model_turn_open = false;
        self.after_calls = false;
        self.broken = None;
        let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
        stats.turns = 0;
        stats.last_turn = TurnStats::default();
    }

    /// The tokens `input` appends: `<bos>` on the first input, the token left pending by the
    /// last reply, and the rendered input.
    fn input_tokens(&self, input: &TurnInput) -> Vec<LlamaToken> {
        let state = RenderState {
            first: !self.started,
            model_turn_open: self.model_turn_open,
            after_calls: self.after_calls,
        };
        let mut tokens = Vec::new();
        if !self.started {
            tokens.push(self.shared.model.vocab().bos());
        }
        tokens.extend_from_slice(&self.pending);
        tokens.extend(self.shared.tokenize(&self.shared.format.render_turn(
            &self.config,
            state,
            input,
        )));
        tokens
    }

    /// Evaluates recorded results into the conversation without generating a reply. No turn
    /// is running, so nothing can be reported: results that do not fit are dropped (the next
    /// turn then closes the open model turn itself and reports a full context), and a failed
    /// evaluation breaks the session like a failed turn does.
    fn record(&mut self, input: &TurnInput) {
        if self.broken.is_some() {
            return;
        }
        let tokens = self.input_tokens(input);
        if self.admit(input, tokens.len()).is_err() {
            return;
        }
        match self.evaluate(&tokens) {
            Ok(_) => {
                self.pending.clear();
                self.started = true;
                self.model_turn_open = false;
                self.after_calls = false;
            }
            Err(error) => {
                self.broken = Some(format!(
                    "evaluation failed earlier ({error}); clear() the session"
                ));
            }
        }
    }

    fn turn(&mut self, input: &TurnInput, events: EventSender) {
        let mut out = Events {
            sender: events,
            open: true,
        };
        if let Some(reason) = &self.broken {
            out.send(Err(LlmError::Inference(reason.clone())));
            return;
        }
        let started = Instant::now();
        let tokens = self.input_tokens(input);
        if let Err(error) = self.admit(input, tokens.len()) {
            out.send(Err(error));
            return;
        }

        let mut turn = TurnStats {
            tokens_appended: tokens.len(),
            ..TurnStats::default()
        };
        let logits_index = match self.evaluate(&tokens) {
            Ok(index) => index,
            Err(error) => {
                self.broken = Some(format!(
                    "evaluation failed earlier ({error}); clear() the session"
                ));
                out.send(Err(error));
                return;
            }
        };
        turn.prompt_tokens_evaluated = tokens.len();
        turn.prefill_time = started.elapsed();
        self.pending.clear();
        self.started = true;
        self.model_turn_open = true;
        self.after_calls = false;

        let generation_started = Instant::now();
        let mut reply = match self.new_reply() {
            Ok(reply) => reply,
            Err(error) => {
                out.send(Err(error));
                return;
            }
        };
        let (end, generated, first_token) =
            self.generate(logits_index, &mut reply, &mut out, started);
        turn.generated_tokens = generated;
        turn.time_to_first_token = first_token;
        turn.generation_time = generation_started.elapsed();
        turn.constrained = self.sampler.is_constrained();
        turn.sampler = self.sampler.counters();
        turn.context_tokens = self.n_past;
        turn.kv_cache_tokens =
            usize::try_from(self.ctx.kv_cache_seq_pos_max(0).saturating_add(1)).unwrap_or(0);

        self.finish_reply(reply, &end, &mut out);
        if let End::Error(error) = end {
            out.send(Err(error));
        }
        let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
        stats.turns += 1;
        stats.last_turn = turn;
    }

    /// Checks that `appended` new tokens and a reply fit; leaves the session untouched if not.
    fn admit(&self, input: &TurnInput, appended: usize) -> Result<(), LlmError> {
        if self.n_past + appended + MIN_REPLY_TOKENS <= self.capacity {
            return Ok(());
        }
        // Would it fit a fresh conversation? If so the history is the problem.
        let fresh = 1 + self
            .shared
            .tokenize(&self.shared.format.render_turn(
                &self.config,
                RenderState {
                    first: true,
                    ..RenderState::default()
                },
                input,
            ))
            .len();
        if fresh + MIN_REPLY_TOKENS > self.capacity {
            Err(LlmError::PromptTooLong {
                tokens: fresh,
                capacity: self.capacity,
            })
        } else {
            Err(LlmError::ContextFull {
                capacity: self.capacity,
            })
        }
    }

    /// Evaluates `tokens` at positions `n_past..` in batches; returns the batch index of the
    /// last token's logits.
    fn evaluate(&mut self, tokens: &[LlamaToken]) -> Result<i32, LlmError> {
        // llama.cpp may lower the batch size it was asked for (never above the context).
        let chunk_size = usize::try_from(self.ctx.n_batch().max(1)).unwrap_or(512);
        let mut last_index = None;
        let chunks = tokens.chunks(chunk_size);
        let count = chunks.len();
        for (n, chunk) in chunks.enumerate() {
            self.batch.clear();
            for (i, &token) in chunk.iter().enumerate() {
                let wants_logits = n + 1 == count && i + 1 == chunk.len();
                self.batch
                    .add(token, position(self.n_past + i)?, &[0], wants_logits)
                    .map_err(|e| LlmError::Inference(format!("batch: {e}")))?;
            }
            self.ctx
                .decode(&mut self.batch)
                .map_err(|e| LlmError::Inference(format!("llama_decode: {e}")))?;
            self.n_past += chunk.len();
            last_index = Some(i32::try_from(chunk.len() - 1).unwrap_or(0));
        }
        last_index.ok_or_else(|| LlmError::Inference("nothing to evaluate".to_owned()))
    }

    fn new_reply(&mut self) -> Result<Reply, LlmError> {
        self.sampler.reset();
        Ok(match self.shared.format {
            PromptFormat::FunctionGemma => Reply::FunctionGemma(FunctionGemmaReply::default()),
            PromptFormat::GemmaJson if self.json_replies => {
                // The prompt already holds the reply's opening; the grammar and the reader
                // must start after it.
                let mut json = JsonReply::default();
                json.push(gemma::REPLY_PREFIX);
                for token in self.shared.tokenize_text(gemma::REPLY_PREFIX, false) {
                    self.sampler.accept_forced(&self.shared.model, token)?;
                }
                Reply::Json(Utf8Buffer::default(), json)
            }
            PromptFormat::GemmaJson => Reply::Plain(Utf8Buffer::default()),
        })
    }

    /// The generation loop: sample, stream, evaluate, until the reply ends.
    fn generate(
        &mut self,
        mut logits_index: i32,
        reply: &mut Reply,
        out: &mut Events,
        started: Instant,
    ) -> (End, usize, Option<std::time::Duration>) {
        let max_tokens = self.shared.options.max_tokens_per_turn;
        let mut generated = 0;
        let mut first_token = None;
        let end = loop {
            if generated >= max_tokens {
                break End::TokenLimit;
            }
            let sampled = match self
                .sampler
                .sample(&self.shared.model, &self.ctx, logits_index)
            {
                Ok(sampled) => sampled,
                Err(error) => break End::Error(error),
            };
            first_token.get_or_insert_with(|| started.elapsed());
            let token = match sampled {
                Sampled::EndOfGeneration(_) => break End::Finished,
                Sampled::Token(token) => token,
            };
            generated += 1;
            match self.on_token(token, reply, out) {
                Step::Continue => {}
                Step::StopKeep => {
                    self.pending.push(token);
                    break End::Finished;
                }
                Step::StopDrop => break End::Finished,
            }
            if !out.open {
                self.pending.push(token);
                break End::Cancelled;
            }
            if self.n_past >= self.capacity {
                self.pending.push(token);
                break End::Error(LlmError::ContextFull {
                    capacity: self.capacity,
                });
            }
            match self.evaluate(&[token]) {
                Ok(index) => logits_index = index,
                Err(error) => {
                    self.broken = Some(format!(
                        "evaluation failed earlier ({error}); clear() the session"
                    ));
                    break End::Error(error);
                }
            }
        };
        (end, generated, first_token)
    }

    /// Streams what `token` adds to the reply and says whether the reply goes on.
    fn on_token(&mut self, token: LlamaToken, reply: &mut Reply, out: &mut Events) -> Step {
        let vocab = self.shared.model.vocab();
        match reply {
            Reply::Plain(text) => {
                // A turn marker (`<start_of_turn>`…) in free text means the model is writing
                // the next turn itself.
                if vocab.is_control(token) {
                    return Step::StopDrop;
                }
                out.text(text.push(&vocab.token_to_piece(token, false, None)));
                Step::Continue
            }
            Reply::Json(text, json) => {
                let piece = text.push(&vocab.token_to_piece(token, false, None));
                out.text(json.push(&piece));
                if json.is_complete() {
                    Step::StopKeep
                } else {
                    Step::Continue
                }
            }
            Reply::FunctionGemma(fg) => self.on_function_gemma_token(token, fg, out),
        }
    }

    fn on_function_gemma_token(
        &mut self,
        token: LlamaToken,
        reply: &mut FunctionGemmaReply,
        out: &mut Events,
    ) -> Step {
        let markers = self.markers;
        let is = |marker: Option<LlamaToken>| marker == Some(token);
        if is(markers.start_call) {
            out.text(reply.text.finish());
            reply.call = Some(Vec::new());
            return Step::Continue;
        }
        if is(markers.end_call) {
            if let Some(call) = reply.call.take() {
                reply.calls += 1;
                let text = String::from_utf8_lossy(&call);
                out.send(
                    function_gemma::parse_call(&text)
                        .map(ChatEvent::FunctionCall)
                        .map_err(|e| LlmError::InvalidOutput(format!("FunctionGemma call: {e}"))),
                );
            }
            return Step::Continue;
        }
        if is(markers.escape) {
            if let Some(call) = &mut reply.call {
                call.extend_from_slice(function_gemma::ESCAPE.as_bytes());
            }
            return Step::Continue;
        }
        if is(markers.start_response) {
            // The results rendered next start with this very token.
            self.after_calls = reply.calls > 0;
            return Step::StopDrop;
        }
        let vocab = self.shared.model.vocab();
        if vocab.is_control(token) {
            return Step::StopDrop;
        }
        let piece = vocab.token_to_piece(token, false, None);
        match &mut reply.call {
            Some(call) => call.extend_from_slice(&piece),
            None => out.text(reply.text.push(&piece)),
        }
        Step::Continue
    }

    /// Flushes the reply and reports what only the end of it shows.
    fn finish_reply(&mut self, reply: Reply, end: &End, out: &mut Events) {
        match reply {
            Reply::Plain(mut text) => out.text(text.finish()),
            Reply::Json(mut text, mut json) => {
                out.text(json.push(&text.finish()));
                if json.is_complete() {
                    match json.parse() {
                        Ok(ParsedReply::Response(_)) => {}
                        Ok(ParsedReply::ToolCalls(calls)) => {
                            self.after_calls = !calls.is_empty();
                            for call in calls {
                                out.send(Ok(ChatEvent::FunctionCall(call)));
                            }
                        }
                        Err(e) => out.send(Err(LlmError::InvalidOutput(e))),
                    }
                } else if !json.is_response() && matches!(end, End::TokenLimit) {
                    // A text answer cut at the limit has been streamed and stands; a cut tool
                    // call cannot be run.
                    out.send(Err(LlmError::TurnTooLong {
                        max_tokens: self.shared.options.max_tokens_per_turn,
                    }));
                } else if !json.is_response() && matches!(end, End::Finished) {
                    out.send(Err(LlmError::InvalidOutput(format!(
                        "the reply ended before it was complete: {:?}",
                        json.raw()
                    ))));
                }
            }
            Reply::FunctionGemma(mut fg) => {
                out.text(fg.text.finish());
                if fg.call.is_some() && !matches!(end, End::Cancelled) {
                    out.send(Err(LlmError::InvalidOutput(
                        "a FunctionGemma call was not closed".to_owned(),
                    )));
                }
            }
        }
    }
}

/// A turn's event sender that remembers when the consumer has gone away.
struct Events {
    sender: EventSender,
    open: bool,
}

impl Events {
    fn send(&mut self, event: Result<ChatEvent, LlmError>) {
        if self.open && self.sender.blocking_send(event).is_err() {
            self.open = false;
        }
    }

    fn text(&mut self, text: String) {
        if !text.is_empty() {
            self.send(Ok(ChatEvent::TextDelta(text)));
        }
    }
}

fn position(index: usize) -> Result<i32, LlmError> {
    i32::try_from(index).map_err(|_| LlmError::Inference("position out of range".to_owned()))
}
