//! Integration tests of the nine tools, driven the way an app drives them: through
//! `habit_tools::registry_builder`, the registry and its dispatcher (lookup → schema
//! validation → confirmation gate → tool), with a pinned clock and real SQLite files.
//!
//! One test binary (one link) with a module per concern.

#![allow(clippy::unwrap_used)]

mod cap;
mod catalog;
mod concurrency;
mod confirmation;
mod declarations;
mod habits;
mod output;
mod persistence;
mod runtime;
mod support;
mod tracker;
mod undo;
