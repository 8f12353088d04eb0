use agent_core::{Dep, ValueChoice, tool};

struct Coach;

fn coaches() -> Vec<ValueChoice> {
    Vec::new()
}

/// Greets.
#[tool]
async fn greet(#[values(coaches)] coach: Dep<Coach>) -> bool {
    let _ = coach;
    true
}

fn main() {}
