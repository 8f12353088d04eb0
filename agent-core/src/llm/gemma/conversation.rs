//! One conversation's state in its llama.cpp context: the KV cache of sequence 0 (the
//! preamble, then the conversation), what of the rendered conversation is not yet evaluated,
//! and where the turns stand — with a single [`Conversation::reset`].
//!
//! KV-cache reuse: the conversation tracks `n_past`, the tokens sequence 0 holds, and
//! evaluates only what a new input appends at positions `n_past..`. The one token that is
//! sampled but not evaluated at the end of a call (the one that completed it) is kept in
//! `pending` and evaluated with the next input, so the cache always holds exactly the
//! rendered conversation. A new conversation removes everything after the preamble from the
//! cache: the preamble is never evaluated twice by one context.
//!
//! Other sequences (the tool-choice channels, see `scoring.rs`) live in the same context;
//! the KV cache is unified, so they share its cells with the conversation.

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::token::LlamaToken;

use super::format::State;
use super::shared::Shared;
use crate::session::LlmError;

/// The conversation's sequence.
pub(crate) const CONVERSATION: i32 = 0;

/// See the module doc.
pub(crate) struct Conversation<'m> {
    pub(crate) shared: &'m Shared,
    pub(crate) ctx: LlamaContext<'m>,
    batch: LlamaBatch<'static>,
    capacity: usize,
    /// Tokens of the preamble at the start of sequence 0.
    preamble_len: usize,
    /// Tokens sequence 0 holds.
    n_past: usize,
    /// Sampled tokens of the conversation not evaluated yet.
    pub(crate) pending: Vec<LlamaToken>,
    /// Where the turns stand.
    pub(crate) state: State,
    /// Why the context cannot be used until the next reset (a failed evaluation leaves the
    /// cache in an unknown state).
    pub(crate) broken: Option<String>,
}

impl<'m> Conversation<'m> {
    /// A conversation over `ctx` whose sequence 0 holds a preamble of `preamble_len` tokens.
    pub(crate) fn new(
        shared: &'m Shared,
        ctx: LlamaContext<'m>,
        batch_size: usize,
        preamble_len: usize,
    ) -> Self {
        let capacity = usize::try_from(ctx.n_ctx()).unwrap_or(usize::MAX);
        Self {
            shared,
            ctx,
            batch: LlamaBatch::new(batch_size.max(1), 1),
            capacity,
            preamble_len,
            n_past: preamble_len,
            pending: Vec::new(),
            state: State::default(),
            broken: None,
        }
    }

    /// Tokens of the conversation in sequence 0, preamble included.
    pub(crate) fn n_past(&self) -> usize {
        self.n_past
    }

    /// Positions llama.cpp's KV cache holds for sequence 0 (its own count).
    pub(crate) fn kv_tokens(&self) -> usize {
        usize::try_from(
            self.ctx
                .kv_cache_seq_pos_max(CONVERSATION)
                .saturating_add(1),
        )
        .unwrap_or(0)
    }

    /// Forgets the conversation, keeping the preamble. The one place conversation state is
    /// reset.
    pub(crate) fn reset(&mut self) {
        let kept = u32::try_from(self.preamble_len).ok();
        if self.ctx.kv_cache_seq_rm(CONVERSATION, kept, None).is_err() {
            // Partial removal refused: the cache is unusable for this conversation.
            self.broken =
                Some("the KV cache could not be truncated; start a new session".to_owned());
            return;
        }
        self.n_past = self.preamble_len;
        self.pending.clear();
        self.state = State::default();
        self.broken = None;
    }

    /// Checks that `appended` more tokens and `reserve` for the reply fit.
    pub(crate) fn admit(&self, appended: usize, reserve: usize) -> Result<(), LlmError> {
        if self.n_past + appended + reserve <= self.capacity {
            return Ok(());
        }
        if self.preamble_len + appended + reserve > self.capacity {
            Err(LlmError::PromptTooLong {
                tokens: appended,
                capacity: self.capacity.saturating_sub(self.preamble_len),
            })
        } else {
            Err(LlmError::ContextFull {
                capacity: self.capacity,
            })
        }
    }

    /// Evaluates `tokens` at positions `n_past..` of sequence 0; returns the batch index of
    /// the last token's logits. A failure breaks the conversation until [`reset`](Self::reset).
    pub(crate) fn append(&mut self, tokens: &[LlamaToken]) -> Result<i32, LlmError> {
        if self.n_past + tokens.len() > self.capacity {
            return Err(LlmError::ContextFull {
                capacity: self.capacity,
            });
        }
        self.evaluate_next(tokens, Logits::Last)
    }

    /// Evaluates `tokens` (at most one batch) with logits for every position; returns the
    /// batch index of the first one's. A failure breaks the conversation as in
    /// [`append`](Self::append).
    pub(crate) fn append_with_all_logits(
        &mut self,
        tokens: &[LlamaToken],
    ) -> Result<i32, LlmError> {
        let fits = usize::try_from(self.ctx.n_batch()).is_ok_and(|n| tokens.len() <= n);
        if !fits || tokens.is_empty() || self.n_past + tokens.len() > self.capacity {
            return Err(LlmError::Inference(
                "draft does not fit one batch".to_owned(),
            ));
        }
        // One batch: its rows are the tokens, from 0.
        self.evaluate_next(tokens, Logits::All).map(|_| 0)
    }

    /// Evaluates `tokens` after the conversation; a failure breaks it.
    fn evaluate_next(&mut self, tokens: &[LlamaToken], logits: Logits) -> Result<i32, LlmError> {
        let start = self.n_past;
        match evaluate(
            &mut self.ctx,
            &mut self.batch,
            CONVERSATION,
            start,
            tokens,
            logits,
        ) {
            Ok(index) => {
                self.n_past += tokens.len();
                Ok(index)
            }
            Err(error) => {
                self.broken = Some(format!(
                    "evaluation failed earlier ({error}); start a new conversation"
                ));
                Err(error)
            }
        }
    }

    /// Forgets positions `from..` of the conversation (drafts that were not kept).
    pub(crate) fn remove_from(&mut self, from: usize) -> Result<(), LlmError> {
        let start = u32::try_from(from).ok();
        if from < self.preamble_len || self.ctx.kv_cache_seq_rm(CONVERSATION, start, None).is_err()
        {
            self.broken =
                Some("the KV cache could not be truncated; start a new conversation".to_owned());
            return Err(LlmError::Inference(
                "KV cache truncation refused".to_owned(),
            ));
        }
        self.n_past = from;
        Ok(())
    }
}

/// Which positions of an evaluation get logits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Logits {
    /// The last token's only.
    Last,
    /// Every token's (verifying drafts).
    All,
}

/// Evaluates `tokens` into `seq` at positions `start..`, in chunks of the context's batch
/// size, with logits for the last token (or, with [`Logits::All`], every token); returns the
/// last token's batch index.
pub(crate) fn evaluate(
    ctx: &mut LlamaContext<'_>,
    batch: &mut LlamaBatch<'_>,
    seq: i32,
    start: usize,
    tokens: &[LlamaToken],
    logits: Logits,
) -> Result<i32, LlmError> {
    // llama.cpp may lower the batch size it was asked for (never above the context).
    let chunk_size = usize::try_from(ctx.n_batch().max(1)).unwrap_or(512);
    let chunks = tokens.chunks(chunk_size);
    let count = chunks.len();
    let mut last_index = None;
    let mut position = start;
    for (n, chunk) in chunks.enumerate() {
        batch.clear();
        for (i, &token) in chunk.iter().enumerate() {
            let wants_logits = logits == Logits::All || (n + 1 == count && i + 1 == chunk.len());
            batch
                .add(token, pos(position + i)?, &[seq], wants_logits)
                .map_err(|e| LlmError::Inference(format!("batch: {e}")))?;
        }
        ctx.decode(batch)
            .map_err(|e| LlmError::Inference(format!("llama_decode: {e}")))?;
        position += chunk.len();
        last_index = Some(i32::try_from(chunk.len() - 1).unwrap_or(0));
    }
    last_index.ok_or_else(|| LlmError::Inference("nothing to evaluate".to_owned()))
}

/// A position as llama.cpp wants it.
pub(crate) fn pos(index: usize) -> Result<i32, LlmError> {
    i32::try_from(index).map_err(|_| LlmError::Inference("position out of range".to_owned()))
}
