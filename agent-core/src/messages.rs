//! [`Messages`]: every sentence the runtime itself says — to the person (notices, default
//! answers) and to the model (why a call was refused, how a result was cut) — in one value an
//! app can replace. The defaults are Korean, the language of the demo domain.

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
    /// The answer when the tool a request needs cannot be called now: a parameter it
    /// requires has nothing to choose from (see
    /// [`ToolDefinition::current_values`](crate::ToolDefinition::current_values)). `{tool}`
    /// stands for the tool's label, `{param}` for the first sentence of the parameter's
    /// description.
    pub nothing_to_choose: Cow<'static, str>,
    /// Describes requests that need no tool, for the tool-choice stage's channel scoring.
    pub chat_channel: Cow<'static, str>,
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
            nothing_to_choose: "지금은 '{tool}' 할 수 없어요. 고를 수 있는 {param} 값이 아직 없어요."
                .into(),
            chat_channel: "도구 없이 말로 답하는 대화: 인사, 감사, 잡담, 일반적인 질문".into(),
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
