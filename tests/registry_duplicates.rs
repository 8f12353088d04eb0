//! Two `#[tool]`s with one name in different modules cannot be caught at compile time (the
//! compile-time guard is per module); `RegistryBuilder::build` reports both locations.

use agent_core::{Registry, RegistryError};

mod build_habits {
    /// Lists the build habits.
    #[agent_core::tool(name = "list_habits")]
    pub(crate) async fn list() -> Vec<String> {
        Vec::new()
    }
}

mod break_habits {
    /// Lists the break habits.
    #[agent_core::tool(name = "list_habits")]
    pub(crate) async fn list() -> Vec<String> {
        Vec::new()
    }
}

#[test]
fn duplicate_names_across_modules_fail_the_build_with_both_locations() {
    let error = Registry::builder()
        .discover()
        .build()
        .expect_err("duplicate");
    let RegistryError::DuplicateName {
        name,
        first,
        second,
    } = &error
    else {
        panic!("unexpected error: {error}");
    };
    assert_eq!(name, "list_habits");
    assert!(
        first.contains("registry_duplicates::break_habits"),
        "{first}"
    );
    assert!(
        second.contains("registry_duplicates::build_habits"),
        "{second}"
    );
    // Naming one of them still works: by name both match, so that is an error too.
    assert!(
        Registry::builder()
            .discover_only(["list_habits"])
            .build()
            .is_err()
    );
    // By type there is no ambiguity.
    let registry = Registry::builder()
        .tool::<build_habits::list>()
        .build()
        .expect("registry");
    assert_eq!(registry.names().collect::<Vec<_>>(), ["list_habits"]);
}
