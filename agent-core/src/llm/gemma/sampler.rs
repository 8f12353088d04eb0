//! Token sampling, with the grammar checked the cheap way.
//!
//! Applying a grammar sampler to the whole vocabulary means matching 262 144 token pieces
//! against the grammar stacks at every step (about 50 ms here), which cuts Gemma's
//! generation speed about four times. Like llama.cpp's common sampler,
//! [`TokenSampler::sample`] therefore
//! 1. samples from the unconstrained distribution (top-k, temperature, dist; all in C++),
//! 2. tests that one token against the grammar with a one-element candidate array,
//! 3. and only when the grammar rejects it, filters more. llama.cpp goes straight to the
//!    whole vocabulary; here a middle step first applies the grammar to the
//!    [`CANDIDATE_WINDOW`] most likely tokens only. That gives the same token as the full pass
//!    whenever enough of them survive: greedy picks the most likely allowed token, and any
//!    allowed token outside the window is less likely than every token inside it; with
//!    sampling, the chain keeps the [`TOP_K`] most likely tokens, so [`TOP_K`] survivors are
//!    needed. Otherwise the whole vocabulary is filtered. On a rejected first pick this
//!    turns a 50 ms pass into a fraction of a millisecond in most cases.
//!
//! Two llama.cpp aborts (not panics; nothing can catch them) shape this file:
//! - accepting a token into a grammar that does not allow it, or accepting one twice, leaves
//!   the grammar with no stacks, and the next `apply` hits `GGML_ASSERT(!stacks.empty())`;
//! - accepting an end-of-generation token while the grammar is incomplete hits `GGML_ABORT`.
//!
//! So the grammar sampler is kept *out* of the sampling chain (`LlamaSampler::sample` on a
//! chain accepts into every member), a token is accepted only after the grammar allowed it,
//! exactly once, in one place ([`TokenSampler::accept_checked`]), end-of-generation tokens are
//! never accepted, and after any accept failure the grammar is dropped for good.

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use llama_cpp_2::token::data::LlamaTokenData;
use llama_cpp_2::token::data_array::LlamaTokenDataArray;

use crate::llm::LlmError;

/// How a grammar is enforced; the fast path is the default and the only sensible choice
/// outside benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum ConstrainedSampling {
    /// Test the unconstrained pick first; when it is rejected, filter the most likely
    /// tokens, and the whole vocabulary only when too few of those survive.
    #[default]
    CheckFirst,
    /// Filter the whole vocabulary at every step (what a grammar in the chain would do).
    FullVocabulary,
}

/// How often each path was taken, to show the fast path works.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SamplerCounters {
    /// Tokens the grammar accepted as first picked.
    pub fast_accepts: usize,
    /// Tokens picked after filtering only the most likely candidates.
    pub window_passes: usize,
    /// Tokens that needed the full-vocabulary pass.
    pub full_vocabulary_passes: usize,
}

/// How many of the most likely tokens the middle step filters.
pub(crate) const CANDIDATE_WINDOW: usize = 256;

/// The sampling chain's top-k when `temperature > 0`.
pub(crate) const TOP_K: usize = 40;

/// Samples tokens for one session; see the module doc.
pub(crate) struct TokenSampler {
    chain: LlamaSampler,
    /// Cuts a candidate array to [`CANDIDATE_WINDOW`] (a partial sort in C++).
    window: LlamaSampler,
    /// Survivors of the window the chain needs to pick what the full pass would.
    needed: usize,
    grammar: Option<Grammar>,
    /// Control tokens that may never appear inside a constrained reply (turn markers,
    /// `<unusedN>`, image tokens). The grammar would admit some of them inside a JSON string
    /// because it sees their text, while detokenizing drops them.
    banned: Vec<LlamaToken>,
    mode: ConstrainedSampling,
    counters: SamplerCounters,
}

struct Grammar {
    sampler: LlamaSampler,
    /// Set once an accept failed: the grammar's state is unusable.
    poisoned: bool,
}

/// What sampling one step produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sampled {
    /// A token to emit and evaluate.
    Token(LlamaToken),
    /// An end-of-generation token (never accepted into the grammar).
    EndOfGeneration(LlamaToken),
}

impl TokenSampler {
    /// A sampler with `temperature` (0 = greedy) and an optional grammar (root rule `root`);
    /// `banned` is [`banned_tokens`] of the model, used only under a grammar.
    pub(crate) fn new(
        model: &LlamaModel,
        grammar: Option<&str>,
        temperature: f32,
        seed: u32,
        mode: ConstrainedSampling,
        banned: &[LlamaToken],
    ) -> Result<Self, LlmError> {
        let greedy = temperature <= 0.0;
        let chain = if greedy {
            LlamaSampler::greedy()
        } else {
            LlamaSampler::chain_simple([
                LlamaSampler::top_k(i32::try_from(TOP_K).unwrap_or(i32::MAX)),
                LlamaSampler::top_p(0.95, 1),
                LlamaSampler::temp(temperature),
                LlamaSampler::dist(seed),
            ])
        };
        let grammar = match grammar {
            Some(text) => Some(Grammar {
                sampler: LlamaSampler::grammar(model, text, "root").map_err(|e| {
                    LlmError::Grammar(format!("llama.cpp rejected the grammar: {e}"))
                })?,
                poisoned: false,
            }),
            None => None,
        };
        let banned = if grammar.is_some() {
            banned.to_vec()
        } else {
            Vec::new()
        };
        Ok(Self {
            chain,
            window: LlamaSampler::top_k(i32::try_from(CANDIDATE_WINDOW).unwrap_or(i32::MAX)),
            needed: if greedy { 1 } else { TOP_K },
            grammar,
            banned,
            mode,
            counters: SamplerCounters::default(),
        })
    }

    /// Whether a grammar constrains the output.
    pub(crate) fn is_constrained(&self) -> bool {
        self.grammar.is_some()
    }

    /// Starts a new model turn: the grammar starts over, the counters too.
    pub(crate) fn reset(&mut self) {
        if let Some(grammar) = &mut self.grammar {
            grammar.sampler.reset();
            grammar.poisoned = false;
        }
        self.chain.reset();
        self.counters = SamplerCounters::default();
    }

    /// Feeds the grammar a token the prompt already holds (the reply's forced opening),
    /// checked like a sampled one.
    pub(crate) fn accept_forced(
        &mut self,
        model: &LlamaModel,
        token: LlamaToken,
    ) -> Result<(), LlmError> {
        let Some(grammar) = &mut self.grammar else {
            return Ok(());
        };
        if !allows(&mut grammar.sampler, token) {
            return Err(LlmError::Grammar(
                "the grammar rejects the reply's opening".into(),
            ));
        }
        self.accept_checked(model, token).map(|_| ())
    }

    /// The counters since the last [`reset`](Self::reset).
    pub(crate) fn counters(&self) -> SamplerCounters {
        self.counters
    }

    /// Samples the next token from the logits at batch index `idx`.
    pub(crate) fn sample(
        &mut self,
        model: &LlamaModel,
        ctx: &LlamaContext<'_>,
        idx: i32,
    ) -> Result<Sampled, LlmError> {
        let Some(grammar) = &mut self.grammar else {
            let token = self.chain.sample(ctx, idx);
            return Ok(classify(model, token));
        };
        if grammar.poisoned {
            return Err(LlmError::Inference(
                "the grammar state is unusable after a failed accept".into(),
            ));
        }
        if self.mode == ConstrainedSampling::CheckFirst {
            // `sample` on a chain of stateless samplers (top-k, top-p, temp, dist, greedy):
            // its implicit accept changes nothing but the RNG position.
            let token = self.chain.sample(ctx, idx);
            let banned = self.banned.binary_search(&token).is_ok();
            if !banned && allows(&mut grammar.sampler, token) {
                self.counters.fast_accepts += 1;
                return self.accept_checked(model, token);
            }
        }
        let token = self.sample_filtered(ctx, idx)?;
        self.accept_checked(model, token)
    }

    /// The slow paths: the grammar over the likeliest candidates, or over all of them, then
    /// the chain over what is left.
    fn sample_filtered(
        &mut self,
        ctx: &LlamaContext<'_>,
        idx: i32,
    ) -> Result<LlamaToken, LlmError> {
        if self.grammar.is_none() {
            return Err(LlmError::Inference("no grammar to filter with".into()));
        }
        if self.mode == ConstrainedSampling::CheckFirst {
            let mut array = self.fill(ctx, idx);
            self.window.apply(&mut array);
            if let Some(grammar) = &mut self.grammar {
                grammar.sampler.apply(&mut array);
            }
            let survivors = array.data.iter().filter(|d| d.logit().is_finite()).count();
            if survivors >= self.needed {
                self.counters.window_passes += 1;
                return self.pick(array);
            }
        }
        self.counters.full_vocabulary_passes += 1;
        let mut array = self.fill(ctx, idx);
        if let Some(grammar) = &mut self.grammar {
            grammar.sampler.apply(&mut array);
        }
        self.pick(array)
    }

    /// Every token with its logit at batch index `idx`, banned ones at −∞.
    fn fill(&self, ctx: &LlamaContext<'_>, idx: i32) -> LlamaTokenDataArray {
        // Built by llama-cpp-2, which the workspace compiles optimised even in dev and test
        // builds: the same 262k-entry loop written here runs about 15 times slower (9 ms)
        // in agent-core's unoptimised test build.
        let mut array = ctx.token_data_array_ith(idx);
        for token in &self.banned {
            if let Some(candidate) = usize::try_from(token.0)
                .ok()
                .and_then(|i| array.data.get_mut(i))
            {
                candidate.set_logit(f32::NEG_INFINITY);
            }
        }
        array
    }

    /// Runs the chain over filtered candidates.
    fn pick(&mut self, mut array: LlamaTokenDataArray) -> Result<LlamaToken, LlmError> {
        self.chain.apply(&mut array);
        match array.selected.and_then(|i| array.data.get(i)) {
            Some(data) if data.logit().is_finite() => Ok(data.id()),
            _ => Err(LlmError::Inference(
                "the grammar admits no token at this point".into(),
            )),
        }
    }

    /// The one place a token enters the grammar: only after `allows`/the full pass said yes,
    /// once, and never an end-of-generation token.
    fn accept_checked(
        &mut self,
        model: &LlamaModel,
        token: LlamaToken,
    ) -> Result<Sampled, LlmError> {
        let sampled = classify(model, token);
        if let (Sampled::Token(token), Some(grammar)) = (sampled, &mut self.grammar)
            && let Err(e) = grammar.sampler.try_accept(token)
        {
            grammar.poisoned = true;
            return Err(LlmError::Inference(format!(
                "the grammar failed to accept a token: {e}"
            )));
        }
        Ok(sampled)
    }
}

/// Whether the grammar, in its current state, admits `token` (the state is not changed).
fn allows(grammar: &mut LlamaSampler, token: LlamaToken) -> bool {
    let mut single = LlamaTokenDataArray::new(vec![LlamaTokenData::new(token, 1.0, 0.0)], false);
    grammar.apply(&mut single);
    single
        .data
        .first()
        .is_some_and(|data| data.logit().is_finite())
}

fn classify(model: &LlamaModel, token: LlamaToken) -> Sampled {
    if model.vocab().is_eog(token) {
        Sampled::EndOfGeneration(token)
    } else {
        Sampled::Token(token)
    }
}

/// Control tokens other than end-of-generation ones, sorted for binary search. A pass over
/// the whole vocabulary, so the model computes it once ([`Shared::banned_tokens`]).
///
/// [`Shared::banned_tokens`]: super::model::Shared::banned_tokens
pub(crate) fn banned_tokens(model: &LlamaModel) -> Vec<LlamaToken> {
    let vocab = model.vocab();
    let mut banned: Vec<LlamaToken> = vocab
        .tokens()
        .filter(|&t| vocab.is_control(t) && !vocab.is_eog(t))
        .collect();
    banned.sort_unstable();
    banned
}
