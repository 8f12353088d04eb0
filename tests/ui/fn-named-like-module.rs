use agent_core::tool;

mod search {}

/// Searches the catalog.
#[tool]
async fn search(
    /// A keyword.
    keyword: String,
) -> String {
    keyword
}

fn main() {}
