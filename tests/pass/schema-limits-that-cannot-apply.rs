//! A limit that could not take effect is refused when the definition is built, rather than
//! dropped (schemars writes no `minimum` for a `range` on a string) or shown to the model and
//! ignored (a `minimum` written by hand on a string, an unknown `format`).

use agent_core::{DefinitionError, Tool, tool};

/// Adds a note.
#[tool]
async fn ranged_text(
    /// The note.
    #[schemars(range(min = 1, max = 10))]
    text: String,
) -> String {
    text
}

/// Counts.
#[tool]
async fn long_number(
    /// How many.
    #[schemars(length(max = 3))]
    count: u32,
) -> u32 {
    count
}

/// Names a habit.
#[tool]
async fn extended_text(
    /// The name.
    #[schemars(extend("minimum" = 1))]
    name: String,
) -> String {
    name
}

/// Tags a habit.
#[tool]
async fn odd_format(
    /// The tag.
    #[schemars(extend("format" = "habit-tag"))]
    tag: String,
) -> String {
    tag
}

fn reason(definition: Result<agent_core::ToolDefinition, DefinitionError>) -> String {
    match definition {
        Err(DefinitionError::InvalidSchema { reason, .. }) => reason,
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("the definition was accepted"),
    }
}

fn main() {
    let text = reason(<ranged_text as Tool>::definition());
    assert_eq!(
        text,
        "`#[schemars(range(…))]` on `text` has no effect: its schema is of type \"string\", and `range` applies to numbers"
    );
    let count = reason(<long_number as Tool>::definition());
    assert!(count.contains("`#[schemars(length(…))]` on `count` has no effect"), "{count}");
    let name = reason(<extended_text as Tool>::definition());
    assert!(name.contains("`name` is a `string`, on which `minimum` has no effect"), "{name}");
    let format = reason(<odd_format as Tool>::definition());
    assert!(format.contains("habit-tag"), "{format}");
}
