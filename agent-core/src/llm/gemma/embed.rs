//! The model's own hidden states as text vectors, for tool choice: [`GemmaBackend::embed`].
//!
//! A context of its own with embeddings on (llama.cpp's embedding mode, no pooling): every
//! text is evaluated alone, and the final hidden state of each of its tokens is returned,
//! `<bos>` left out (Gemma's `<bos>` state is an attention sink with a norm far above the
//! others, which would swamp any average).

use llama_cpp_2::context::params::{LlamaContextParams, LlamaPoolingType};
use llama_cpp_2::llama_batch::LlamaBatch;

use super::model::GemmaBackend;
use crate::agent::LlmError;

/// Texts are embedded on at most this many tokens.
const MAX_TOKENS: usize = 64;

impl GemmaBackend {
    /// The final hidden state of every token of each text (`<bos>` excluded), in order.
    ///
    /// # Errors
    /// [`LlmError::Load`] when llama.cpp cannot create the context, [`LlmError::Inference`]
    /// when evaluation fails.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<Vec<f32>>>, LlmError> {
        let shared = &self.shared;
        let size = u32::try_from(MAX_TOKENS + 1).unwrap_or(512);
        let params = LlamaContextParams::default()
            .with_n_ctx(std::num::NonZeroU32::new(256))
            .with_n_batch(size)
            .with_n_ubatch(size)
            .with_embeddings(true)
            .with_pooling_type(LlamaPoolingType::None);
        let (mut ctx, _) = shared.new_context(params)?;
        let mut batch = LlamaBatch::new(MAX_TOKENS + 1, 1);
        let mut out = Vec::with_capacity(texts.len());
        for text in texts {
            let mut tokens = vec![shared.model.vocab().bos()];
            tokens.extend(
                shared
                    .tokenize_text(text, false)
                    .into_iter()
                    .take(MAX_TOKENS),
            );
            batch.clear();
            for (i, token) in tokens.iter().enumerate() {
                let pos = i32::try_from(i).unwrap_or(i32::MAX);
                batch
                    .add(*token, pos, &[0], true)
                    .map_err(|e| LlmError::Inference(format!("batch: {e}")))?;
            }
            ctx.clear_kv_cache();
            ctx.decode(&mut batch)
                .map_err(|e| LlmError::Inference(format!("embedding: {e}")))?;
            let mut states = Vec::with_capacity(tokens.len().saturating_sub(1));
            for i in 1..tokens.len() {
                let index = i32::try_from(i).unwrap_or(i32::MAX);
                let state = ctx
                    .embeddings_ith(index)
                    .map_err(|e| LlmError::Inference(format!("embedding: {e}")))?;
                states.push(state.to_vec());
            }
            out.push(states);
        }
        Ok(out)
    }
}
