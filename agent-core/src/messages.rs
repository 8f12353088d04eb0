//! [`Messages`]: every sentence the runtime itself says — to the person (notices, default
//! answers) and to the model (why a call was refused, how a result was cut) — in one value an
//! app can replace. The defaults are Korean, the language of the demo domain;
//! [`Messages::english`] is the same set in English.

use std::borrow::Cow;

/// The runtime's own words; see the module doc. Start from the defaults and replace what
/// differs (the type is `#[non_exhaustive]`, so outside this crate it is not built with a
/// struct expression):
///
/// ```
/// let mut messages = agent_core::Messages::default();
/// messages.chat_channel = "Small talk, thanks and questions no tool answers".into();
/// ```
///
/// An English app starts from [`Messages::english`] instead.
///
/// Give the same value to the session ([`ChatConfig::with_messages`](crate::ChatConfig::with_messages):
/// the words the model reads) and to the agent
/// ([`Agent::with_messages`](crate::Agent::with_messages): the words it says).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Messages {
    /// Told to the user, and to the model for the calls it made last, at the turn limit.
    pub turn_limit: Cow<'static, str>,
    /// Shown once the conversation reaches the soft history limit.
    pub long_conversation: Cow<'static, str>,
    /// The reason given to the model for a repeated call.
    pub repeated_call: Cow<'static, str>,
    /// Added to a result the size cap had to cut.
    pub truncated_hint: Cow<'static, str>,
    /// The answer when a call was cancelled and the model wrote nothing usable.
    pub after_cancel: Cow<'static, str>,
    /// The answer when a call succeeded, the model wrote nothing usable and the result has no
    /// facts to state (see `result_facts`).
    pub after_success: Cow<'static, str>,
    /// The answer when a call of a tool without its own sentence about its result (no
    /// [`reply`](crate::ToolDefinitionBuilder::reply)) succeeded and the model wrote nothing
    /// usable: `{tool}` stands for the tool's label, `{facts}` for the result's key facts
    /// ("3개: 우유 사기, 은행 가기, 보고서 제출" or "'우유 사기' (id 7)").
    pub result_facts: Cow<'static, str>,
    /// How `{facts}` says how many items a list has: `{count}` stands for the number.
    pub count_of_items: Cow<'static, str>,
    /// The answer when a call failed and the model wrote nothing usable.
    pub after_error: Cow<'static, str>,
    /// The answer when no tool was needed and the model wrote nothing usable.
    pub no_answer: Cow<'static, str>,
    /// The answer when no call ran but the model's words said something was done ("기록했어요")
    /// and the request asked for an action or no chat example answers it: nothing was
    /// changed, and the person is asked to say again what they want.
    pub nothing_done: Cow<'static, str>,
    /// The answer when the tool a request needs cannot be called now: a parameter it
    /// requires has nothing to choose from (see
    /// [`ToolDefinition::current_values`](crate::ToolDefinition::current_values)). `{tool}`
    /// stands for the tool's label, `{param}` for the first sentence of the parameter's
    /// description.
    pub nothing_to_choose: Cow<'static, str>,
    /// Describes requests that need no tool, for the tool-choice stage's channel scoring.
    pub chat_channel: Cow<'static, str>,
    /// What the tool-choice stage's text about a tool (or about plain conversation) puts
    /// before each example request, and before the request it scores: `예: ` by default.
    pub example_lead: Cow<'static, str>,
    /// The question a person is asked before a destructive call runs, when the runtime asks
    /// itself (an MCP client's confirmation form).
    pub confirm_question: Cow<'static, str>,
    /// The box a person ticks in that form to let the call run.
    pub confirm_approve: Cow<'static, str>,
    /// The label of an undo, in its confirmation and the journal: `{tool}` stands for the
    /// undone tool's label.
    pub undo_label: Cow<'static, str>,
    /// The summary of an undo, in its confirmation and the journal: `{summary}` stands for
    /// the undone call's summary.
    pub undo_summary: Cow<'static, str>,
    /// The answer after an undo ran: `{summary}` stands for the undone call's summary.
    pub undone: Cow<'static, str>,
    /// The answer when an undo was refused or failed: `{reason}` stands for why.
    pub undo_failed: Cow<'static, str>,
    /// The answer when the last call cannot be undone: its tool declares no undo. `{tool}`
    /// stands for its label.
    pub not_undoable: Cow<'static, str>,
}

impl Default for Messages {
    fn default() -> Self {
        Self {
            turn_limit: "도구 호출 루프가 너무 길어 중단했습니다.".into(),
            long_conversation: "대화가 길어졌어요. 새 대화를 시작하면 더 정확하게 답할 수 있어요."
                .into(),
            repeated_call: "같은 도구를 같은 인자로 이미 호출했습니다. 앞의 결과를 사용해 답하세요."
                .into(),
            truncated_hint:
                "결과가 너무 길어 일부만 보냅니다. 항목 하나를 자세히 보려면 단건 조회 도구를 사용하세요."
                    .into(),
            after_cancel: "알겠어요, 실행하지 않았어요.".into(),
            after_success: "완료했어요.".into(),
            result_facts: "{tool} 결과예요 — {facts}".into(),
            count_of_items: "{count}개".into(),
            after_error: "요청을 처리하지 못했어요.".into(),
            no_answer: "죄송해요, 잘 이해하지 못했어요. 다시 말씀해 주시겠어요?".into(),
            nothing_done: "이번에는 아무것도 바꾸거나 기록하지 않았어요. 원하시는 일을 한 번 더 말씀해 주시겠어요?"
                .into(),
            nothing_to_choose: "지금은 '{tool}' 할 수 없어요. 고를 수 있는 {param} 값이 아직 없어요."
                .into(),
            chat_channel: "도구 없이 말로 답하는 대화: 인사, 감사, 잡담, 일반적인 질문".into(),
            example_lead: "예: ".into(),
            confirm_question: "이 작업을 수행할까요?".into(),
            confirm_approve: "수행".into(),
            undo_label: "{tool} 되돌리기".into(),
            undo_summary: "되돌릴 작업: {summary}".into(),
            undone: "되돌렸어요. ({summary})".into(),
            undo_failed: "되돌리지 못했어요: {reason}".into(),
            not_undoable: "마지막 작업('{tool}')은 되돌릴 수 없어요.".into(),
        }
    }
}

impl Messages {
    /// The runtime's words in English, for an app whose people and tools speak English: the
    /// same sentences as the Korean defaults, with the same `{…}` placeholders.
    ///
    /// ```
    /// let messages = agent_core::Messages::english();
    /// assert_eq!(messages.confirm_question, "Do you want to do this?");
    /// ```
    pub fn english() -> Self {
        Self {
            turn_limit: "Stopped: the loop of tool calls went on too long.".into(),
            long_conversation:
                "This conversation has grown long. A new one will get more accurate answers."
                    .into(),
            repeated_call:
                "This tool was already called with the same arguments. Answer from the earlier result."
                    .into(),
            truncated_hint: "The result was too long, so only part of it is sent. To see one item in full, use the tool that looks up a single item."
                .into(),
            after_cancel: "OK, I did not run it.".into(),
            after_success: "Done.".into(),
            result_facts: "{tool}: {facts}".into(),
            count_of_items: "{count} items".into(),
            after_error: "I could not complete the request.".into(),
            no_answer: "Sorry, I did not quite understand. Could you say it another way?".into(),
            nothing_done:
                "I haven't changed or saved anything this time. Could you tell me once more what you'd like?"
                    .into(),
            nothing_to_choose:
                "'{tool}' cannot be done right now: there is no {param} to choose from yet.".into(),
            chat_channel:
                "Conversation answered in words, without a tool: greetings, thanks, small talk, general questions"
                    .into(),
            example_lead: "Example: ".into(),
            confirm_question: "Do you want to do this?".into(),
            confirm_approve: "Do it".into(),
            undo_label: "Undo {tool}".into(),
            undo_summary: "To undo: {summary}".into(),
            undone: "Undone. ({summary})".into(),
            undo_failed: "Could not undo it: {reason}".into(),
            not_undoable: "The last action ('{tool}') cannot be undone.".into(),
        }
    }

    /// Every sentence with its field's name, for the tests that compare the sets (written as
    /// a destructuring, so a new field cannot be left out).
    #[cfg(test)]
    fn all(&self) -> Vec<(&'static str, &str)> {
        let Self {
            turn_limit,
            long_conversation,
            repeated_call,
            truncated_hint,
            after_cancel,
            after_success,
            result_facts,
            count_of_items,
            after_error,
            no_answer,
            nothing_done,
            nothing_to_choose,
            chat_channel,
            example_lead,
            confirm_question,
            confirm_approve,
            undo_label,
            undo_summary,
            undone,
            undo_failed,
            not_undoable,
        } = self;
        vec![
            ("turn_limit", turn_limit),
            ("long_conversation", long_conversation),
            ("repeated_call", repeated_call),
            ("truncated_hint", truncated_hint),
            ("after_cancel", after_cancel),
            ("after_success", after_success),
            ("result_facts", result_facts),
            ("count_of_items", count_of_items),
            ("after_error", after_error),
            ("no_answer", no_answer),
            ("nothing_done", nothing_done),
            ("nothing_to_choose", nothing_to_choose),
            ("chat_channel", chat_channel),
            ("example_lead", example_lead),
            ("confirm_question", confirm_question),
            ("confirm_approve", confirm_approve),
            ("undo_label", undo_label),
            ("undo_summary", undo_summary),
            ("undone", undone),
            ("undo_failed", undo_failed),
            ("not_undoable", not_undoable),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::Messages;

    fn placeholders(text: &str) -> Vec<&str> {
        let mut found: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
            .collect();
        found.sort_unstable();
        found
    }

    #[test]
    fn the_english_set_says_every_sentence_with_the_same_placeholders_and_no_korean() {
        let (korean, english) = (Messages::default(), Messages::english());
        let (korean, english) = (korean.all(), english.all());
        assert_eq!(korean.len(), english.len());
        for ((field, ko), (same, en)) in korean.into_iter().zip(english) {
            assert_eq!(field, same);
            assert!(!en.trim().is_empty(), "{field}");
            assert_eq!(
                placeholders(ko),
                placeholders(en),
                "{field}: {ko:?} / {en:?}"
            );
            assert!(
                !en.chars().any(|c| ('\u{ac00}'..='\u{d7a3}').contains(&c)),
                "{field}: {en:?}"
            );
        }
    }
}
