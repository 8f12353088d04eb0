use agent_core::{Dep, tool};

struct Coach;

/// Greets.
#[tool]
async fn greet(coach: Option<Dep<Coach>>) -> bool {
    coach.is_some()
}

fn main() {}
