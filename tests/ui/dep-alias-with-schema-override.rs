use agent_core::{Dep, tool};

struct Coach;

type CoachDep = Dep<Coach>;

/// Greets.
#[tool]
async fn greet(
    /// The coach.
    #[schemars(with = "String")]
    coach: CoachDep,
) -> String {
    let _ = coach;
    String::new()
}

fn main() {}
