//! The values each step of a plan may take: what the app's providers offer now, narrowed
//! to what the request mentions, ordered by how much each looks like the request (and, in a
//! later step, by whether the results so far show it), and the arguments the step must
//! write.

use serde_json::Value;

use super::router::Router;
use crate::dispatch::Dispatcher;
use crate::request::{self, Request};
use crate::tool::{ValueChoice, ValueSets};

/// How many times more alike than the runner-up a value must be to be the only one allowed.
const CLEAR_MATCH: f32 = 1.5;
/// The least similarity (0 to 1) that can be a clear match: below it the ranking is noise.
const CLEAR_MATCH_MIN: f32 = 0.15;

/// What the model may write for restricted parameters when answering `request`: the
/// caller's [current values](Dispatcher::current_values), with the tools' `from_request`
/// parameters narrowed to what the request mentions (see
/// [`ToolDefinitionBuilder::from_request`](crate::ToolDefinitionBuilder::from_request)),
/// in the providers' order. A [`TurnPlan`](super::TurnPlan)'s values are these, ordered by
/// the request.
pub fn values_for(tools: &Dispatcher, request: &str) -> ValueSets {
    narrowed(tools, &Request::new(request))
}

/// [`values_for`] of a request already read.
pub(super) fn narrowed(tools: &Dispatcher, request: &Request) -> ValueSets {
    narrowed_from(tools, tools.current_values(), request)
}

/// [`narrowed`], from the providers' values `current` already asked for.
pub(super) fn narrowed_from(
    tools: &Dispatcher,
    current: ValueSets,
    request: &Request,
) -> ValueSets {
    let mut current = current;
    for tool in tools.tools() {
        let mut params = current.remove(tool.name()).unwrap_or_default();
        request::keep_mentioned(tool, &mut params, request);
        if !params.is_empty() {
            current.insert(tool.name().to_owned(), params);
        }
    }
    current
}

/// Orders every parameter's values by how much their labels (and words, and the values
/// themselves) look like the `request`, most alike first, so a backend that can show only a
/// few shows the ones the request is probably about. Numbers the request writes that are
/// values come first, in the order written ("2번이랑 3번"); in a later step, text values the
/// results so far contain (`results`, their JSON) come before those they do not — the id to
/// add is one the search just found. Equally alike values keep the provider's order.
///
/// A value the request names clearly is left alone, so the model cannot pick another (it
/// would otherwise pick by what it likes to write): the only one the request mentions by a
/// word of its label or its other words ("보리차도 마셨어" names the 보리차 habit), or,
/// failing that, one far more alike than the runner-up —
/// among all values, or among those the results contain — or, failing that, the only value
/// the request writes as a number ("목록 보여주고 2번 연속 기록도" means habit 2 after a
/// list of every habit).
pub(super) fn rank(
    values: &mut ValueSets,
    router: &Router,
    request: &Request,
    results: Option<&str>,
) {
    let query = router.query(request.text());
    for params in values.values_mut() {
        for choices in params.values_mut() {
            let scores: Vec<f32> = choices
                .iter()
                .map(|choice| router.similarity_to(&query, &choice.text()))
                .collect();
            let found: Vec<bool> = choices
                .iter()
                .map(|choice| match (&choice.value, results) {
                    (Value::String(text), Some(results)) => {
                        results.contains(&Value::String(text.clone()).to_string())
                    }
                    _ => false,
                })
                .collect();
            let written = request::numbers_written(request.text(), choices);
            let mut order: Vec<usize> = (0..choices.len())
                .filter(|i| !written.contains(i))
                .collect();
            order.sort_by(|&a, &b| {
                found[b]
                    .cmp(&found[a])
                    .then(scores[b].total_cmp(&scores[a]))
            });
            let among_found: Vec<usize> = order.iter().copied().filter(|&i| found[i]).collect();
            let mut by_score = order.clone();
            by_score.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
            // A value mentioned only as the one not meant ("2번 말고 1번") is not said.
            let aside = request::set_aside(request, choices);
            let said: Vec<usize> = request::mentioned(request, choices)
                .into_iter()
                .zip(&aside)
                .enumerate()
                .filter_map(|(i, (said, aside))| (said && !aside).then_some(i))
                .collect();
            let written: Vec<usize> = if written.iter().any(|&i| !aside[i]) {
                written.into_iter().filter(|&i| !aside[i]).collect()
            } else {
                written
            };
            let clear = match said.as_slice() {
                [only] => Some(*only),
                _ => None,
            }
            .or_else(|| clear_best(&by_score, &scores))
            .or_else(|| clear_best(&among_found, &scores))
            .or(match written.as_slice() {
                [only] => Some(*only),
                _ => None,
            });
            let order: Vec<usize> = match clear {
                Some(i) => vec![i],
                None => written.into_iter().chain(order).collect(),
            };
            let mut taken: Vec<Option<ValueChoice>> = choices.drain(..).map(Some).collect();
            choices.extend(
                order
                    .into_iter()
                    .filter_map(|i| taken.get_mut(i).and_then(Option::take)),
            );
        }
    }
}

/// The first of `order` (indices into `scores`, best first) if it is far more alike than
/// the runner-up.
fn clear_best(order: &[usize], scores: &[f32]) -> Option<usize> {
    match order {
        [best, second, ..]
            if scores[*best] >= CLEAR_MATCH_MIN
                && scores[*best] >= CLEAR_MATCH * scores[*second] =>
        {
            Some(*best)
        }
        _ => None,
    }
}

/// Moves the values earlier calls of this turn wrote for a parameter of the same name
/// behind the others, so the second of two calls ("2번이랑 3번 둘 다", "2번 마감 모레로
/// 바꾸고 우유 사기는 지워") is not about the first one's thing again. A value that is the only
/// one left stays.
pub(super) fn demote_written(values: &mut ValueSets, written: &[(String, Value)]) {
    for (_, args) in written {
        for params in values.values_mut() {
            for (param, choices) in params.iter_mut() {
                let Some(used) = args.get(param) else {
                    continue;
                };
                let (again, fresh): (Vec<_>, Vec<_>) =
                    choices.drain(..).partition(|c| c.value == *used);
                choices.extend(fresh);
                choices.extend(again);
            }
        }
    }
}

/// The arguments a call of `tool` must write: those the nearest example wrote (`nearest`)
/// and the optional ones whose value the person said — a value named, a free-text one
/// labelled ("메모: …") — read off this turn's narrowed `values`.
pub(super) fn required(
    tools: &Dispatcher,
    tool: &str,
    nearest: Option<&Vec<String>>,
    values: &ValueSets,
    request: &Request,
) -> Vec<String> {
    let mut require = nearest.cloned().unwrap_or_default();
    let Some(definition) = tools.get(tool) else {
        return require;
    };
    if let Some(params) = values.get(tool) {
        for name in request::said(definition, params, request) {
            if !require.contains(&name) {
                require.push(name);
            }
        }
    }
    require
}

/// The label of the first parameter `tool` requires that has no value to take this turn
/// (its provider has nothing to offer), if one has none.
pub(super) fn nothing_to_choose(
    tools: &Dispatcher,
    tool: &str,
    values: &ValueSets,
) -> Option<String> {
    let definition = tools.get(tool)?;
    let params = values.get(tool)?;
    definition
        .required_parameters()
        .into_iter()
        .find(|param| params.get(*param).is_some_and(Vec::is_empty))
        .map(|param| crate::layer::confirm::parameter_label(definition, param))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn habits() -> ValueSets {
        let choices = vec![
            ValueChoice::new(1, "아침 커피 후 10분 걷기").with_words(["산책"]),
            ValueChoice::new(2, "자기 전 책 10쪽 읽기").with_words(["독서"]),
            ValueChoice::new(3, "밤 9시 이후 보리차 마시기"),
        ];
        let params = std::iter::once(("habit_id".to_owned(), choices)).collect();
        std::iter::once(("log".to_owned(), params)).collect()
    }

    fn ranked(request: &str, results: Option<&str>, written: &[(String, Value)]) -> Vec<Value> {
        let router = Router::train([
            ("1번 오늘 했어", vec!["log".to_owned()], 1.0),
            ("안녕", Vec::new(), 1.0),
        ]);
        let mut values = habits();
        rank(&mut values, &router, &Request::new(request), results);
        demote_written(&mut values, written);
        values["log"]["habit_id"]
            .iter()
            .map(|c| c.value.clone())
            .collect()
    }

    #[test]
    fn values_the_request_names_come_first() {
        assert_eq!(
            ranked("독서 며칠째야?", None, &[])[0],
            json!(2),
            "by a word: first"
        );
        assert_eq!(
            ranked("보리차 마셨어", None, &[]),
            [json!(3)],
            "by the label"
        );
        assert_eq!(
            ranked(
                "목록 보여주고 2번 연속 기록도",
                Some(r#"{"items":[1,2,3]}"#),
                &[]
            ),
            [json!(2)],
            "by the only number that is a value, whatever the results show"
        );
        assert_eq!(
            ranked("오늘 3번이랑 1번 했어", None, &[]),
            [json!(3), json!(1), json!(2)],
            "two numbers: first as written"
        );
        assert_eq!(
            ranked("아 그리고 보리차도", None, &[]),
            [json!(3)],
            "the only value a word of the request names"
        );
        assert_eq!(
            ranked("3월 7일에 산책했어", None, &[]),
            [json!(1)],
            "a date names no habit"
        );
        let first = [("log".to_owned(), json!({"habit_id": 3}))];
        assert_eq!(
            ranked("오늘 3번이랑 1번 했어", None, &first),
            [json!(1), json!(2), json!(3)],
            "the second call does not write the first one's value again"
        );
    }

    #[test]
    fn a_later_step_prefers_what_the_results_contain() {
        let router = Router::train([("물 찾아줘", vec!["q".to_owned()], 1.0)]);
        let choices = ["a.walk", "b.water", "c.tea"]
            .map(|id| ValueChoice::new(id, "습관"))
            .to_vec();
        let params = std::iter::once(("id".to_owned(), choices)).collect();
        let mut values: ValueSets = std::iter::once(("q".to_owned(), params)).collect();
        rank(
            &mut values,
            &router,
            &Request::new("자세히 알려줘"),
            Some(r#"{"items":[{"id":"c.tea"},{"id":"b.water"}]}"#),
        );
        let order: Vec<&Value> = values["q"]["id"].iter().map(|c| &c.value).collect();
        assert_eq!(
            order,
            [&json!("b.water"), &json!("c.tea"), &json!("a.walk")]
        );
    }
}
