//! `#[tool]`: placeholder while the macro is written.
