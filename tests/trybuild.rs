//! The `#[tool]` compile-time contract: every misuse in `ui/` fails with the message checked
//! in next to it, and every program in `pass/` compiles and runs.
//!
//! Refresh the expected messages with `TRYBUILD=overwrite cargo test -p agent-tests --test
//! trybuild`, then read the diff.

#[test]
fn tool_macro() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("pass/*.rs");
}
