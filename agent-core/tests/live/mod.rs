//! What the live test binaries share: where the model is, the backend options they load it
//! with, and a runtime to drive a session. (A subdirectory, so cargo builds no test of it.)

use std::path::PathBuf;

use agent_core::llm::gemma::{GemmaBackend, GemmaOptions, PrefixCache};

/// The model's path; `None` (skip) when it is missing locally, a failure under `CI=true`.
pub(crate) fn model_path() -> Option<PathBuf> {
    let path = GemmaBackend::default_model_path();
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "no model at {}: CI must run scripts/fetch-model.sh (or set GEMMA_MODEL) before the live tests",
        path.display()
    );
    eprintln!(
        "skipping live test: no model at {} (run scripts/fetch-model.sh)",
        path.display()
    );
    None
}

/// A context of 2048 tokens and no prefix cache on disk.
pub(crate) fn options() -> GemmaOptions {
    let mut options = GemmaOptions::default();
    options.context_size = 2048;
    options.prefix_cache = PrefixCache::Off;
    options
}

/// A single-threaded runtime.
pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}
