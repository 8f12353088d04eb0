//! Steering one turn: what the model may write, decided from the turn's [`ToolChoice`] and
//! the values its restricted parameters may take now.
//!
//! | tool choice | the model writes |
//! |---|---|
//! | `Call([tool])` | exactly one call of that tool, under a constraint built for this turn (this turn's value sets as enums); the request is followed by a hint listing those values with their labels |
//! | `Call([a, b, …])` | one call of one of them |
//! | `None` | free text |
//! | `Auto` | its first token decides: if it can start a call of a declared tool, a call of any of them, otherwise text |

use super::constrain::Program;
use super::format::{self, Format};
use crate::session::{ChatConfig, ToolChoice, TurnRequest};
use crate::tool::ToolDeclaration;
use crate::tool::ValueSets;

/// What the model may write this turn.
pub(crate) enum Steering {
    /// A call of one of `tools`, constrained by `program`.
    Call {
        /// The tools it may call.
        tools: Vec<ToolDeclaration>,
        /// The constraint.
        program: Program,
    },
    /// Free text.
    Text,
    /// Text, or — if the first token starts one — a call admitted by `program`.
    Auto {
        /// Every declared tool.
        tools: Vec<ToolDeclaration>,
        /// The constraint over all of them.
        program: Program,
    },
}

/// Whether a call was asked for, in one word (for stats).
impl Steering {
    pub(crate) fn is_call(&self) -> bool {
        matches!(self, Self::Call { .. })
    }
}

/// The steering of a turn; `Err` names a tool that is not declared. Restricted values are
/// narrowed to their first `shown` (the most relevant, listed in the hint) when `shown > 0`.
pub(crate) fn steer(
    format: &dyn Format,
    config: &ChatConfig,
    request: &TurnRequest,
    shown: usize,
) -> Result<Steering, String> {
    let narrowed;
    let values: &ValueSets = if shown > 0 {
        narrowed = narrow(&request.values, shown);
        &narrowed
    } else {
        &request.values
    };
    let require = &request.require;
    let choice = &request.tool_choice;
    match choice {
        ToolChoice::None => Ok(Steering::Text),
        ToolChoice::Auto if config.tools.is_empty() => Ok(Steering::Text),
        ToolChoice::Auto => {
            let refs: Vec<&ToolDeclaration> = config.tools.iter().collect();
            Ok(Steering::Auto {
                program: Program::compile(&format::call_node(
                    format,
                    &refs,
                    values,
                    &[],
                    &request.quote,
                    &request.copy_sources,
                )),
                tools: config.tools.clone(),
            })
        }
        ToolChoice::Call(names) => {
            let mut tools = Vec::with_capacity(names.len());
            for name in names {
                let tool = config
                    .tools
                    .iter()
                    .find(|t| t.name == *name)
                    .ok_or_else(|| format!("the turn asks for `{name}`, which is not declared"))?;
                tools.push(tool.clone());
            }
            if tools.is_empty() {
                return Err("the turn asks for a call but names no tool".to_owned());
            }
            let refs: Vec<&ToolDeclaration> = tools.iter().collect();
            Ok(Steering::Call {
                program: Program::compile(&format::call_node(
                    format,
                    &refs,
                    values,
                    require,
                    &request.quote,
                    &request.copy_sources,
                )),
                tools,
            })
        }
    }
}

/// Each parameter's first `limit` values.
fn narrow(values: &ValueSets, limit: usize) -> ValueSets {
    values
        .iter()
        .map(|(tool, params)| {
            let params = params
                .iter()
                .map(|(param, choices)| {
                    (param.clone(), choices.iter().take(limit).cloned().collect())
                })
                .collect();
            (tool.clone(), params)
        })
        .collect()
}

/// The hint that follows the turn's input when one tool must be called: its restricted
/// parameters' values with labels (at most `limit` values per parameter; 0 turns hints off).
pub(crate) fn hints(
    format: &dyn Format,
    choice: &ToolChoice,
    values: &ValueSets,
    limit: usize,
) -> String {
    match choice {
        ToolChoice::Call(names) if names.len() == 1 && limit > 0 => {
            format::value_hints(format, &names[0], values, limit)
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::json::Json;
    use super::super::format::tests::config;
    use super::*;

    #[test]
    fn a_call_of_an_undeclared_tool_is_refused() {
        let turn = |choice: ToolChoice| TurnRequest::user("x").with_choice(choice);
        let call = |names: &[&str]| {
            turn(ToolChoice::Call(
                names.iter().map(|n| (*n).to_owned()).collect(),
            ))
        };
        assert!(steer(&Json, &config(), &call(&["nope"]), 8).is_err());
        assert!(steer(&Json, &config(), &call(&[]), 8).is_err());
        assert!(steer(&Json, &config(), &call(&["search_catalog"]), 8).is_ok_and(|s| s.is_call()));
        assert!(matches!(
            steer(&Json, &config(), &turn(ToolChoice::None), 8),
            Ok(Steering::Text)
        ));
        let no_tools = ChatConfig::default();
        assert!(matches!(
            steer(&Json, &no_tools, &turn(ToolChoice::Auto), 8),
            Ok(Steering::Text)
        ));
    }
}
