use agent_core::tool;

struct Coach;

impl Coach {
    /// Lists the habits.
    #[tool]
    async fn list_habits() -> Vec<String> {
        Vec::new()
    }
}

fn main() {}
