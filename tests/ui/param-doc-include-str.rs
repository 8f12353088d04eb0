use agent_core::tool;

/// Finds habits.
#[tool]
async fn search(
    #[doc = include_str!("doc-include-str.md")]
    keyword: String,
) -> String {
    keyword
}

fn main() {}
