//! The calls of one user turn, keyed by tool and arguments ([`CallHistory`]): a call the
//! model makes again, with nothing changed since by a destructive tool, is answered
//! `repeated_call` instead of running again.

use std::collections::HashMap;

use serde_json::Value;

use crate::session::ToolCall;

/// The calls made during one user turn, and whether state changed since.
#[derive(Default)]
pub(super) struct CallHistory {
    /// Bumped whenever a destructive call succeeds: a read after it may differ.
    generation: u64,
    seen: HashMap<String, u64>,
}

impl CallHistory {
    pub(super) fn key(call: &ToolCall) -> String {
        let mut key = call.name.clone();
        key.push('\0');
        canonical_json(&call.args, &mut key);
        key
    }

    pub(super) fn is_repeat(&self, key: &str) -> bool {
        self.seen.get(key) == Some(&self.generation)
    }

    pub(super) fn record(&mut self, key: String, changed_state: bool) {
        self.seen.insert(key, self.generation);
        if changed_state {
            self.generation += 1;
        }
    }
}

/// JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one call.
fn canonical_json(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (i, (key, value)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical_json(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_json(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_json_ignores_key_order() {
        let mut a = String::new();
        let mut b = String::new();
        canonical_json(&json!({"b": [1, {"y": 1, "x": 2}], "a": "가"}), &mut a);
        canonical_json(&json!({"a": "가", "b": [1, {"x": 2, "y": 1}]}), &mut b);
        assert_eq!(a, b);
        assert_eq!(a, r#"{"a":"가","b":[1,{"x":2,"y":1}]}"#);
    }

    #[test]
    fn repeats_are_allowed_again_after_a_state_change() {
        let mut history = CallHistory::default();
        let call = ToolCall {
            name: "list".into(),
            args: json!({}),
        };
        let key = CallHistory::key(&call);
        assert!(!history.is_repeat(&key));
        history.record(key.clone(), false);
        assert!(history.is_repeat(&key));
        history.record("add\0{}".into(), true);
        assert!(
            !history.is_repeat(&key),
            "a destructive success may change the answer"
        );
    }
}
