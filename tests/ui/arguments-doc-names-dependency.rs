use agent_core::{Dep, tool};

struct Store;

/// Finds habits.
///
/// # Arguments
///
/// * `store` - the store
/// * `keyword` - a keyword
#[tool]
async fn search(store: Dep<Store>, keyword: String) -> String {
    let _ = store;
    keyword
}

fn main() {}
