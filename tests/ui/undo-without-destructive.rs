use agent_core::{ToolError, UndoCall, tool};

async fn undo_note(_call: UndoCall) -> Result<(), ToolError> {
    Ok(())
}

/// Adds a note.
#[tool(undo = undo_note)]
async fn add_note(
    /// The note.
    text: String,
) -> String {
    text
}

fn main() {}
