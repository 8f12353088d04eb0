use agent_core::{ToolError, tool};

// An undo fn receives the journaled call (`UndoCall`), not the tool's arguments.
async fn undo_note(_text: String) -> Result<(), ToolError> {
    Ok(())
}

/// Adds a note.
#[tool(destructive, undo = undo_note)]
async fn add_note(
    /// The note.
    text: String,
) -> String {
    text
}

fn main() {}
