use agent_core::{Dep, tool};

struct Coach;

type MaybeCoach = Option<Dep<Coach>>;

/// Greets.
#[tool]
async fn greet(
    /// The coach.
    coach: MaybeCoach,
) -> bool {
    coach.is_some()
}

fn main() {}
