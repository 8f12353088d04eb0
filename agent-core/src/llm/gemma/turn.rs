//! What the worker does with each command: the session's state in its llama.cpp context
//! (conversation, channels, sampler) and one method per command.
//!
//! Nothing a model or user does may abort or panic: an input that cannot fit even a fresh
//! conversation is [`LlmError::PromptTooLong`]; one that does not fit after the history is
//! [`LlmError::ContextFull`] (the session is left as it was, `clear()` starts over); a context
//! that fills during generation ends the turn with `ContextFull`. A failed llama.cpp
//! evaluation leaves the cache in an unknown state, so the session refuses further turns
//! until `clear()`.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use llama_cpp_2::context::params::LlamaContextParams;

use super::constrain::Program;
use super::conversation::{CONVERSATION, Conversation};
use super::decode::{self, End, Events, Start};
use super::format::{self, PromptFormat, State};
use super::prefix;
use super::reading::Reader;
use super::sampler::Sampler;
use super::scoring::Channels;
use super::shared::{Shared, TokenKind, context_size};
use super::stats::{SessionStats, TurnStats};
use super::steering::{self, Steering};
use super::trace::trace;
use crate::session::{ChatConfig, ChatEvent, LlmError, ResultMessage, TurnInput, TurnRequest};
use crate::tool::ToolDeclaration;

/// Room kept free for the reply when a new input is admitted.
const MIN_REPLY_TOKENS: usize = 16;

/// One session's inference state; see the module doc.
pub(crate) struct Session<'m> {
    shared: &'m Shared,
    reader: &'m Reader,
    conversation: Conversation<'m>,
    /// The tool-choice channels, prepared at the first scoring: a chooser that reads
    /// requests with the model never asks for them, and their prefixes cost seconds.
    channels: Option<Channels>,
    /// The context's layout, for prefix-cache keys.
    shape: String,
    sampler: Sampler,
    config: ChatConfig,
    stats: Arc<Mutex<SessionStats>>,
}

impl<'m> Session<'m> {
    /// Creates the context, restores or evaluates the preamble.
    pub(crate) fn start(
        shared: &'m Shared,
        reader: &'m Reader,
        config: ChatConfig,
        stats: Arc<Mutex<SessionStats>>,
    ) -> Result<Self, LlmError> {
        let options = &shared.options;
        let batch_size = options.batch_size.max(1);
        let sequences = 1 + u32::try_from(config.channels.len()).unwrap_or(0);
        let params = LlamaContextParams::default()
            .with_n_ctx(Some(context_size(options)))
            .with_n_batch(batch_size)
            .with_n_ubatch(batch_size)
            .with_n_seq_max(sequences)
            .with_kv_unified(true)
            // Gemma 3 attends over a 512-token sliding window in most layers, and llama.cpp
            // by default gives those layers a cache of window + batch cells whose masked
            // cells it reuses — a long conversation may overwrite the preamble's last
            // window, which a reset to the preamble (a new conversation) needs again.
            // Full-size cells for those layers (a few MB per thousand tokens for the 270M)
            // keep every position until it is removed; llama.cpp's server asks for the same
            // (`--swa-full`) to reuse prompt prefixes.
            .with_swa_full(true);
        let (mut ctx, chosen) = shared.new_context(params)?;
        let shape = format!(
            "ctx{}-seq{sequences}-unified-swafull-{}",
            ctx.n_ctx(),
            shared.format.name()
        );
        let batch = usize::try_from(batch_size).unwrap_or(512);
        let mut tokens = vec![shared.model.vocab().bos()];
        tokens.extend(shared.tokenize(&format::preamble(
            shared.format.format(),
            &config,
            options.preamble_examples,
        )));
        let capacity = usize::try_from(ctx.n_ctx()).unwrap_or(usize::MAX);
        if tokens.len() + MIN_REPLY_TOKENS > capacity {
            return Err(LlmError::PromptTooLong {
                tokens: tokens.len(),
                capacity,
            });
        }
        trace(
            "preamble",
            &format::preamble(shared.format.format(), &config, options.preamble_examples),
        );
        let mut scratch = llama_cpp_2::llama_batch::LlamaBatch::new(batch, 1);
        let (preamble_source, preamble_time) = prefix::load(
            shared,
            &mut ctx,
            &mut scratch,
            CONVERSATION,
            &tokens,
            &shape,
        )?;
        {
            let mut stats = stats.lock().unwrap_or_else(PoisonError::into_inner);
            stats.preamble_tokens = tokens.len();
            stats.preamble_source = preamble_source;
            stats.preamble_time = preamble_time;
            stats.context_capacity = capacity;
            stats.threads = chosen;
        }
        Ok(Self {
            shared,
            reader,
            conversation: Conversation::new(shared, ctx, batch, tokens.len()),
            channels: None,
            shape,
            sampler: Sampler::new(options.temperature, options.seed),
            config,
            stats,
        })
    }

    /// Forgets the conversation, keeping the preamble and channels.
    pub(crate) fn reset(&mut self) {
        self.conversation.reset();
        let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
        stats.turns = 0;
        stats.last_turn = TurnStats::default();
    }

    /// Marks the session unusable after a panic in one of its commands.
    pub(crate) fn poison(&mut self) {
        self.conversation.broken =
            Some("the inference thread panicked; clear() the session".to_owned());
    }

    /// Runs one turn, streaming its events; errors are sent as the turn's last event.
    pub(crate) fn turn(&mut self, request: TurnRequest, events: &Events) {
        let started = Instant::now();
        match self.run_turn(request, events, started) {
            Ok(turn) => {
                let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
                stats.turns += 1;
                stats.last_turn = turn;
            }
            Err(error) => events.send(Err(error)),
        }
    }

    fn run_turn(
        &mut self,
        request: TurnRequest,
        events: &Events,
        started: Instant,
    ) -> Result<TurnStats, LlmError> {
        if let Some(reason) = &self.conversation.broken {
            return Err(LlmError::Inference(reason.clone()));
        }
        let format = self.shared.format.format();
        let options = &self.shared.options;
        let steering = steering::steer(format, &self.config, &request, options.value_hints)
            .map_err(LlmError::Grammar)?;
        let (tokens_appended, idx) = self.append_input(&request, MIN_REPLY_TOKENS)?;
        let mut turn = TurnStats {
            tokens_appended,
            constrained: steering.is_call(),
            ..TurnStats::default()
        };
        turn.prefill_time = started.elapsed();
        self.sampler.counters = Default::default();
        let generation_started = Instant::now();
        let start = Start {
            idx,
            first: None,
            turn_started: started,
        };
        let (end, generated) = match steering {
            Steering::Text => decode::text(
                &mut self.conversation,
                &mut self.sampler,
                start,
                events,
                options.max_text_tokens,
            )?,
            Steering::Call { tools, program } => {
                self.write_call(&tools, &program, start, &request.quote, events)?
            }
            Steering::Auto { tools, program } => {
                let first = self.sampler.pick_text(&self.conversation.ctx, idx);
                let table = self.shared.tokens();
                let starts_call = table.kind(first) == TokenKind::Text
                    && program.start().accepts(table.piece(first));
                let start = Start {
                    first: Some(first),
                    ..start
                };
                if starts_call {
                    turn.constrained = true;
                    self.write_call(&tools, &program, start, &request.quote, events)?
                } else {
                    decode::text(
                        &mut self.conversation,
                        &mut self.sampler,
                        start,
                        events,
                        options.max_text_tokens,
                    )?
                }
            }
        };
        if end == End::Cancelled {
            turn.cancelled = true;
        }
        turn.sampled_tokens = generated.sampled;
        turn.forced_tokens = generated.forced;
        turn.time_to_first_token = generated.first_token;
        turn.generation_time = generation_started.elapsed();
        turn.sampler = self.sampler.counters;
        turn.context_tokens = self.conversation.n_past() + self.conversation.pending.len();
        turn.kv_cache_tokens = self.conversation.kv_tokens();
        Ok(turn)
    }

    /// Renders `request`'s input as its turn shows it (with the value hints its tool choice
    /// gets), evaluates it after what the last reply left pending, and opens the model's turn.
    /// `reserve` tokens must stay free for the reply. Returns the tokens appended and the
    /// batch index of the last one's logits.
    fn append_input(
        &mut self,
        request: &TurnRequest,
        reserve: usize,
    ) -> Result<(usize, i32), LlmError> {
        let format = self.shared.format.format();
        let hints = steering::hints(
            format,
            &request.tool_choice,
            &request.values,
            self.shared.options.value_hints,
        );
        let prompt = format::input_after_examples(
            format,
            self.conversation.state,
            &self.config.tools,
            &request.examples,
            &request.input,
            &hints,
        );
        trace("input", &prompt);
        let mut tokens = self.conversation.pending.clone();
        tokens.extend(self.shared.tokenize(&prompt));
        self.conversation.admit(tokens.len(), reserve)?;
        let idx = self.conversation.append(&tokens)?;
        self.conversation.pending.clear();
        self.conversation.state = State {
            model_turn_open: true,
            after_call: false,
        };
        Ok((tokens.len(), idx))
    }

    /// The benchmark's baseline: `request`'s input evaluated exactly as [`turn`](Self::turn)
    /// would, then `tokens` tokens decoded freely, one evaluation each (end-of-turn does not
    /// stop it), then the conversation forgotten as by [`reset`](Self::reset).
    pub(crate) fn free_decode(
        &mut self,
        request: &TurnRequest,
        tokens: usize,
    ) -> Result<TurnStats, LlmError> {
        let outcome = self.run_free_decode(request, tokens);
        self.reset();
        outcome
    }

    fn run_free_decode(
        &mut self,
        request: &TurnRequest,
        tokens: usize,
    ) -> Result<TurnStats, LlmError> {
        let started = Instant::now();
        if let Some(reason) = &self.conversation.broken {
            return Err(LlmError::Inference(reason.clone()));
        }
        let (tokens_appended, mut idx) = self.append_input(request, tokens)?;
        let mut turn = TurnStats {
            tokens_appended,
            prefill_time: started.elapsed(),
            ..TurnStats::default()
        };
        let generation_started = Instant::now();
        for n in 1..=tokens {
            let token = self.sampler.pick_text(&self.conversation.ctx, idx);
            turn.time_to_first_token
                .get_or_insert_with(|| started.elapsed());
            turn.sampled_tokens += 1;
            // Like a turn's last token, the last one is not evaluated.
            if n < tokens {
                idx = self.conversation.append(&[token])?;
            }
        }
        turn.generation_time = generation_started.elapsed();
        turn.context_tokens = self.conversation.n_past();
        turn.kv_cache_tokens = self.conversation.kv_tokens();
        Ok(turn)
    }

    /// Writes a call and sends it.
    fn write_call(
        &mut self,
        tools: &[ToolDeclaration],
        program: &Program,
        start: Start,
        quote: &str,
        events: &Events,
    ) -> Result<(End, decode::Generated), LlmError> {
        let format = self.shared.format.format();
        let limit = self.shared.options.max_call_tokens;
        let parse_special = self.shared.format == PromptFormat::FunctionGemma;
        // What a call copies from is the request: its tokens are the drafts.
        let drafts = if self.shared.options.copy_drafts {
            self.shared.tokenize_text(quote, false)
        } else {
            Vec::new()
        };
        let (end, generated) = decode::call(
            &mut self.conversation,
            &mut self.sampler,
            program,
            start,
            decode::Limits {
                tokens: limit,
                parse_special,
                drafts: &drafts,
            },
            events,
        )?;
        match end {
            End::Finished => {
                let text = String::from_utf8_lossy(&generated.bytes);
                let refs: Vec<&ToolDeclaration> = tools.iter().collect();
                let call =
                    format::parse_call(format, &text, &refs).map_err(LlmError::InvalidOutput)?;
                self.conversation.state.after_call = true;
                events.send(Ok(ChatEvent::Call(call)));
            }
            End::TokenLimit => return Err(LlmError::TurnTooLong { max_tokens: limit }),
            End::Cancelled => {}
        }
        Ok((end, generated))
    }

    /// Appends results without asking for a reply.
    pub(crate) fn record(&mut self, results: Vec<ResultMessage>) {
        if self.conversation.broken.is_some() {
            return;
        }
        let prompt = format::input(
            self.shared.format.format(),
            self.conversation.state,
            &TurnInput::Results(results),
            "",
            false,
        );
        self.append_unanswered(&prompt, State::default());
    }

    /// Appends a user message and the words that answered it without asking for a reply: the
    /// model's turn is left open after the words, as after a text turn it generated.
    pub(crate) fn record_exchange(&mut self, request: &str, answer: &str) {
        if self.conversation.broken.is_some() {
            return;
        }
        let mut prompt = format::input(
            self.shared.format.format(),
            self.conversation.state,
            &TurnInput::User(request.to_owned()),
            "",
            true,
        );
        prompt.text(answer);
        self.append_unanswered(
            &prompt,
            State {
                model_turn_open: true,
                after_call: false,
            },
        );
    }

    /// Evaluates `prompt` after what the last reply left pending, with no turn running, and
    /// leaves the conversation in state `after`. Nothing can be reported: a prompt that does
    /// not fit is dropped (the next turn then reports a full context), a failed evaluation
    /// breaks the session.
    fn append_unanswered(&mut self, prompt: &format::Prompt, after: State) {
        let mut tokens = self.conversation.pending.clone();
        tokens.extend(self.shared.tokenize(prompt));
        if self.conversation.admit(tokens.len(), 0).is_err() {
            return;
        }
        if self.conversation.append(&tokens).is_ok() {
            self.conversation.pending.clear();
            self.conversation.state = after;
        }
    }

    /// The model's reading of `texts` (see `reading.rs`); the vectors of the texts tool
    /// choice learns from (the configuration's `learning`) are kept on disk too.
    pub(crate) fn read_texts(
        &self,
        texts: &[String],
    ) -> Result<Option<Vec<std::sync::Arc<[f32]>>>, LlmError> {
        let declared: Vec<String> = if self.config.learning.is_empty() {
            self.config
                .examples
                .iter()
                .map(|example| example.request().to_owned())
                .collect()
        } else {
            self.config.learning.clone()
        };
        self.reader.read_texts(self.shared, texts, &declared)
    }

    /// Scores `text` under the `wanted` channels.
    pub(crate) fn score(
        &mut self,
        text: &str,
        wanted: &[usize],
    ) -> Result<Option<Vec<f32>>, LlmError> {
        if self.config.channels.is_empty() {
            return Ok(None);
        }
        let channels = match &mut self.channels {
            Some(channels) => channels,
            None => {
                let started = Instant::now();
                let (channels, source) = Channels::prepare(
                    self.shared,
                    &mut self.conversation.ctx,
                    usize::try_from(self.shared.options.batch_size.max(1)).unwrap_or(512),
                    &self.config.channels,
                    &self.config.example_lead,
                    1,
                    &self.shape,
                )?;
                let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
                stats.channels = self.config.channels.len();
                stats.channels_source = source;
                stats.channels_time = started.elapsed();
                drop(stats);
                self.channels.insert(channels)
            }
        };
        let started = Instant::now();
        let scores = channels.score(self.shared, &mut self.conversation.ctx, text, wanted)?;
        let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
        stats.last_score_time = Some(started.elapsed());
        stats.last_score_channels = wanted.len();
        Ok(Some(scores))
    }
}
