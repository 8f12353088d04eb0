//! The tool-choice stage: before the model writes anything, decide *what* it should do about
//! the request — which tools to call, in which order, or none — from the request itself.
//!
//! A small base model asked to pick a tool by generating its name picks nearly the same one
//! for every request: under greedy decoding the name is whichever first token the prompt makes
//! most likely, not a reading of the request. So the choice is made by mechanisms that do
//! read it, and the model's job becomes the arguments and the words:
//!
//! - the **router** ([`router`]) compares the request with every declared [`Example`] by
//!   character n-grams and ranks *plans* (the tool sequences of the examples, the empty plan
//!   for requests that need no tool);
//! - the **model's reading** ([`reading`]), when the model offers it ([`Evidence::read`]): a
//!   classifier over the vector the model's middle layers make of a request, trained on the
//!   same examples before the first request ([`Chooser::prepare`]) — it tells plans apart by
//!   meaning where the router sees only different letters;
//! - **channel scoring**, for models that can score but not read ([`Evidence::score`]), asks
//!   the model how likely the request is after a short text about each candidate tool (and
//!   one about plain conversation; each shows the tool's declared requests that differ most
//!   from each other, see [`channels`]) — the "noisy channel" direction, which a base model
//!   is good at because it is next-token prediction over the request's own tokens;
//! - the [`Strategy`] says which of them decide, and how they combine.
//!
//! A request for two things is mostly read as the one it says more about, so where the
//! examples declare two-step plans the parts of the request (split between words) are read
//! too, and a part asking for each step composes the plan; and a request of two sentences,
//! each confidently asking for a different tool, gets the two in order whether or not an
//! example declares the pair.
//!
//! What needs no tool is learned too, with no work from the app: beside its examples, the
//! reading learns from a [`Background`] of requests that need no tool in almost any app
//! (greetings, general questions, asks for actions apps often lack), weighed so that a
//! hundred of them never outweigh a tool's three examples; a request for an action no tool
//! of the app does ("지워줘" where nothing deletes, or "목록 카톡으로 보내줘" whose main verb is
//! one) gets words, and so does one that says not to do a tool's action ("기록은 하지 마"),
//! asks to leave things as they are ("건드리지 마"), or asks *about* something the reading
//! takes for no tool ("우선순위는 어떻게 정해?"). The words of the actions most apps' tools do
//! — add, find, list, complete, delete, change, cancel, log, set (`verbs.rs`) — ask for the one
//! tool of an app that does each, by its name or label: where the evidence chose no tool, or
//! an unsure one the request does not name, a request whose main verb is such a word ("…
//! 적어놔줘", "get rid of …") gets that tool, unless it asks *about* the action ("어떻게",
//! "just wondering"). Where the evidence chose no tool, a request that says a word of one
//! tool's name or label no other tool has ("what's my reading streak?" to `get_streak`)
//! gets that tool, if it only reads. A destructive step is planned only when the
//! request asks for that tool's action (its cues: the words of its label, name and examples
//! no other tool uses) or when the evidence for it is strong — however many examples the app
//! declares; where it is not, what is planned instead must be asked for by its words too,
//! or it is words; an app with few examples per tool also has its channels scored beside the
//! reading. A question for information ("what habits am I tracking right now?", "3번 할 일
//! 언제까지야?") never gets a write: the likeliest plan without one, or words.
//!
//! A message of an ongoing conversation is read with the calls of the turns before it
//! ([`Chooser::plan_in`], [`Conversation`]): an elliptical follow-up ("3번은?", "and habit
//! 2?", "아니 2번 말고 1번") continues the last tool with the value it names (the one not
//! set aside by "말고", "not"), even where the model surely reads its few words as another
//! tool's whose action and values they do not say, a place in a list ("두 번째 거")
//! is that item of what a result listed, and a parameter the message does not name keeps the
//! value the conversation is about (the habit just added, the day just logged). A message
//! whose main verb asks for the action of a tool the conversation is about ("그 흡연 습관
//! 추가해줘" after a search) is that tool's call, however surely its other words read as
//! another's.
//!
//! With `AGENT_RS_TRACE_CHOICE=1` in the environment, each rule that changes a message's plan
//! writes one line to stderr (`choice "…": follow: continued: [] → ["get_streak"]`): the way
//! to see why your app's request got the tool it got.
//!
//! The stage answers one question per message, [`Chooser::plan`]: given the request and the
//! tools a caller may use, a [`TurnPlan`] — the steps, the values each step's parameters may
//! take and the arguments it must write ([`Chooser::step`]), the example to show before an
//! answer in words, or why a step cannot be taken. The model's evidence reaches it through a
//! small port, [`Evidence`], which the agent implements over its session and an evaluation
//! can answer from recordings ([`Replay`]) — so what is measured is what ships. The
//! reading costs one evaluation of the request by the model's first blocks, and of its parts
//! a little more; channels cost one evaluation per candidate, so a model that can read is
//! not asked for channel scores unless the chooser is told to weigh them beside the reading
//! ([`Chooser::with_reading_channels`]). With many tools the router also narrows: only its
//! best few first tools are scored by the model, and the model only ever sees the one tool
//! it must call.
//!
//! | file | owns |
//! |---|---|
//! | `chooser.rs` | [`Chooser`]: training, the plan for a message, each step |
//! | `turn.rs` | [`TurnPlan`], [`Step`] |
//! | `conversation.rs` | [`Conversation`]: the earlier turns' calls, evidence for a follow-up |
//! | `decision.rs` | [`Decision`], [`Strategy`], [`Candidate`], [`Channel`] |
//! | `evidence.rs` | the model port [`Evidence`], [`Replay`], [`NoModel`] |
//! | `combine.rs` | evidence → plan: the weighing, composition from parts and sentences |
//! | `values.rs` | the values a step may take, the arguments it must write |
//! | `actions.rs` | whether a request asks for a tool's action (a destructive one's above all) |
//! | `verbs.rs` | the actions most apps' tools do, and the words people ask for them with |
//! | `arguments.rs` | a model's call tidied before confirmation |
//! | `channels.rs` | the channels a session scores under |
//! | `training.rs` | what the stage learns from a registry |
//! | `background.rs`, `background.json` | [`Background`]: requests that need no tool in almost any app |
//! | `tuning.rs` | the weights of the evidence |
//! | `router.rs` | the lexical [`Router`] |
//! | `reading.rs` | the [`ReadingClassifier`] over the model's reading |
//!
//! [`Example`]: crate::Example

mod actions;
pub(crate) mod arguments;
mod background;
mod channels;
mod chooser;
mod combine;
mod conversation;
mod decision;
mod evidence;
pub mod reading;
pub mod router;
mod training;
mod tuning;
mod turn;
mod values;

pub use background::Background;
pub use channels::channels;
pub use chooser::{Chooser, learning_texts};
pub use conversation::{Conversation, PastCall};
pub use decision::{Candidate, Channel, Decision, Strategy};
pub use evidence::{Evidence, NoModel, Readings, Replay};
pub use reading::ReadingClassifier;
pub use router::{Plan, Ranked, Router};
pub use turn::{Step, TurnPlan};
pub use values::values_for;
