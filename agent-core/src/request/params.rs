//! A tool's parameters read against a request: the values of its `from_request` parameters
//! the request mentions, the optional parameters whose value it said, whether a call would
//! ask nothing the request said, and how many values it writes for a required parameter.

use std::collections::BTreeMap;

use serde_json::Value;

use super::copies::{description_of, key_words, nothing_to_copy, without_examples};
use super::labels::value_after;
use super::mentions::{mentioned, set_aside, targeted};
use super::numbers::{numbers_with_unit, numbers_within, numbers_written};
use super::quantities::{grounded_number_parameters, grounded_numbers, is_number, numbers_for};
use super::text::{Request, Said, has_hangul, name_parts};
use crate::tool::schema::admits_type;
use crate::tool::{ToolDefinition, ValueChoice};

/// One tool's value sets for this turn: parameter → choices.
type Params = BTreeMap<String, Vec<ValueChoice>>;

/// Narrows one tool's value sets for this turn (parameter → choices) to what the `request`
/// mentions, for its parameters declared
/// [`from_request`](crate::ToolDefinitionBuilder::from_request) that are not free text:
///
/// - a parameter with a value provider keeps the values the request mentions — by the value
///   itself (`"수면"`) or by a word of its label (`수면 (잠, 숙면, …)` is mentioned by "잠이
///   안 와요"; words of digits alone do not count) — in the order they had; of several, only
///   the one marked as what something becomes, where one is ("체크된 거 쉰 날로 바꿔줘":
///   `blank`; see [`targeted`]);
/// - an integer parameter gets the numbers the request writes with its unit ("3개만" →
///   `3`), an optional one else any number it contains, within its schema's range; a
///   required number parameter else gets the quantities the request writes for it ("3만2천원"
///   → `32000`, see [`numbers_for`]);
/// - a free-text parameter the request labels ("메모: 20쪽 읽음") gets the labelled text
///   alone (see [`labelled`]).
///
/// And for any tool: a grounded number takes a quantity written for it (see
/// [`grounded_numbers`]), an optional boolean without a value provider is set only where
/// the request names it (see [`grounded_flags`]), and an optional grounded text the request
/// leaves nothing to copy for gets no value (see [`nothing_to_copy`]).
///
/// An empty set means the model leaves the parameter out; a *required* parameter the request
/// does not mention keeps its provider's values (or stays unrestricted), since the call
/// cannot be written without it. Matching is case-insensitive, so "수면을" mentions `수면`.
pub(crate) fn keep_mentioned(tool: &ToolDefinition, params: &mut Params, request: &Request) {
    let lower = request.lower();
    let required = tool.required_parameters();
    for param in tool.from_request_parameters() {
        let prop = tool.parameter(param);
        let is_required = required.contains(&param.as_str());
        if let Some(choices) = params.get_mut(param) {
            let mut said = mentioned(request, choices);
            if said.iter().filter(|s| **s).count() > 1 {
                // The old value and the new: the one marked as what it becomes, if one is.
                let target: Vec<bool> = targeted(request, choices)
                    .into_iter()
                    .zip(&said)
                    .map(|(t, s)| t && *s)
                    .collect();
                if target.iter().filter(|t| **t).count() == 1 {
                    said = target;
                } else {
                    // The one not meant ("2번 말고 1번") leaves, where another stays.
                    let kept: Vec<bool> = set_aside(request, choices)
                        .into_iter()
                        .zip(&said)
                        .map(|(aside, s)| *s && !aside)
                        .collect();
                    if kept.contains(&true) {
                        said = kept;
                    }
                }
            }
            let kept: Vec<ValueChoice> = choices
                .iter()
                .zip(said)
                .filter(|(_, said)| *said)
                .map(|(c, _)| c.clone())
                .collect();
            if !kept.is_empty() || !is_required {
                *choices = kept;
            }
        } else if prop.is_some_and(is_number) {
            // A number written with the parameter's unit ("3개", "1단계") is the value; other
            // digits are offered to an optional integer. A required number takes a quantity
            // the request writes, as a person writes it ("3만2천원", "45,000", "150k"):
            // labelled for it where one is, else any — never one the model makes up; with
            // none written it stays the model's to write.
            let integer = prop.is_some_and(|prop| admits_type(prop, "integer"));
            let with_unit = if integer {
                numbers_with_unit(lower, prop)
            } else {
                Vec::new()
            };
            if !with_unit.is_empty() {
                params.insert(param.clone(), with_unit);
            } else if !is_required {
                if integer {
                    params.insert(param.clone(), numbers_within(lower, prop));
                }
            } else if let Some((_, values)) = numbers_for(tool, &[param], lower).pop() {
                params.insert(param.clone(), values);
            }
        }
    }
    // A grounded number takes a quantity the request writes for it; an optional one the
    // request writes none for is left out.
    params.extend(grounded_numbers(tool, lower));
    // An optional flag is written only where the request names it.
    params.extend(grounded_flags(tool, request));
    // An optional text the request leaves nothing to copy for is left out.
    for param in nothing_to_copy(tool, request) {
        params.insert(param, Vec::new());
    }
    // A labelled value is the only one the call may write (see `labelled`).
    for (param, value) in labelled(tool, request) {
        params.insert(param, vec![ValueChoice::new(value.clone(), value)]);
    }
}

/// The optional parameters of `tool` whose value the request said, judged from this turn's
/// narrowed `params` (see [`keep_mentioned`]): `from_request` parameters with a value
/// provider that kept a value, free-text ones the request labels (see [`labelled`]),
/// grounded numbers it writes a quantity for ("under 30 minutes"), and flags it names
/// ("셔플로", see [`grounded_flags`]).
/// The person said "어제", so the call writes `date: "yesterday"` rather than leaving it out
/// and meaning today; they said "수면", so the search names it; they wrote "메모: 20쪽 읽음",
/// so the call carries the note; they wrote "3개만", so the search asks for three. Numbers
/// without the parameter's unit are not made to appear: a bare number in a request is as
/// often a dose ("10분 걷기") as a count, and unlabelled free text is the model's to copy or
/// leave out.
pub(crate) fn said(tool: &ToolDefinition, params: &Params, request: &Request) -> Vec<String> {
    let required = tool.required_parameters();
    let lower = request.lower();
    let free_text = |param: &str| {
        tool.parameter(param)
            .is_some_and(|p| admits_type(p, "string"))
    };
    let with_unit = |param: &str| {
        tool.parameter(param).is_some_and(|prop| {
            admits_type(prop, "integer") && !numbers_with_unit(lower, Some(prop)).is_empty()
        })
    };
    // A grounded number keeps a value only where the request labels one for it.
    tool.from_request_parameters()
        .iter()
        .filter(|param| {
            tool.has_value_provider(param) || free_text(param.as_str()) || with_unit(param.as_str())
        })
        .chain(grounded_number_parameters(tool))
        .chain(flag_parameters(tool))
        .filter(|param| params.get(*param).is_some_and(|kept| !kept.is_empty()))
        .filter(|param| !required.contains(&param.as_str()))
        .cloned()
        .collect()
}

/// The optional flags of `tool`: boolean parameters without a value provider.
fn flag_parameters(tool: &ToolDefinition) -> impl Iterator<Item = &String> {
    let required = tool.required_parameters();
    tool.parameters()
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(move |(name, prop)| {
            !required.contains(&name.as_str())
                && !tool.has_value_provider(name)
                && prop.get("type").and_then(Value::as_str) == Some("boolean")
        })
        .map(|(name, _)| name)
}

/// The values each optional flag of `tool` (a boolean parameter without a value provider)
/// may take for `request`: `true` where the request says one of the flag's own words
/// ("셔플로 재생해줘" for a `shuffle` described "재생목록 셔플 여부"), `false` where it says
/// them only to refuse ("셔플은 하지마", "no shuffle"), and none — the call leaves the flag
/// out — where it says none of them. A flag's own words are its name's parts and the words
/// of its description that neither the tool's description nor another parameter's name or
/// description has ("재생목록" and "여부" are every flag's; "셔플" is this one's). Without
/// this a small model writes every flag it sees, with a value nobody asked for.
pub(crate) fn grounded_flags(
    tool: &ToolDefinition,
    request: &Request,
) -> Vec<(String, Vec<ValueChoice>)> {
    let flags: Vec<&String> = flag_parameters(tool).collect();
    if flags.is_empty() {
        return Vec::new();
    }
    let props = tool
        .parameters()
        .get("properties")
        .and_then(Value::as_object);
    let words_of = |name: &str| -> Vec<String> {
        let description = props
            .and_then(|props| props.get(name))
            .map_or("", description_of);
        let mut words = name_parts(name);
        words.retain(|w| w.chars().count() >= 3);
        words.extend(key_words(without_examples(description)));
        words
    };
    let shared: Vec<String> = props
        .into_iter()
        .flatten()
        .flat_map(|(name, _)| words_of(name).into_iter().map(move |w| (name, w)))
        .filter_map(|(name, word)| {
            let elsewhere = props
                .into_iter()
                .flatten()
                .any(|(other, _)| other != name && words_of(other).contains(&word));
            elsewhere.then_some(word)
        })
        .chain(key_words(tool.description()))
        .collect();
    flags
        .into_iter()
        .map(|flag| {
            let own: Vec<String> = words_of(flag)
                .into_iter()
                .filter(|w| !shared.contains(w))
                .collect();
            let said: Vec<Said> = own.iter().map(|w| request.said(w)).collect();
            let values = if said.contains(&Said::Asked) {
                vec![ValueChoice::new(true, "true")]
            } else if said.contains(&Said::Refused) {
                vec![ValueChoice::new(false, "false")]
            } else {
                Vec::new()
            };
            (flag.clone(), values)
        })
        .collect()
}

/// Whether a call of `tool` would say nothing the request asked for: the tool takes
/// parameters; the request names none of the values of its required ones (each of which
/// has a value provider); and its optional ones are all read from the request, which named
/// a value for none of them (judged from this turn's `params`, narrowed by
/// [`keep_mentioned`]). `search_catalog({})` for "21일 법칙이 진짜야?" lists the whole
/// catalog, and `query_protocol` for "작은 습관이 왜 효과가 있어요?" describes whichever
/// protocol the model picks — answers to no question the person asked.
pub(crate) fn asks_nothing(
    tool: &ToolDefinition,
    params: Option<&Params>,
    request: &Request,
) -> bool {
    let Some(properties) = tool
        .parameters()
        .get("properties")
        .and_then(Value::as_object)
    else {
        return false;
    };
    let required = tool.required_parameters();
    let choices = |name: &str| params.and_then(|params| params.get(name));
    !properties.is_empty()
        && properties.keys().all(|name| {
            if required.contains(&name.as_str()) {
                // A word most values share ("습관" in the label of every build and break
                // protocol) names none of them.
                choices(name).is_some_and(|choices| {
                    let named = mentioned(request, choices).iter().filter(|m| **m).count();
                    named == 0 || named > (choices.len() / 2).max(1)
                })
            } else {
                tool.from_request_parameters().contains(name)
                    && choices(name).is_none_or(Vec::is_empty)
            }
        })
}

/// How [`names_every_required`] counts a parameter whose values are labelled in Korean when
/// the message is not: words cannot tell whether it names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OtherScript {
    /// As named: the benefit of the doubt, where other evidence chose the tool.
    Named,
    /// As not named: where the words alone would choose it.
    Unnamed,
}

/// Whether the request names a value of every required parameter of `tool` that has a value
/// provider (judged from this turn's `params`): "3번 제목을 바꿔줘" names a task but no day,
/// so it is no request to change a task's due date, however much "바꿔" reads like one.
/// Words cannot tell for a message not in Korean and values labelled in Korean ("Delete the
/// milk and eggs task" may well name "우유 계란 사기"): `other_script` says how such a
/// parameter counts.
pub(crate) fn names_every_required(
    tool: &ToolDefinition,
    params: Option<&Params>,
    request: &Request,
    other_script: OtherScript,
) -> bool {
    tool.required_parameters().iter().all(|name| {
        params
            .and_then(|params| params.get(*name))
            .is_none_or(|choices| {
                mentioned(request, choices).contains(&true)
                    || (other_script == OtherScript::Named
                        && !request.is_korean()
                        && choices.iter().any(|choice| has_hangul(&choice.label)))
            })
    })
}

/// The optional free-text parameters of `tool` that the request labels — by the parameter's
/// name or a word of its description, followed by a colon ("메모: 20쪽 읽음" labels a `note`
/// described as "짧은 메모(선택)") or by a quoted text after at most a particle ("메모로 '비
/// 와서 조금만' 남겨줘", "메모는 \"회식\"이라고") — each with what follows the colon to the end
/// of its line, or what the quotes hold (a label with nothing after it, or more than the
/// schema's `maxLength`, gives nothing). A person who writes the label means the value after
/// it; without this, a free-text parameter is the model's to copy or leave out (see
/// [`said`]), and a small model leaves it out or copies the wrong words.
pub(crate) fn labelled(tool: &ToolDefinition, request: &Request) -> Vec<(String, String)> {
    let lower = request.lower();
    let text = request.text();
    let required = tool.required_parameters();
    tool.from_request_parameters()
        .iter()
        .filter(|param| !tool.has_value_provider(param))
        .filter(|param| !required.contains(&param.as_str()))
        .filter_map(|param| {
            let prop = tool.parameter(param)?;
            if !admits_type(prop, "string") {
                return None;
            }
            let description = prop
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or("");
            let (start, end) = std::iter::once(param.as_str())
                .chain(description.split(|c: char| !c.is_alphanumeric()))
                .filter(|word| word.chars().count() >= 2)
                .find_map(|label| value_after(lower, label))?;
            // Lower-casing can change byte lengths; the value is cut from the original only
            // where it did not.
            let value = (lower.len() == text.len())
                .then(|| text.get(start..end).unwrap_or(""))
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
                .filter(|v| {
                    prop.get("maxLength")
                        .and_then(Value::as_u64)
                        .is_none_or(|max| v.chars().count() as u64 <= max)
                })?;
            Some((param.clone(), value))
        })
        .collect()
}

/// The most distinct values that the request writes as numbers for any one required
/// parameter of `tool` with a value provider, judged from this turn's `params`: "1번이랑 3번
/// 오늘 완료" writes two habits, so the call is made once for each.
pub(crate) fn most_written(tool: &ToolDefinition, params: &Params, request: &Request) -> usize {
    tool.required_parameters()
        .iter()
        .filter_map(|name| params.get(*name))
        .map(|choices| numbers_written(request.text(), choices).len())
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::{Deps, ToolResult, ToolSchema};

    fn search_tool() -> ToolDefinition {
        let schema = serde_json::json!({
            "type": "object",
            "required": ["kind"],
            "properties": {
                "category": {"type": "string"},
                "keyword": {"type": "string"},
                "kind": {"type": "string"},
                "limit": {
                    "type": ["integer", "null"],
                    "minimum": 1,
                    "maximum": 10,
                    "description": "최대 개수(개)"
                },
                "note": {"type": "string"}
            }
        });
        ToolDefinition::builder("search", "d")
            .schema(ToolSchema::from_validation(schema))
            .values("category", || {
                vec![
                    ValueChoice::new("수면", "수면 (잠, 숙면)"),
                    ValueChoice::new("디지털", "디지털 (스마트폰, 폰)"),
                    ValueChoice::new("오늘", "오늘 (2025-03-10)"),
                ]
            })
            .values("keyword", || {
                vec![
                    ValueChoice::new("커피", "커피"),
                    ValueChoice::new("물", "물"),
                ]
            })
            .values("kind", || {
                vec![ValueChoice::new("a", "에이"), ValueChoice::new("b", "비")]
            })
            .from_request("category")
            .from_request("keyword")
            .from_request("kind")
            .from_request("limit")
            .from_request("note")
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool")
    }

    fn narrowed(request: &str) -> std::collections::BTreeMap<String, Vec<Value>> {
        let tool = search_tool();
        let mut params: std::collections::BTreeMap<_, _> =
            tool.current_values(&Deps::default()).into_iter().collect();
        keep_mentioned(&tool, &mut params, &Request::new(request));
        params
            .into_iter()
            .map(|(param, choices)| (param, choices.into_iter().map(|c| c.value).collect()))
            .collect()
    }

    /// The numbers of a grounded (undeclared) tool as `keep_mentioned` leaves them.
    fn grounded_numbers_of(schema: Value, request: &str) -> BTreeMap<String, Vec<Value>> {
        let tool = ToolDefinition::builder("t", "d")
            .schema(ToolSchema::from_validation(schema))
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let mut params = BTreeMap::new();
        keep_mentioned(&tool, &mut params, &Request::new(request));
        params
            .into_iter()
            .map(|(param, choices)| (param, choices.into_iter().map(|c| c.value).collect()))
            .collect()
    }

    #[test]
    fn grounded_numbers_are_the_quantities_written_for_them() {
        let bmi = serde_json::json!({
            "type": "object",
            "properties": {
                "height": {"type": "number", "description": "센티미터 단위의 키"},
                "weight": {"type": "number", "description": "킬로그램 단위의 무게"}
            },
            "required": ["height", "weight"]
        });
        let params = grounded_numbers_of(bmi.clone(), "몸무게75키로에 키180으로 계산해줘");
        assert_eq!(
            params["height"],
            [Value::from(180)],
            "labelled by the word before"
        );
        assert_eq!(params["weight"], [Value::from(75)]);
        let params = grounded_numbers_of(bmi.clone(), "BMI 알려줘");
        assert!(
            params.is_empty(),
            "required and not written: left to the model"
        );

        let split = serde_json::json!({
            "type": "object",
            "properties": {
                "bill_total": {"type": "number", "description": "청구된 총 금액"},
                "num_people": {"type": "integer", "description": "나누어 내는 사람들의 수"},
                "tip": {"type": "integer", "description": "팁 비율"}
            },
            "required": ["bill_total", "num_people"]
        });
        let params = grounded_numbers_of(split, "참석한 사람은 네명이고 총액은 92,000원이야");
        assert_eq!(
            params["num_people"],
            [Value::from(4)],
            "a counter of people"
        );
        assert_eq!(
            params["bill_total"],
            [Value::from(92000)],
            "what no other parameter is labelled by"
        );
        assert_eq!(
            params["tip"],
            Vec::<Value>::new(),
            "optional and unlabelled: left out"
        );
    }

    #[test]
    fn a_required_amount_taken_from_the_request_is_a_quantity_it_writes() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {
                "amount": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 10_000_000,
                    "description": "금액(원). 5천원은 5000처럼 숫자로"
                },
                "memo": {"type": "string"}
            },
            "required": ["amount"]
        });
        let tool = ToolDefinition::builder("add_expense", "d")
            .schema(ToolSchema::from_validation(schema))
            .from_request("amount")
            .from_request("memo")
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let amounts = |request: &str| {
            let mut params = BTreeMap::new();
            keep_mentioned(&tool, &mut params, &Request::new(request));
            params
                .remove("amount")
                .map(|choices| choices.into_iter().map(|c| c.value).collect::<Vec<_>>())
        };
        assert_eq!(
            amounts("그저께 화장품 3만2천원 질렀어요"),
            Some(vec![Value::from(32000)])
        );
        assert_eq!(
            amounts("3월 8일에 축의금 10만 원 냈어"),
            Some(vec![Value::from(100_000)]),
            "the amount labelled by its unit, not the date's numbers"
        );
        assert_eq!(
            amounts("Log 45,000 for groceries"),
            Some(vec![Value::from(45000)])
        );
        assert_eq!(amounts("Set a 150k cap"), Some(vec![Value::from(150_000)]));
        assert_eq!(
            amounts("점심 기록해줘"),
            None,
            "none written: the model's to write"
        );
    }

    #[test]
    fn from_request_values_are_those_the_request_mentions() {
        let params = narrowed("잠이 안 와요, 커피 때문에. 3개만 보여줘");
        assert_eq!(params["category"], [Value::from("수면")], "by a label word");
        assert_eq!(params["keyword"], [Value::from("커피")], "by the value");
        assert_eq!(params["limit"], [Value::from(3)], "a number in the request");
        assert!(!params.contains_key("note"), "free text stays a copy");
        assert_eq!(
            params["kind"].len(),
            2,
            "required and unmentioned: all kept"
        );

        let params = narrowed("2025년 3월 10일 폰 사용 30분 줄이기, 물 5잔");
        assert_eq!(
            params["category"],
            [Value::from("디지털")],
            "words of digits alone mention nothing"
        );
        assert_eq!(params["keyword"], [Value::from("물")]);
        assert_eq!(
            params["limit"],
            [Value::from(3), Value::from(10), Value::from(5)]
        );

        let params = narrowed("폰 사용 30분 줄이기 2개, 물 5잔");
        assert_eq!(
            params["limit"],
            [Value::from(2)],
            "a number with the unit its description names is the value"
        );

        let params = narrowed("KIND b, 아무거나. interest: abc");
        assert!(
            params["category"].is_empty(),
            "optional and unmentioned: left out"
        );
        assert!(params["limit"].is_empty());
        assert_eq!(params["kind"], [Value::from("b")], "case-insensitive");
    }

    #[test]
    fn a_call_asks_nothing_when_the_request_names_none_of_its_values() {
        let optional = serde_json::json!({
            "type": "object",
            "properties": {
                "keyword": {"type": ["string", "null"]},
                "limit": {
                    "type": ["integer", "null"],
                    "minimum": 1,
                    "maximum": 10,
                    "description": "최대 몇 개"
                }
            }
        });
        let search = ToolDefinition::builder("search", "d")
            .schema(ToolSchema::from_validation(optional))
            .values("keyword", || vec![ValueChoice::new("수면", "수면")])
            .from_request("keyword")
            .from_request("limit")
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let asks = |tool: &ToolDefinition, request: &str| {
            let mut params: std::collections::BTreeMap<_, _> =
                tool.current_values(&Deps::default()).into_iter().collect();
            keep_mentioned(tool, &mut params, &Request::new(request));
            asks_nothing(tool, Some(&params), &Request::new(request))
        };
        assert!(
            asks(&search, "21일 법칙이 진짜야?"),
            "21 is no count it takes"
        );
        assert!(!asks(&search, "수면 습관"), "a keyword named");
        assert!(!asks(&search, "아무거나 3개"), "a count written");

        let required = serde_json::json!({
            "type": "object",
            "required": ["id"],
            "properties": {"id": {"type": "string"}}
        });
        let query = ToolDefinition::builder("query", "d")
            .schema(ToolSchema::from_validation(required))
            .values("id", || {
                vec![
                    ValueChoice::new("a", "걷기 · 만들 습관"),
                    ValueChoice::new("b", "독서 · 만들 습관"),
                    ValueChoice::new("c", "야식 · 끊을 습관"),
                ]
            })
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        assert!(!asks(&query, "독서 자세히"), "one value named");
        assert!(
            asks(&query, "작은 습관이 왜 효과가 있어요?"),
            "a word most values share names none"
        );
        assert!(!asks(&search_tool(), "kind b"), "a required value named");
        assert!(asks(&search_tool(), "아무거나"));
    }

    #[test]
    fn said_values_are_the_optional_ones_the_request_named() {
        let tool = search_tool();
        let said_in = |request: &str| {
            let mut params: std::collections::BTreeMap<_, _> =
                tool.current_values(&Deps::default()).into_iter().collect();
            keep_mentioned(&tool, &mut params, &Request::new(request));
            said(&tool, &params, &Request::new(request))
        };
        assert_eq!(
            said_in("잠이 안 와요, 커피 때문에. 3개만 보여줘"),
            ["category", "keyword", "limit"],
            "not the required kind; the number written with its unit"
        );
        assert_eq!(
            said_in("커피 10분 전에"),
            ["keyword"],
            "a number without the unit is not said"
        );
        assert!(said_in("KIND b, 아무거나").is_empty());
    }

    #[test]
    fn most_written_counts_numbers_of_a_required_provided_parameter() {
        let schema = serde_json::json!({
            "type": "object",
            "required": ["habit_id"],
            "properties": {
                "habit_id": {"type": "integer"},
                "minutes": {"type": ["integer", "null"]}
            }
        });
        let tool = ToolDefinition::builder("log", "d")
            .schema(ToolSchema::from_validation(schema))
            .values("habit_id", || {
                (1..=3)
                    .map(|id| ValueChoice::new(id, format!("habit {id}")))
                    .collect::<Vec<_>>()
            })
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let params: std::collections::BTreeMap<_, _> =
            tool.current_values(&Deps::default()).into_iter().collect();
        let written = |text: &str| most_written(&tool, &params, &Request::new(text));
        assert_eq!(written("1번이랑 3번 오늘 완료"), 2);
        assert_eq!(written("3번이랑 3번"), 1, "distinct values");
        assert_eq!(written("2번 30분 했어"), 1, "30 is no habit");
        assert_eq!(written("걷기 했어"), 0);
        assert_eq!(
            written("지난 금요일(3/7)에 1번 했어"),
            1,
            "a date's numbers are no habits"
        );
        assert_eq!(written("1번, 3번 9:30에"), 2);
    }

    #[test]
    fn a_free_text_parameter_the_request_labels_is_written() {
        let schema = serde_json::json!({
            "type": "object",
            "required": ["habit_id"],
            "properties": {
                "habit_id": {"type": "integer"},
                "note": {"type": ["string", "null"], "description": "짧은 메모(선택)"},
                "title": {"type": ["string", "null"], "description": "제목"}
            }
        });
        let tool = ToolDefinition::builder("log", "d")
            .schema(ToolSchema::from_validation(schema))
            .from_request("note")
            .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
            .build()
            .expect("tool");
        let labels_note = |request: &str, value: &str, why: &str| {
            assert_eq!(
                labelled(&tool, &Request::new(request)),
                [("note".to_owned(), value.to_owned())],
                "{why}"
            );
        };
        let names = |request: &str| -> Vec<String> {
            labelled(&tool, &Request::new(request))
                .into_iter()
                .map(|(name, _)| name)
                .collect()
        };
        labels_note(
            "1번 했어. 메모: 20쪽 읽음\n고마워",
            "20쪽 읽음",
            "the rest of its line",
        );
        labels_note("1번 했어 note : Park", "Park", "by its name");
        labels_note(
            "1번 오늘 완료하고 메모로 '비 와서 조금만' 남겨줘",
            "비 와서 조금만",
            "quoted after a particle",
        );
        labels_note(
            "3번은 쉼, 메모는 “회식”이라고 적어줘",
            "회식",
            "in curly quotes",
        );
        labels_note("메모: '공원'", "공원", "a colon, then quotes");
        assert!(
            names("메모하는 습관 '일기' 추가").is_empty(),
            "a longer word before the quote is no particle"
        );
        assert!(names("메모 '안 닫힘").is_empty(), "an unclosed quote");
        assert!(names("메모:").is_empty(), "nothing after the label");
        assert!(names("1번 했어. 메모 남기지 마").is_empty(), "no colon");
        assert!(
            names("제목: 산책").is_empty(),
            "not a from_request parameter"
        );
        assert!(names("단메모: x").is_empty(), "inside another word");
        let mut params = std::collections::BTreeMap::new();
        keep_mentioned(
            &tool,
            &mut params,
            &Request::new("1번 했어. 메모: 20쪽 읽음"),
        );
        let kept: Vec<&Value> = params["note"].iter().map(|c| &c.value).collect();
        assert_eq!(
            kept,
            [&Value::from("20쪽 읽음")],
            "the only value the call may write"
        );
        assert_eq!(
            said(&tool, &params, &Request::new("1번 했어. 메모: 20쪽 읽음")),
            ["note"],
            "and the call writes it"
        );
    }

    #[test]
    fn a_flag_is_written_only_where_the_request_names_it() {
        let schema = serde_json::json!({"type": "object", "required": ["playlist"], "properties": {
            "playlist": {"type": "string", "description": "재생목록의 이름"},
            "shuffle": {"type": "boolean", "description": "재생목록 셔플 여부"},
            "repeat": {"type": "boolean", "description": "재생목록 반복 여부"}
        }});
        let tool =
            ToolDefinition::builder("start_playlist", "사용자가 요청하는 재생목록을 재생합니다.")
                .schema(ToolSchema::from_validation(schema))
                .handler(|_| std::future::ready(ToolResult::ok(serde_json::json!({}))))
                .build()
                .expect("tool");
        let flags = |request: &str| -> Vec<(String, Vec<Value>)> {
            grounded_flags(&tool, &Request::new(request))
                .into_iter()
                .map(|(name, choices)| (name, choices.into_iter().map(|c| c.value).collect()))
                .collect()
        };
        let (t, f) = (Value::Bool(true), Value::Bool(false));
        assert_eq!(
            flags("플레이리스트중에 드라이브뮤직 틀어줘"),
            [
                ("shuffle".to_owned(), vec![]),
                ("repeat".to_owned(), vec![])
            ]
        );
        assert_eq!(
            flags("어반클래식 셔플로 재생해줘"),
            [
                ("shuffle".to_owned(), vec![t.clone()]),
                ("repeat".to_owned(), vec![])
            ]
        );
        assert_eq!(
            flags("kpop mix 틀어줘 반복옵션 켜고 셔플은 하지마"),
            [
                ("shuffle".to_owned(), vec![f]),
                ("repeat".to_owned(), vec![t])
            ]
        );
    }
}
