//! Where a destructive call from an MCP client gets confirmed: [`ElicitConfirmer`], the
//! [`Confirmer`] of the MCP dispatcher, asks the person through the client with a form
//! elicitation (MCP 2025-11-25 `elicitation/create`, mode `form`).
//!
//! The form is the terminal dialog's content: the message is the question with the tool's
//! label, its description, the call's summary and every argument (with what it refers to,
//! when the app knows), and the form has one required boolean, `confirm`, titled "수행",
//! described by the summary and unticked by default:
//!
//! ```text
//! 이 작업을 수행할까요? (습관 추가)
//! 카탈로그의 build 또는 break 프로토콜로 새 습관을 추가합니다. …
//! ▶ '아침 10분 걷기' 습관을 추가합니다
//! · 프로토콜 id: build.morning-walk — 아침 걷기
//! · 사용자 말로 쓴 습관 문장: 아침 10분 걷기
//! ```
//!
//! It fails closed: only `accept` with `confirm: true` approves. A client that declared no
//! form elicitation, a decline, an accept without the tick, a cancel, no answer within the
//! time limit, and a failed request all deny, and the model is told which.
//!
//! A call the client cancels (`notifications/cancelled`, which the Python SDK also sends when
//! its read times out) while its form is open is denied at once: the form is withdrawn — the
//! server cancels its own `elicitation/create` on the client — and an answer that arrives
//! later finds nothing waiting for it, so nothing runs after the cancel. The handler tells the
//! confirmer of the cancel through [`CALL_CANCELLED`], set for the dispatch of each call.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rmcp::model::{
    CancelledNotificationParam, ClientResult, ElicitRequest, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationSchema, ServerRequest,
};
use rmcp::service::PeerRequestOptions;
use rmcp::{Peer, RoleServer, ServiceError};
use serde_json::Value;

use crate::layer::confirm::{ConfirmRequest, Confirmation, Confirmer};
use crate::messages::Messages;
use crate::tool::BoxFuture;

/// The connection's client, once it has called: the confirmer asks it.
pub(super) type PeerSlot = Arc<OnceLock<Peer<RoleServer>>>;

/// A future that ends when the call being dispatched is cancelled by the client.
pub(super) type Cancelled = Arc<dyn Fn() -> BoxFuture<'static, ()> + Send + Sync>;

tokio::task_local! {
    /// Set by the handler around each call's dispatch: how the confirmer learns that the
    /// client cancelled the call it is asking about.
    pub(super) static CALL_CANCELLED: Cancelled;
}

/// Told to the model (if the client still listens) when the client cancelled the call while
/// its confirmation was open.
pub(super) const CLIENT_CANCELLED: &str =
    "the client cancelled the call; its confirmation was withdrawn and nothing ran";

/// The form's one field.
pub(super) const FIELD: &str = "confirm";

/// Told to the model when the client cannot show a form.
pub(super) const NO_ELICITATION: &str = "the MCP client cannot ask the user to confirm (it declared no form elicitation), so the call did not run";
/// Told to the model when the person dismissed the form.
pub(super) const DISMISSED: &str = "user dismissed the confirmation";

/// Asks the connection's client to confirm each destructive call; see the module docs.
pub(super) struct ElicitConfirmer {
    peer: PeerSlot,
    timeout: Duration,
    question: String,
    approve: String,
}

impl ElicitConfirmer {
    /// A confirmer waiting at most `timeout` for each answer, with `messages`' words.
    pub(super) fn new(timeout: Duration, messages: &Messages) -> Self {
        Self {
            peer: PeerSlot::default(),
            timeout,
            question: messages.confirm_question.to_string(),
            approve: messages.confirm_approve.to_string(),
        }
    }

    /// Where the server handler puts the client once it is connected.
    pub(super) fn peer_slot(&self) -> PeerSlot {
        Arc::clone(&self.peer)
    }

    async fn ask(&self, request: ConfirmRequest) -> Confirmation {
        let Some(peer) = self.peer.get() else {
            return denied(NO_ELICITATION);
        };
        if !can_show_forms(peer) {
            return denied(NO_ELICITATION);
        }
        let form = form(&request, &self.question, &self.approve);
        let cancelled = CALL_CANCELLED.try_with(|cancelled| cancelled());
        let mut options = PeerRequestOptions::no_options();
        options.timeout = Some(self.timeout);
        let request = ServerRequest::ElicitRequest(ElicitRequest::new(form));
        let handle = match peer.send_request_with_option(request, options).await {
            Ok(handle) => handle,
            Err(error) => return decide(Err(error)),
        };
        let id = handle.id.clone();
        let answer = async {
            match handle.await_response().await? {
                ClientResult::ElicitResult(result) => Ok(result),
                _ => Err(ServiceError::UnexpectedResponse),
            }
        };
        let Ok(cancelled) = cancelled else {
            return decide(answer.await);
        };
        tokio::select! {
            answer = answer => decide(answer),
            () = cancelled => {
                // Withdraw the form on the client; an answer that still comes finds no one
                // waiting for it.
                let withdrawn = CancelledNotificationParam::new(
                    Some(id),
                    Some("the tool call was cancelled".to_owned()),
                );
                let _ = peer.notify_cancelled(withdrawn).await;
                denied(CLIENT_CANCELLED)
            }
        }
    }
}

/// Whether the client declared form elicitation in the handshake. An `elicitation` capability
/// naming neither mode means forms (MCP 2025-06-18, before modes existed).
fn can_show_forms(peer: &Peer<RoleServer>) -> bool {
    peer.peer_info()
        .and_then(|client| client.capabilities.elicitation.clone())
        .is_some_and(|modes| modes.form.is_some() || modes.url.is_none())
}

impl Confirmer for ElicitConfirmer {
    fn confirm(&self, request: ConfirmRequest) -> BoxFuture<'_, Confirmation> {
        Box::pin(self.ask(request))
    }
}

/// The elicitation for `request`.
pub(super) fn form(request: &ConfirmRequest, question: &str, approve: &str) -> ElicitRequestParams {
    let summary = request.lines().summary;
    let schema = ElicitationSchema::builder()
        .required_bool_property(FIELD, |field| {
            field
                .title(approve.to_owned())
                .description(summary)
                .with_default(false)
        })
        .build()
        // The builder fails only for a required field it does not have; it has it.
        .unwrap_or_else(|_| ElicitationSchema::new(Default::default()));
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message(request, question),
        requested_schema: schema,
    }
}

/// The form's message: what the terminal dialog shows, as plain lines — the call's
/// [`lines`](ConfirmRequest::lines), inert and bounded, so nothing the model wrote can add a
/// line of its own to the form or grow it without bound.
pub(super) fn message(request: &ConfirmRequest, question: &str) -> String {
    let shown = request.lines();
    let mut lines = vec![format!("{question} ({})", shown.label)];
    lines.extend(shown.description);
    lines.push(format!("▶ {}", shown.summary));
    lines.extend(
        shown
            .arguments
            .into_iter()
            .map(|argument| format!("· {argument}")),
    );
    lines.join("\n")
}

/// The decision for the client's answer (or for why there is none).
pub(super) fn decide(answer: Result<ElicitResult, ServiceError>) -> Confirmation {
    match answer {
        Ok(ElicitResult {
            action: ElicitationAction::Accept,
            content,
            ..
        }) => {
            let ticked = content
                .as_ref()
                .and_then(|content| content.get(FIELD))
                .and_then(Value::as_bool);
            // Anything but an explicit tick (none, `false`, "true" as text) is a no.
            Confirmation::from(ticked == Some(true))
        }
        Ok(ElicitResult {
            action: ElicitationAction::Cancel,
            ..
        }) => denied(DISMISSED),
        // A decline, or an action a newer protocol may add.
        Ok(_) => Confirmation::deny(),
        Err(ServiceError::Timeout { timeout }) => denied(&format!(
            "user did not answer the confirmation within {} s",
            timeout.as_secs()
        )),
        Err(error) => denied(&format!(
            "the confirmation could not be asked: {}",
            clip(&error.to_string(), 200)
        )),
    }
}

fn denied(reason: &str) -> Confirmation {
    Confirmation::Deny {
        reason: Some(reason.to_owned()),
    }
}

/// At most `chars` characters of a client-controlled text.
fn clip(text: &str, chars: usize) -> String {
    let mut out: String = text.chars().take(chars).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::layer::confirm::ConfirmArgument;
    use serde_json::json;

    fn request() -> ConfirmRequest {
        ConfirmRequest {
            tool: "add_habit".into(),
            label: "습관 추가".into(),
            description: "새 습관을 추가합니다.\n\n  먼저 검색하세요.  ".into(),
            summary: " '아침 걷기' 습관을 추가합니다 ".into(),
            arguments: vec![
                ConfirmArgument {
                    name: "protocol_id".into(),
                    label: "프로토콜 id".into(),
                    value: json!("build.morning-walk"),
                    meaning: Some("아침 걷기".into()),
                },
                ConfirmArgument {
                    name: "frame_level".into(),
                    label: "단계".into(),
                    value: json!(2),
                    meaning: None,
                },
            ],
            args: json!({"protocol_id": "build.morning-walk", "frame_level": 2}),
            undo_of: None,
        }
    }

    #[test]
    fn the_form_shows_the_whole_call_and_asks_for_one_tick() {
        let messages = Messages::default();
        let form = form(
            &request(),
            &messages.confirm_question,
            &messages.confirm_approve,
        );
        let wire = serde_json::to_value(&form).unwrap();
        assert_eq!(wire["mode"], "form");
        assert_eq!(
            wire["message"],
            "이 작업을 수행할까요? (습관 추가)\n새 습관을 추가합니다.\n먼저 검색하세요.\n\
             ▶ '아침 걷기' 습관을 추가합니다\n· 프로토콜 id: build.morning-walk — 아침 걷기\n· 단계: 2"
        );
        assert_eq!(
            wire["requestedSchema"],
            json!({
                "type": "object",
                "properties": {"confirm": {
                    "type": "boolean",
                    "title": "수행",
                    "description": "'아침 걷기' 습관을 추가합니다",
                    "default": false
                }},
                "required": ["confirm"]
            })
        );
    }

    fn answer(action: ElicitationAction, content: Option<Value>) -> Confirmation {
        let mut result = ElicitResult::new(action);
        result.content = content;
        decide(Ok(result))
    }

    #[test]
    fn only_an_accepted_tick_approves() {
        let accept = ElicitationAction::Accept;
        assert!(answer(accept.clone(), Some(json!({"confirm": true}))).is_approved());
        for content in [
            None,
            Some(json!({})),
            Some(json!({"confirm": false})),
            Some(json!({"confirm": "true"})),
            Some(json!(true)),
        ] {
            let decision = answer(accept.clone(), content.clone());
            assert_eq!(decision, Confirmation::deny(), "{content:?}");
        }
        assert_eq!(
            answer(ElicitationAction::Decline, Some(json!({"confirm": true}))),
            Confirmation::deny()
        );
        assert_eq!(answer(ElicitationAction::Cancel, None), denied(DISMISSED));
    }

    #[test]
    fn no_answer_denies_and_says_why() {
        let timeout = decide(Err(ServiceError::Timeout {
            timeout: Duration::from_secs(300),
        }));
        assert_eq!(
            timeout,
            denied("user did not answer the confirmation within 300 s")
        );
        let Confirmation::Deny {
            reason: Some(reason),
        } = decide(Err(ServiceError::TransportClosed))
        else {
            panic!("a closed connection must deny with a reason");
        };
        assert!(reason.contains("could not be asked"), "{reason}");
    }

    #[tokio::test]
    async fn without_a_client_nothing_is_approved() {
        let confirmer = ElicitConfirmer::new(Duration::from_secs(1), &Messages::default());
        assert_eq!(confirmer.confirm(request()).await, denied(NO_ELICITATION));
    }
}
