//! `#[composed]`: a parameter whose text the model writes itself is left out of the grounded
//! ones, which a call copies from the request (plain strings) or takes as a number the
//! request writes (plain numbers).

use agent_core::{Registry, tool};

/// Sends a message.
///
/// # Arguments
///
/// * `to` - who gets it
/// * `text` - what it says, in the model's words
/// * `copies` - how many times
#[tool]
async fn send_message(to: String, #[composed] text: String, copies: u32) -> String {
    format!("{to} {text} {copies}")
}

fn main() {
    let registry = Registry::builder().discover().build().expect("registry");
    let tool = registry.get("send_message").expect("tool");
    assert_eq!(tool.grounded_parameters(), ["to", "copies"]);
    assert_eq!(tool.declaration().copied, ["to", "copies"]);
    assert!(tool.declaration().from_request.is_empty());
}
