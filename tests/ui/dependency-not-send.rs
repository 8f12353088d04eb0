use std::rc::Rc;

use agent_core::{Dep, tool};

/// Counts the habits.
#[tool]
async fn count(store: Dep<Rc<Vec<String>>>) -> usize {
    store.len()
}

fn main() {}
