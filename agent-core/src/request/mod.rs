//! The request layer: a person's message read once — its text and lower-cased form, the
//! numbers it writes, its words and the places it splits into parts, clauses and sentences —
//! and what
//! it says about a tool's parameters: which provided values it mentions, which numbers it
//! gives, which free-text values it labels. The tool-choice stage reads a request only
//! through this layer.
//!
//! | file | owns |
//! |---|---|
//! | `text.rs` | [`Request`]: the text, lower-cased once, its words and splits |
//! | `numbers.rs` | the numbers a request writes (a date or a time is none) |
//! | `mentions.rs` | which of a parameter's values a request mentions |
//! | `labels.rs` | free-text values a request labels ("메모: …") |
//! | `params.rs` | a tool's parameters read against a request: narrowed values, what was said |
//! | `quantities.rs` | the quantities a request writes ("92,000원", "13만", "네 명") and which number parameter each is for |
//! | `ordinal.rs` | which item of a list a request points at ("두 번째 거", "the first one") |
//! | `undo.rs` | whether a request asks to take back the last action ("방금 거 취소해줘", "undo that") |
//! | `reports.rs` | whether a request reports having done something ("우유 사왔음", "I returned the books") |
//! | `particles.rs` | the Korean particles after a name ("부산은"), and a copied name without them |
//! | `conjuncts.rs` | the other members of a list a value is one of ("서울이랑 부산", "Seoul and Busan") |
//! | `copies.rs` | what a grounded text parameter may copy: the request without the words that cannot be its value |

mod calendar;
mod conjuncts;
mod copies;
mod labels;
mod mentions;
mod numbers;
mod ordinal;
mod params;
mod particles;
mod quantities;
mod reports;
mod text;
mod undo;
pub(crate) mod verbs;

pub(crate) use conjuncts::{conjuncts, lists};
pub(crate) use copies::copy_sources;
pub(crate) use mentions::{mentioned, named_as_words, set_aside};
pub(crate) use numbers::numbers_written;
pub(crate) use ordinal::Ordinal;
pub(crate) use params::{
    OtherScript, asks_nothing, keep_mentioned, most_written, names_every_required, said,
};
pub(crate) use particles::{TRAILING_PARTICLES, trimmed_copy};
pub(crate) use quantities::{requires_a_written_number, writes_every_required_number};
pub(crate) use text::{Request, Said, has_hangul, spellings, splits};
