//! Choosing the next token: freely for text, within a [`Matcher`] for a call.
//!
//! For a call, [`Sampler::pick_call`] keeps the model's own choice wherever the call allows
//! one, at the lowest cost:
//! 1. the unconstrained pick (greedy, or the sampling chain, in C++) is tested against the
//!    matcher — most tokens of a value pass here;
//! 2. when it is refused, the [`CANDIDATE_WINDOW`] likeliest tokens (a partial sort in C++)
//!    are tested in order; for greedy decoding the first one accepted is exactly what a pass
//!    over the whole vocabulary would pick, since every token outside the window is less
//!    likely than every token inside it;
//! 3. only when none of those fits, the whole vocabulary is scanned — and then only tokens
//!    whose first byte the matcher admits are tested.
//!
//! Text that is *forced* never reaches the sampler: the decoder writes it in one batch (see
//! `decode.rs`). Control tokens other than end-of-generation are never picked inside a call,
//! so a call cannot smuggle a turn marker; FunctionGemma's markers are the exception where
//! the format uses them.

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;

use super::constrain::Matcher;
use super::shared::{TokenKind, TokenTable};
use crate::session::LlmError;

/// How many of the likeliest tokens the middle step tests.
pub(crate) const CANDIDATE_WINDOW: usize = 256;
/// With a temperature, the number of likeliest allowed tokens sampled from.
const TOP_K: usize = 40;

/// How often each path was taken, and how much of a call was forced.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SamplerCounters {
    /// Tokens accepted as first picked.
    pub fast_accepts: usize,
    /// Tokens picked from the candidate window.
    pub window_passes: usize,
    /// Tokens that needed the whole vocabulary.
    pub full_vocabulary_passes: usize,
    /// Forced runs written in one batch.
    pub forced_runs: usize,
    /// Tokens in those runs.
    pub forced_tokens: usize,
    /// Tokens of the request verified as drafts of a copy.
    pub draft_tokens: usize,
    /// Of those, the ones kept.
    pub draft_accepted: usize,
}

/// Picks tokens for one session.
pub(crate) struct Sampler {
    chain: LlamaSampler,
    window: LlamaSampler,
    temperature: f32,
    rng: u64,
    pub(crate) counters: SamplerCounters,
}

impl Sampler {
    /// Greedy when `temperature <= 0`, else top-k/temperature sampling seeded with `seed`.
    pub(crate) fn new(temperature: f32, seed: u32) -> Self {
        let chain = if temperature <= 0.0 {
            LlamaSampler::greedy()
        } else {
            LlamaSampler::chain_simple([
                LlamaSampler::top_k(i32::try_from(TOP_K).unwrap_or(i32::MAX)),
                LlamaSampler::temp(temperature),
                LlamaSampler::dist(seed),
            ])
        };
        Self {
            chain,
            window: LlamaSampler::top_k(i32::try_from(CANDIDATE_WINDOW).unwrap_or(i32::MAX)),
            temperature,
            rng: u64::from(seed) | 1,
            counters: SamplerCounters::default(),
        }
    }

    /// The next token of free text.
    pub(crate) fn pick_text(&mut self, ctx: &LlamaContext<'_>, idx: i32) -> LlamaToken {
        // The chain's samplers are stateless; `sample`'s implicit accept changes nothing but
        // the random generator's position.
        self.chain.sample(ctx, idx)
    }

    /// The next token of a call: the model's likeliest (or sampled) token among those the
    /// matcher accepts; see the module doc.
    pub(crate) fn pick_call(
        &mut self,
        ctx: &LlamaContext<'_>,
        idx: i32,
        tokens: &TokenTable,
        matcher: &Matcher<'_>,
    ) -> Result<LlamaToken, LlmError> {
        let fits = |token: LlamaToken| {
            matches!(tokens.kind(token), TokenKind::Text | TokenKind::Marker)
                && !tokens.piece(token).is_empty()
                && matcher.accepts(tokens.piece(token))
        };
        let first_bytes = matcher.first_bytes();
        self.pick_where(ctx, idx, tokens, &fits, &first_bytes)
    }

    /// The likeliest (or a sampled) token of text for which `fits` holds.
    pub(crate) fn pick_text_where(
        &mut self,
        ctx: &LlamaContext<'_>,
        idx: i32,
        tokens: &TokenTable,
        fits: &dyn Fn(LlamaToken) -> bool,
    ) -> Result<LlamaToken, LlmError> {
        self.pick_where(ctx, idx, tokens, fits, &[true; 256])
    }

    /// The three steps of the module doc, for any predicate; `first_bytes` narrows the full
    /// scan.
    fn pick_where(
        &mut self,
        ctx: &LlamaContext<'_>,
        idx: i32,
        tokens: &TokenTable,
        fits: &dyn Fn(LlamaToken) -> bool,
        first_bytes: &[bool; 256],
    ) -> Result<LlamaToken, LlmError> {
        let first = self.chain.sample(ctx, idx);
        if fits(first) {
            self.counters.fast_accepts += 1;
            return Ok(first);
        }
        let mut array = ctx.token_data_array_ith(idx);
        self.window.apply(&mut array);
        let mut allowed: Vec<(LlamaToken, f32)> = array
            .data
            .iter()
            .filter(|d| d.logit().is_finite() && fits(d.id()))
            .map(|d| (d.id(), d.logit()))
            .collect();
        if allowed.is_empty() {
            self.counters.full_vocabulary_passes += 1;
            let logits = ctx.get_logits_ith(idx);
            allowed = (0..tokens.len())
                .filter_map(|i| {
                    let token = LlamaToken(i32::try_from(i).ok()?);
                    let piece = tokens.piece(token);
                    let first = *piece.first()?;
                    (first_bytes[usize::from(first)] && fits(token))
                        .then(|| (token, logits.get(i).copied().unwrap_or(f32::NEG_INFINITY)))
                })
                .collect();
            allowed.sort_by(|a, b| b.1.total_cmp(&a.1));
            allowed.truncate(TOP_K);
        } else {
            self.counters.window_passes += 1;
        }
        if allowed.is_empty() {
            return Err(LlmError::Inference(
                "no token of the vocabulary fits the reply".to_owned(),
            ));
        }
        Ok(self.choose(&allowed))
    }

    /// The best of `allowed` (sorted by logit, best first), or a temperature sample.
    fn choose(&mut self, allowed: &[(LlamaToken, f32)]) -> LlamaToken {
        if self.temperature <= 0.0 || allowed.len() == 1 {
            return allowed[0].0;
        }
        let top = &allowed[..allowed.len().min(TOP_K)];
        let max = top[0].1;
        let weights: Vec<f32> = top
            .iter()
            .map(|(_, logit)| ((logit - max) / self.temperature).exp())
            .collect();
        let total: f32 = weights.iter().sum();
        let mut point = self.next_unit() * total;
        for ((token, _), weight) in top.iter().zip(weights) {
            if point < weight {
                return *token;
            }
            point -= weight;
        }
        top[0].0
    }

    /// A uniform sample in `[0, 1)` (xorshift64*).
    fn next_unit(&mut self) -> f32 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        let bits = self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40;
        bits as f32 / (1u64 << 24) as f32
    }
}
