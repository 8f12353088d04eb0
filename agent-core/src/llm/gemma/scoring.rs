//! Channel scoring for the tool-choice stage: how likely is the user's request after a short
//! text about each candidate tool (and one about plain conversation)?
//!
//! Each channel is a prefix of its own in the session's context, in a sequence of its own:
//!
//! ```text
//! <bos><start_of_turn>user
//! [습관 검색] 습관 카탈로그를 검색합니다.
//! 예: 아침 운동 습관 찾아줘
//! 예: 잠 잘 오는 습관 있어?
//! 예: ⟨the request is scored here⟩
//! ```
//!
//! The prefixes are evaluated once per model (and cached like the preamble, see `prefix.rs`)
//! without their last token. To score a request, that last token and the request's tokens are
//! appended to every channel asked for, in one batch, with logits at every position; the
//! score is the sum of the request tokens' log-probabilities. The appended positions are then
//! removed again, so each request is scored against the same prefixes.
//!
//! This is the "noisy channel" direction: a base model is bad at *naming* the right tool, but
//! good at predicting text, and a request is more predictable after examples of requests
//! like it. The cost is logits for every request token of every channel — the output layer
//! over a 262k vocabulary dominates it — so the chooser only asks for the channels its router
//! still considers.

use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::token::LlamaToken;

use super::conversation::pos;
use super::format::{Prompt, START_USER};
use super::prefix::{self, PrefixSource};
use super::shared::Shared;
use crate::choice::Channel;
use crate::session::LlmError;

/// Requests are scored on at most this many tokens.
const MAX_REQUEST_TOKENS: usize = 48;

/// One channel's prefix in the context.
struct ChannelSeq {
    seq: i32,
    /// Tokens the sequence holds (the prefix without its last token).
    len: usize,
    /// The prefix's last token, evaluated with each request.
    last: LlamaToken,
}

/// The channels of one session.
pub(crate) struct Channels {
    seqs: Vec<ChannelSeq>,
    batch: LlamaBatch<'static>,
}

/// The text of a channel, each example request after `lead`; see the module doc.
pub(crate) fn render(channel: &Channel, lead: &str) -> Prompt {
    let mut prompt = Prompt::default();
    prompt.control(START_USER);
    let description = super::format::one_line(&channel.description);
    if channel.title.is_empty() {
        prompt.text(&description);
    } else {
        prompt.text(&format!("[{}] {description}", channel.title));
    }
    prompt.text("\n");
    for example in &channel.examples {
        prompt
            .text(lead)
            .text(&super::format::one_line(example))
            .text("\n");
    }
    prompt.text(lead);
    prompt
}

impl Channels {
    /// Puts every channel's prefix (its examples after `lead`) into sequences
    /// `first_seq..`; returns the channels and where the slowest prefix came from.
    pub(crate) fn prepare(
        shared: &Shared,
        ctx: &mut LlamaContext<'_>,
        batch_size: usize,
        channels: &[Channel],
        lead: &str,
        first_seq: i32,
        shape: &str,
    ) -> Result<(Self, PrefixSource), LlmError> {
        let mut batch = LlamaBatch::new(batch_size.max(1), 1);
        let mut seqs = Vec::with_capacity(channels.len());
        let mut worst = PrefixSource::Memory;
        for (i, channel) in channels.iter().enumerate() {
            let seq = first_seq + i32::try_from(i).unwrap_or(i32::MAX - first_seq);
            let mut tokens = vec![shared.model.vocab().bos()];
            tokens.extend(shared.tokenize(&render(channel, lead)));
            let Some(last) = tokens.pop() else {
                continue;
            };
            let (source, _) = prefix::load(shared, ctx, &mut batch, seq, &tokens, shape)?;
            worst = match (worst, source) {
                (_, PrefixSource::Evaluated) | (PrefixSource::Evaluated, _) => {
                    PrefixSource::Evaluated
                }
                (_, PrefixSource::File) | (PrefixSource::File, _) => PrefixSource::File,
                _ => PrefixSource::Memory,
            };
            seqs.push(ChannelSeq {
                seq,
                len: tokens.len(),
                last,
            });
        }
        Ok((Self { seqs, batch }, worst))
    }

    /// The log-likelihood of `request` under each of `wanted` (channel indices), in order.
    pub(crate) fn score(
        &mut self,
        shared: &Shared,
        ctx: &mut LlamaContext<'_>,
        request: &str,
        wanted: &[usize],
    ) -> Result<Vec<f32>, LlmError> {
        let mut tokens = shared.tokenize_text(request.trim(), false);
        tokens.truncate(MAX_REQUEST_TOKENS);
        let mut scores = vec![0.0_f32; wanted.len()];
        if tokens.is_empty() {
            return Ok(scores);
        }
        let per_channel = tokens.len() + 1;
        let capacity = usize::try_from(ctx.n_batch().max(1))
            .unwrap_or(512)
            .max(per_channel);
        let group = (capacity / per_channel).max(1);
        let mut result = Ok(());
        for (chunk_index, chunk) in wanted.chunks(group).enumerate() {
            self.batch.clear();
            let mut placed: Vec<(usize, usize)> = Vec::new(); // (score slot, batch index of its first logits)
            for (offset, &channel) in chunk.iter().enumerate() {
                let Some(c) = self.seqs.get(channel) else {
                    continue;
                };
                let first = usize::try_from(self.batch.n_tokens()).unwrap_or(0);
                let inputs = std::iter::once(c.last).chain(tokens.iter().copied());
                for (i, token) in inputs.enumerate() {
                    // The last request token predicts nothing that is scored.
                    let logits = i < tokens.len();
                    self.batch
                        .add(token, pos(c.len + i)?, &[c.seq], logits)
                        .map_err(|e| LlmError::Inference(format!("batch: {e}")))?;
                }
                placed.push((chunk_index * group + offset, first));
            }
            if let Err(e) = ctx.decode(&mut self.batch) {
                result = Err(LlmError::Inference(format!("llama_decode: {e}")));
                break;
            }
            for (slot, first) in placed {
                let mut total = 0.0_f32;
                for (j, target) in tokens.iter().enumerate() {
                    let index = i32::try_from(first + j).unwrap_or(i32::MAX);
                    total += log_probability(ctx.get_logits_ith(index), *target);
                }
                scores[slot] = total;
            }
        }
        // Always restore the prefixes, whatever happened.
        for &channel in wanted {
            if let Some(c) = self.seqs.get(channel) {
                let _ = ctx.kv_cache_seq_rm(c.seq, u32::try_from(c.len).ok(), None);
            }
        }
        result.map(|()| scores)
    }
}

/// `log softmax(logits)[target]`.
fn log_probability(logits: &[f32], target: LlamaToken) -> f32 {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
    let chosen = usize::try_from(target.0)
        .ok()
        .and_then(|i| logits.get(i))
        .copied()
        .unwrap_or(f32::NEG_INFINITY);
    chosen - max - sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::Candidate;

    #[test]
    fn channels_end_where_the_request_is_scored() {
        let channel = Channel {
            candidate: Candidate::Tool("search".into()),
            title: "습관 검색".into(),
            description: "카탈로그를\n검색합니다.".into(),
            examples: vec!["운동 찾아줘".into()],
        };
        assert_eq!(
            render(&channel, "예: ").as_string(),
            "<start_of_turn>user\n[습관 검색] 카탈로그를 검색합니다.\n예: 운동 찾아줘\n예: "
        );
    }

    #[test]
    fn an_apps_words_are_what_the_model_reads() {
        let registry = crate::registry::Registry::builder()
            .build()
            .expect("registry");
        let english = crate::session::ChatConfig::new("hi", &registry)
            .with_messages(&crate::messages::Messages::english());
        let chat = english
            .channels
            .iter()
            .find(|c| c.candidate == Candidate::Chat)
            .expect("the chat channel");
        assert_eq!(
            render(chat, &english.example_lead).as_string(),
            "<start_of_turn>user\nConversation answered in words, without a tool: greetings, \
             thanks, small talk, general questions\nExample: "
        );
        let defaults = crate::session::ChatConfig::new("hi", &registry);
        let korean = render(&defaults.channels[0], &defaults.example_lead).as_string();
        assert!(
            korean.contains(&*crate::messages::Messages::default().chat_channel)
                && korean.ends_with("\n예: "),
            "without them, the default words: {korean}"
        );
    }

    #[test]
    fn log_probabilities_are_normalised() {
        let logits = [1.0_f32, 2.0, 3.0];
        let total: f32 = (0..3)
            .map(|i| log_probability(&logits, LlamaToken(i)).exp())
            .sum();
        assert!((total - 1.0).abs() < 1e-5, "{total}");
        assert_eq!(log_probability(&logits, LlamaToken(9)), f32::NEG_INFINITY);
    }
}
