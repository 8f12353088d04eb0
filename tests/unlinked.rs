//! A test binary that depends on a crate of tools (`linked-tools`, a dev-dependency) but never
//! names it: the linker leaves that crate out, so `discover()` finds no tool, which `build`
//! refuses, saying why. This is
//! the failure `RegistryBuilder::discover_crate` exists for (see `linked.rs`); here, asking for
//! one of its tools by name fails at start-up and says why, instead of the tool just missing.

use agent_core::{Registry, RegistryError};

#[test]
fn discovering_nothing_fails_saying_why() {
    let error = Registry::builder()
        .discover()
        .build()
        .expect_err("a crate the binary never names is not linked");
    assert!(
        matches!(error, RegistryError::NothingDiscovered),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("never names is not linked")
            && message.contains("discover_crate(&that_crate::TOOLS)")
            && message.contains("use that_crate as _;"),
        "{message}"
    );
}

#[test]
fn asking_for_a_tool_of_an_unlinked_crate_fails_saying_why() {
    let error = Registry::builder()
        .discover_only(["fixture_hello"])
        .build()
        .expect_err("the tool is not linked");
    assert!(
        matches!(&error, RegistryError::UnknownTool { name, .. } if name == "fixture_hello"),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("only linked when the binary names that crate")
            && message.contains("discover_crate(&that_crate::TOOLS)"),
        "{message}"
    );
}
