//! The generation loops: a call under its constraint, with forced text written in batches,
//! and free text.
//!
//! **Jump-forward.** Most of a call is forced once the tool is known — its frame, every key
//! of a required argument, quotes, commas, the rest of an id once its prefix is unique.
//! Before every sampling step the decoder asks the matcher what is forced from here; if
//! anything is, it tokenizes that text and evaluates it in one batch (a batch of a few tokens
//! costs about as much as one), so the model spends a sampling step only where it really
//! chooses. A sampled token is evaluated in the same batch as the forced run that follows
//! it, so a run costs no decode of its own. The last token of a run is left to the model, though (token healing): forced
//! text tokenized on its own ends with a token the model may never have seen there — `{`
//! where its examples had `{"` — and a model shown an unfamiliar boundary continues badly.
//! The model writes that token itself, within the call's constraint, merged with what follows
//! if it likes. A run that ends the call is written in full.
//!
//! **Copies verified in one batch.** Where the model does choose, it often copies the
//! request — a habit's wording, a search word — token by token. When the two tokens just
//! written also occur in the request, the tokens that follow them there are a *draft*: the
//! ones the call's constraint admits are evaluated in one batch with logits for every
//! position, and each is kept while it is the very token the sampler picks from the position
//! before it (prompt-lookup decoding). The first that is not is replaced by the sampler's own
//! pick, and the positions of the rest are removed from the KV cache. So every token written
//! is the sampler's pick at its position, as one step at a time — up to rounding: llama.cpp's
//! batched evaluation is not bit-identical to single steps (nor is a forced run's), so a
//! near-tie between two tokens may fall the other way.
//!
//! Every step checks whether the turn's event stream was dropped: a cancelled turn stops
//! within one token, including in the middle of a call, when nothing has been sent yet.

use std::time::{Duration, Instant};

use llama_cpp_2::token::LlamaToken;

use super::constrain::{Matcher, Program};
use super::conversation::Conversation;
use super::message::EventSender;
use super::sampler::Sampler;
use super::shared::TokenKind;
use super::utf8::Utf8Buffer;
use crate::session::{ChatEvent, LlmError};

/// Longest forced run evaluated at once, in bytes.
const MAX_FORCED: usize = 256;
/// Most draft tokens verified in one batch.
const MAX_DRAFT: usize = 4;
/// Tokens before a call's limit at which it starts to close what it has opened (see
/// [`closing_token`]): a call the constraint admits can be longer than the limit — every
/// optional text parameter may copy most of the request — and one cut off there is no call
/// at all, where a shorter one is a call the person can still confirm or refuse.
const WIND_DOWN: usize = 24;
/// What closes a string, a call, a list or an object, in the order a call that must end
/// soon prefers them: the call's end first, so no new parameter is begun.
const CLOSERS: [char; 4] = [')', ']', '}', '"'];

/// What bounds and feeds one call.
pub(crate) struct Limits<'a> {
    /// Most tokens the call may take.
    pub(crate) tokens: usize,
    /// Whether forced text is tokenized with special tokens parsed.
    pub(crate) parse_special: bool,
    /// Tokens the call is likely to copy (the request's), for drafts.
    pub(crate) drafts: &'a [LlamaToken],
}

/// A turn's event sender, checked for a dropped receiver at every token.
pub(crate) struct Events {
    sender: EventSender,
}

impl Events {
    pub(crate) fn new(sender: EventSender) -> Self {
        Self { sender }
    }

    /// Whether the consumer has gone: the turn should stop.
    pub(crate) fn closed(&self) -> bool {
        self.sender.is_closed()
    }

    /// Sends an event; a consumer that left makes this a no-op.
    pub(crate) fn send(&self, event: Result<ChatEvent, LlmError>) {
        let _ = self.sender.blocking_send(event);
    }

    /// Sends a text delta, if there is any text.
    pub(crate) fn text(&self, text: String) {
        if !text.is_empty() {
            self.send(Ok(ChatEvent::TextDelta(text)));
        }
    }
}

/// Sentences an answer may have.
const MAX_SENTENCES: usize = 2;

/// Characters whose repetition ends an answer.
const REPEAT_CHARS: usize = 8;

/// Whether the answer so far ends a sentence and has said enough — its second sentence, or a
/// sentence it already said — or has started to repeat itself (its last few characters occur
/// earlier in it): a small model that repeats itself repeats forever.
fn enough_said(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    let chars: Vec<char> = text.chars().collect();
    if chars.len() >= 3 * REPEAT_CHARS {
        let tail: String = chars[chars.len() - REPEAT_CHARS..].iter().collect();
        let before: String = chars[..chars.len() - REPEAT_CHARS].iter().collect();
        if tail.chars().any(char::is_alphanumeric) && before.contains(&tail) {
            return true;
        }
    }
    let trimmed = text.trim_end();
    if !trimmed.ends_with(['.', '!', '?', '。']) {
        return false;
    }
    let sentences: Vec<&str> = trimmed
        .split_inclusive(['.', '!', '?', '。'])
        .map(str::trim)
        .filter(|s| s.chars().any(char::is_alphanumeric))
        .collect();
    let repeated = sentences
        .split_last()
        .is_some_and(|(last, before)| before.contains(last));
    sentences.len() >= MAX_SENTENCES || repeated
}

/// Whether a piece, after any leading spaces, starts with a letter or a digit (or is the
/// start of a multi-byte character, which cannot be judged yet and is almost always one).
fn starts_with_words(piece: &[u8]) -> bool {
    let trimmed = piece.iter().skip_while(|b| **b == b' ');
    match trimmed.clone().next() {
        Some(b) if *b >= 0x80 => {
            let bytes: Vec<u8> = trimmed.copied().collect();
            match std::str::from_utf8(&bytes) {
                Ok(text) => text.chars().next().is_some_and(char::is_alphanumeric),
                // A character split across tokens: Hangul and most letters are multi-byte.
                Err(_) => true,
            }
        }
        Some(b) => b.is_ascii_alphanumeric(),
        None => false,
    }
}

/// How generation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// The reply is complete.
    Finished,
    /// The token limit was reached first.
    TokenLimit,
    /// The event stream was dropped.
    Cancelled,
}

/// What a generation loop produced.
#[derive(Debug, Default)]
pub(crate) struct Generated {
    /// The reply's bytes (a call's text; text replies are streamed as they come).
    pub(crate) bytes: Vec<u8>,
    /// Tokens sampled.
    pub(crate) sampled: usize,
    /// Tokens written as forced runs.
    pub(crate) forced: usize,
    /// From the turn's start to the first token of the reply.
    pub(crate) first_token: Option<Duration>,
}

/// Where a generation loop starts.
pub(crate) struct Start {
    /// Batch index of the logits to sample from.
    pub(crate) idx: i32,
    /// A token already picked from those logits (auto mode's deciding token).
    pub(crate) first: Option<LlamaToken>,
    /// When the turn started, for the time to the first token.
    pub(crate) turn_started: Instant,
}

/// Writes a call constrained by `program`. When the call completes with a sampled token, that
/// token is left in `conversation.pending`.
pub(crate) fn call(
    conversation: &mut Conversation<'_>,
    sampler: &mut Sampler,
    program: &Program,
    start: Start,
    limits: Limits<'_>,
    events: &Events,
) -> Result<(End, Generated), LlmError> {
    let Limits {
        tokens: limit,
        parse_special,
        drafts,
    } = limits;
    let table = conversation.shared.tokens();
    let mut matcher = program.start();
    let mut out = Generated::default();
    let started = start.turn_started;
    let mut idx = start.idx;
    let mut next = start.first;
    // A sampled token not evaluated yet: it goes into one batch with the forced run after it,
    // if there is one, which saves a decode per run.
    let mut carry: Option<LlamaToken> = None;
    // The token written before the carried one, for finding where a copy is in the request.
    let mut previous: Option<LlamaToken> = None;
    loop {
        if events.closed() {
            flush(conversation, &mut carry)?;
            return Ok((End::Cancelled, out));
        }
        let forced = if next.is_some() {
            String::new()
        } else {
            matcher.forced(MAX_FORCED)
        };
        if !forced.is_empty() {
            let mut tokens = conversation.shared.tokenize_text(&forced, parse_special);
            let ends_the_call = {
                let mut probe = matcher.clone();
                probe.feed(forced.as_bytes()) && probe.is_complete() && !probe.can_continue()
            };
            // Token healing: the run's last token is left to the model (within the call),
            // which may write it merged with what follows (`{"` rather than `{` then `"`), as
            // in the prompt's own examples; a run that ends the call is written in full.
            if !ends_the_call {
                tokens.pop();
            }
            let text: Vec<u8> = tokens
                .iter()
                .flat_map(|&t| table.piece(t).iter().copied())
                .collect();
            let is_prefix = forced.as_bytes().starts_with(&text);
            if !tokens.is_empty() && is_prefix && matcher.feed(&text) {
                out.first_token.get_or_insert_with(|| started.elapsed());
                out.bytes.extend_from_slice(&text);
                out.forced += tokens.len();
                sampler.counters.forced_runs += 1;
                sampler.counters.forced_tokens += tokens.len();
                previous = tokens.last().copied();
                let batch: Vec<LlamaToken> = carry.take().into_iter().chain(tokens).collect();
                if matcher.is_complete() && !matcher.can_continue() {
                    // The last token is evaluated with the next input, like a sampled one.
                    if let Some((last, rest)) = batch.split_last() {
                        if !rest.is_empty() {
                            conversation.append(rest)?;
                        }
                        conversation.pending.push(*last);
                    }
                    return Ok((End::Finished, out));
                }
                idx = conversation.append(&batch)?;
            }
        }
        let winding_down = out.sampled + out.forced + WIND_DOWN >= limit;
        if let Some(token) = carry.take() {
            // A call that must end soon copies no more than one token at a time.
            let room = if winding_down {
                0
            } else {
                limit.saturating_sub(out.sampled + out.forced + 1)
            };
            let draft = draft_after(
                [previous, Some(token)],
                drafts,
                &matcher,
                table,
                room.min(MAX_DRAFT),
            );
            if draft.is_empty() {
                idx = conversation.append(&[token])?;
                previous = Some(token);
            } else {
                let picked = verify(conversation, sampler, table, &mut matcher, token, &draft)?;
                sampler.counters.draft_tokens += draft.len();
                sampler.counters.draft_accepted += picked.accepted.len();
                previous = picked.accepted.last().copied().or(Some(token));
                for &kept in &picked.accepted {
                    out.bytes.extend_from_slice(table.piece(kept));
                    out.sampled += 1;
                }
                if matcher.is_complete() && !matcher.can_continue() {
                    // Only possible when the whole draft was kept and ended the call: the
                    // sampler's next pick would be end-of-call text nobody needs.
                    conversation.remove_from(conversation.n_past() - 1)?;
                    if let Some(&last) = picked.accepted.last() {
                        conversation.pending.push(last);
                    }
                    return Ok((End::Finished, out));
                }
                next = Some(picked.next);
            }
        }
        if out.sampled + out.forced >= limit {
            return Ok((End::TokenLimit, out));
        }
        let closing = if winding_down && next.is_none() {
            closing_token(conversation, &matcher, parse_special)
        } else {
            None
        };
        let token = match next.take().or(closing) {
            Some(token) => token,
            None => sampler.pick_call(&conversation.ctx, idx, table, &matcher)?,
        };
        out.first_token.get_or_insert_with(|| started.elapsed());
        let piece = table.piece(token);
        if !matcher.feed(piece) {
            // `pick_call` only returns tokens the matcher accepts.
            return Err(LlmError::Inference(
                "the sampled token left the call's syntax".to_owned(),
            ));
        }
        out.bytes.extend_from_slice(piece);
        out.sampled += 1;
        if super::trace::tracing_prompts() {
            eprintln!(
                "    sampled {:?} after {:?}",
                String::from_utf8_lossy(piece),
                String::from_utf8_lossy(&out.bytes[..out.bytes.len() - piece.len()])
            );
        }
        if matcher.is_complete() && !matcher.can_continue() {
            conversation.pending.push(token);
            return Ok((End::Finished, out));
        }
        carry = Some(token);
    }
}

/// The token of the first of [`CLOSERS`] the constraint admits next, if one does and it is
/// a token of its own: what a call near its limit writes instead of the model's pick, so it
/// ends its string and then itself rather than being cut off (a string with a least length
/// still gets it first, from the model).
fn closing_token(
    conversation: &Conversation<'_>,
    matcher: &Matcher<'_>,
    parse_special: bool,
) -> Option<LlamaToken> {
    let allowed = matcher.first_bytes();
    let table = conversation.shared.tokens();
    CLOSERS
        .iter()
        .filter(|&&c| allowed[c as usize])
        .find_map(|c| {
            match conversation
                .shared
                .tokenize_text(&c.to_string(), parse_special)[..]
            {
                [token] if matcher.accepts(table.piece(token)) => Some(token),
                _ => None,
            }
        })
}

/// The request's tokens after the last place the two tokens just written occur in it, in
/// that order, as far as the call's constraint admits them (at most `max`); empty when they
/// do not occur there. Two, not one: a single token (a digit, a quote) is found in most
/// requests without the call copying anything, and a draft nobody keeps costs a batch.
fn draft_after(
    last_two: [Option<LlamaToken>; 2],
    drafts: &[LlamaToken],
    matcher: &Matcher<'_>,
    table: &super::shared::TokenTable,
    max: usize,
) -> Vec<LlamaToken> {
    let [Some(before), Some(token)] = last_two else {
        return Vec::new();
    };
    let Some(at) = drafts
        .windows(2)
        .rposition(|pair| pair[0] == before && pair[1] == token)
        .map(|i| i + 1)
    else {
        return Vec::new();
    };
    let mut probe = matcher.clone();
    let mut draft = Vec::new();
    for &next in drafts.iter().skip(at + 1).take(max) {
        let piece = table.piece(next);
        if piece.is_empty() || !probe.feed(piece) {
            break;
        }
        draft.push(next);
        if probe.is_complete() && !probe.can_continue() {
            break;
        }
    }
    draft
}

/// What a verified draft gave.
struct Verified {
    /// The draft's tokens kept, in order (fed to the matcher, evaluated, in the KV cache).
    accepted: Vec<LlamaToken>,
    /// The sampler's pick after them, not evaluated yet.
    next: LlamaToken,
}

/// Evaluates `token` and `draft` in one batch with every position's logits, keeps the draft
/// while each of its tokens is the sampler's pick from the position before it, and removes
/// the rest from the KV cache. `matcher` ends after the kept tokens.
fn verify(
    conversation: &mut Conversation<'_>,
    sampler: &mut Sampler,
    table: &super::shared::TokenTable,
    matcher: &mut Matcher<'_>,
    token: LlamaToken,
    draft: &[LlamaToken],
) -> Result<Verified, LlmError> {
    let batch: Vec<LlamaToken> = std::iter::once(token)
        .chain(draft.iter().copied())
        .collect();
    let first_row = conversation.append_with_all_logits(&batch)?;
    let mut accepted = Vec::new();
    let mut row = first_row;
    let next = loop {
        let pick = sampler.pick_call(&conversation.ctx, row, table, matcher)?;
        match draft.get(accepted.len()) {
            Some(&drafted) if drafted == pick => {
                if !matcher.feed(table.piece(pick)) {
                    return Err(LlmError::Inference(
                        "a verified draft token left the call's syntax".to_owned(),
                    ));
                }
                accepted.push(pick);
                if matcher.is_complete() && !matcher.can_continue() {
                    break pick;
                }
                row += 1;
            }
            _ => break pick,
        }
    };
    // Positions after the kept tokens hold drafts that were not kept.
    let kept_end = conversation.n_past() - (draft.len() - accepted.len());
    if kept_end < conversation.n_past() {
        conversation.remove_from(kept_end)?;
    }
    Ok(Verified { accepted, next })
}

/// Evaluates a carried sampled token, if there is one.
fn flush(
    conversation: &mut Conversation<'_>,
    carry: &mut Option<LlamaToken>,
) -> Result<(), LlmError> {
    if let Some(token) = carry.take() {
        conversation.append(&[token])?;
    }
    Ok(())
}

/// Writes free text, streaming it, until an end-of-turn token, a control token (the model
/// starting a turn of its own), the end of its first line or second sentence, or `limit`
/// tokens.
///
/// The answer must start with a letter or a digit: a base model that has just seen calls
/// tends to write another one — JSON, brackets, markup — when it is asked for words, and
/// an answer that starts as words stays words. A line break or a second sentence ends the
/// answer: the answers an assistant like this gives are short, and what a small model writes
/// after them is mostly repetition.
pub(crate) fn text(
    conversation: &mut Conversation<'_>,
    sampler: &mut Sampler,
    start: Start,
    events: &Events,
    limit: usize,
) -> Result<(End, Generated), LlmError> {
    let table = conversation.shared.tokens();
    let mut utf8 = Utf8Buffer::default();
    let mut out = Generated::default();
    let started = start.turn_started;
    let mut idx = start.idx;
    let mut next = start.first;
    let end = loop {
        if events.closed() {
            break End::Cancelled;
        }
        if out.sampled >= limit {
            break End::TokenLimit;
        }
        let started_words = out.bytes.iter().any(|b| !b.is_ascii_whitespace());
        let token = match next.take() {
            Some(token) if started_words || starts_with_words(table.piece(token)) => token,
            _ if !started_words => {
                let fits = |t: LlamaToken| {
                    table.kind(t) == TokenKind::Text && starts_with_words(table.piece(t))
                };
                sampler.pick_text_where(&conversation.ctx, idx, table, &fits)?
            }
            _ => sampler.pick_text(&conversation.ctx, idx),
        };
        out.first_token.get_or_insert_with(|| started.elapsed());
        if table.kind(token) != TokenKind::Text {
            // End of turn, or a turn marker: the model is done with this turn.
            break End::Finished;
        }
        let piece = table.piece(token);
        if started_words && let Some(newline) = piece.iter().position(|&b| b == b'\n') {
            // The line ends the answer; what comes before the break on this piece is kept.
            out.bytes.extend_from_slice(&piece[..newline]);
            events.text(utf8.push(&piece[..newline]));
            out.sampled += 1;
            conversation.append(&[token])?;
            break End::Finished;
        }
        out.bytes.extend_from_slice(piece);
        events.text(utf8.push(piece));
        out.sampled += 1;
        if enough_said(&out.bytes) {
            conversation.append(&[token])?;
            break End::Finished;
        }
        idx = conversation.append(&[token])?;
    };
    events.text(utf8.finish());
    Ok((end, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_end_after_two_sentences_or_a_repeat() {
        assert!(!enough_said("찾았어요".as_bytes()));
        assert!(!enough_said("찾았어요.".as_bytes()));
        assert!(enough_said("찾았어요. 추가할까요?".as_bytes()));
        assert!(!enough_said("찾았어요. 추가할".as_bytes()));
        assert!(enough_said("좋아요! 좋아요!".as_bytes()));
        assert!(enough_said(
            "10분 걷기 습관을 10분 걷기 습관으로 10분 걷기 습관".as_bytes()
        ));
        assert!(!enough_said(
            "아침 10분 걷기와 저녁 10분 스트레칭을 찾았".as_bytes()
        ));
        assert!(
            !enough_said("1.5".as_bytes()),
            "a number is not a sentence end"
        );
    }

    #[test]
    fn answers_start_with_words() {
        assert!(starts_with_words(" 안녕".as_bytes()));
        assert!(starts_with_words(b"Ok"));
        assert!(!starts_with_words(b"{\"name\""));
        assert!(!starts_with_words(b"  "));
        assert!(starts_with_words(&"가".as_bytes()[..2]), "half a syllable");
    }
}
