//! A test binary that names its crate of tools (`linked-tools`) only with `use linked_tools as
//! _;`: that links the crate, so `discover()` finds its tools (compare `unlinked.rs`).

use linked_tools as _;

use agent_core::Registry;

#[test]
fn a_crate_named_by_use_is_linked_and_discovered() {
    let registry = Registry::builder().discover().build().expect("registry");
    assert_eq!(
        registry.names().collect::<Vec<_>>(),
        ["fixture_hello", "fixture_count"]
    );
}
