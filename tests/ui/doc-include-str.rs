use agent_core::tool;

#[doc = include_str!("doc-include-str.md")]
#[tool]
async fn list_habits() -> Vec<String> {
    Vec::new()
}

fn main() {}
