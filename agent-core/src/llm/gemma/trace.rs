//! Tracing what a model is shown, for tuning prompts: with `AGENT_RS_TRACE=1` in the
//! environment, every rendered prompt and every sampled token of a call go to stderr.

use super::format;

/// With `AGENT_RS_TRACE=1` in the environment, every rendered prompt is written to stderr
/// (control pieces in ⟦…⟧): for seeing what a model is shown while tuning prompts.
pub(crate) fn tracing_prompts() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("AGENT_RS_TRACE").is_some_and(|v| v == "1"))
}

/// Writes `prompt` to stderr under the heading `what`, when prompts are traced.
pub(crate) fn trace(what: &str, prompt: &format::Prompt) {
    if !tracing_prompts() {
        return;
    }
    let mut text = String::new();
    for piece in prompt.pieces() {
        match piece {
            format::Piece::Control(c) => {
                text.push('⟦');
                text.push_str(c);
                text.push('⟧');
            }
            format::Piece::Text(t) => text.push_str(t),
        }
    }
    eprintln!("--- {what} ---\n{text}");
}
