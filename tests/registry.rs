//! Registry building: discovery of every `#[tool]`, subsets by name and by type, hand-built
//! definitions, and the start-up errors (unknown names, missing dependencies, bad definitions).

use agent_core::{Dep, Registry, RegistryError, ToolDefinition, ToolResult, ToolSchema, tool};
use serde_json::json;

struct Clock(&'static str);

/// Says what day it is.
#[tool(label = "오늘 날짜")]
async fn today(clock: Dep<Clock>) -> String {
    clock.0.to_owned()
}

/// Searches the catalog.
#[tool(label = "습관 검색")]
async fn search_catalog(
    /// Keyword.
    keyword: Option<String>,
) -> Vec<String> {
    keyword.into_iter().collect()
}

/// Adds a habit.
#[tool(destructive, label = "습관 추가")]
async fn add_habit(
    /// The habit text.
    framed_text: String,
) -> String {
    framed_text
}

fn names(registry: &Registry) -> Vec<&str> {
    registry.names().collect()
}

#[test]
fn discover_finds_every_tool_in_declaration_order() {
    let registry = Registry::builder()
        .discover()
        .dependency(Clock("2026-11-30"))
        .build()
        .expect("registry");
    assert_eq!(names(&registry), ["today", "search_catalog", "add_habit"]);
    let declarations = registry.declarations();
    assert_eq!(declarations.len(), 3);
    assert_eq!(declarations[1].name, "search_catalog");
    assert_eq!(declarations[1].description, "Searches the catalog.");
    assert_eq!(
        registry.get("add_habit").map(|t| t.label()),
        Some("습관 추가")
    );
    assert!(
        registry
            .get("add_habit")
            .is_some_and(|t| t.is_destructive())
    );
}

#[test]
fn discover_only_keeps_the_named_subset_in_that_order() {
    let registry = Registry::builder()
        .discover_only(["add_habit", "search_catalog"])
        .build()
        .expect("registry");
    assert_eq!(names(&registry), ["add_habit", "search_catalog"]);
}

#[test]
fn unknown_names_are_a_build_error_listing_what_exists() {
    let error = Registry::builder()
        .discover_only(["delete_all"])
        .build()
        .expect_err("unknown");
    assert_eq!(
        error.to_string(),
        "no tool named `delete_all` is linked into this binary (linked: add_habit, search_catalog, today); \
         a tool declared in another crate is only linked when the binary names that crate: \
         add it with `RegistryBuilder::discover_crate(&that_crate::TOOLS)`"
    );
}

#[test]
fn typed_selection_names_tools_by_type() {
    let registry = Registry::builder()
        .tool::<search_catalog>()
        .tool::<add_habit>()
        .build()
        .expect("registry");
    assert_eq!(names(&registry), ["search_catalog", "add_habit"]);
}

#[test]
fn selecting_the_same_tool_twice_registers_it_once() {
    let registry = Registry::builder()
        .tool::<add_habit>()
        .discover_only(["add_habit"])
        .build()
        .expect("registry");
    assert_eq!(names(&registry), ["add_habit"]);
}

#[test]
fn missing_dependencies_are_a_build_error() {
    let error = Registry::builder()
        .tool::<today>()
        .build()
        .expect_err("no clock");
    assert!(matches!(&error, RegistryError::MissingDependency { tool, .. } if tool == "today"));
    assert!(error.to_string().contains("registry::Clock"), "{error}");
}

/// A dispatcher over a registry of this one hand-built `definition`, denying every
/// confirmation.
fn dispatcher_of(definition: ToolDefinition) -> agent_core::Dispatcher {
    agent_core::Dispatcher::new(
        std::sync::Arc::new(
            Registry::builder()
                .definition(definition)
                .build()
                .expect("registry"),
        ),
        agent_core::DenyAll,
    )
}

#[tokio::test]
async fn numbers_in_the_common_schema_dialects_are_accepted_and_bounded() {
    // What OpenAI-style converters write for a float and an int32 argument.
    let area = ToolDefinition::builder("circle_area", "Area of a circle.")
        .schema(ToolSchema::from_validation(json!({
            "type": "object",
            "properties": {
                "radius": {"type": "number", "format": "float", "description": "Radius."},
                "digits": {"type": "integer", "format": "int32", "description": "Digits."},
                "scale": {"type": "number", "format": "double"},
                "count": {"type": "integer", "format": "int64"}
            },
            "required": ["radius"]
        })))
        .handler(|call: agent_core::CallContext| async move {
            let radius = call.args()["radius"].as_f64().unwrap_or_default();
            ToolResult::ok(json!({"area": std::f64::consts::PI * radius * radius}))
        })
        .build()
        .expect("a number's format is a range, not a string rule");
    let parameters = area.parameters().to_string();
    assert!(!parameters.contains("\"format\""), "{parameters}");
    assert!(
        parameters.contains("2147483647"),
        "int32 bounds shown: {parameters}"
    );
    let registry = dispatcher_of(area);
    let ok = registry
        .dispatch("circle_area", json!({"radius": 2.0, "digits": 2}))
        .await;
    assert!(ok.as_error().is_none(), "{ok:?}");
    let too_big = registry
        .dispatch(
            "circle_area",
            json!({"radius": 1.0, "digits": 3_000_000_000_i64}),
        )
        .await;
    assert_eq!(too_big.as_error().map(|e| e.code()), Some("validation"));

    // `format` on a number with a string's meaning is still refused.
    let wrong = ToolDefinition::builder("when", "When.")
        .schema(ToolSchema::from_validation(json!({
            "type": "object",
            "properties": {"at": {"type": "number", "format": "date-time"}}
        })))
        .handler(|_| async { ToolResult::ok(json!({})) })
        .build();
    assert!(wrong.is_err());
}

#[tokio::test]
async fn hand_built_definitions_work_like_declared_ones() {
    let echo = ToolDefinition::builder("echo", "Echoes a word.")
        .label("메아리")
        .schema(ToolSchema::from_validation(json!({
            "type": "object",
            "properties": {"word": {"type": "string", "description": "A word."}},
            "required": ["word"]
        })))
        .summary("'{word}'를 말합니다")
        .handler(|call: agent_core::CallContext| async move {
            ToolResult::ok(call.args()["word"].clone())
        })
        .build()
        .expect("definition");
    let registry = dispatcher_of(echo);
    assert_eq!(
        registry.dispatch("echo", json!({"word": "안녕"})).await,
        ToolResult::ok(json!("안녕"))
    );
    let invalid = registry.dispatch("echo", json!({})).await;
    assert_eq!(invalid.as_error().map(|e| e.code()), Some("validation"));
}

#[test]
fn a_hand_built_tool_cannot_shadow_a_declared_one() {
    let imposter = ToolDefinition::builder("add_habit", "Not the real one.")
        .handler(|_: agent_core::CallContext| async { ToolResult::ok(json!(null)) })
        .build()
        .expect("definition");
    let error = Registry::builder()
        .tool::<add_habit>()
        .definition(imposter)
        .build()
        .expect_err("duplicate");
    let message = error.to_string();
    assert!(
        message.starts_with("two tools are named `add_habit`: tests/registry.rs:"),
        "{message}"
    );
    assert!(message.contains("a hand-built definition"), "{message}");
}

#[test]
fn examples_kept_as_json_are_read_and_checked_when_the_registry_is_built() {
    let builder = || {
        Registry::builder()
            .discover_only(["search_catalog", "add_habit"])
            .dependency(Clock("2026-11-30"))
    };
    let file = r#"{
        "about": "what these examples are for",
        "examples": [{"request": "운동 습관 찾아줘", "calls": [{"tool": "search_catalog", "args": {"keyword": "운동"}}]}],
        "sections": [
            {"about": "no tool", "examples": [{"request": "고마워", "answer": "천만에요."}]},
            {"examples": [{"request": "걷기 추가", "calls": [{"tool": "add_habit", "args": {"framed_text": "걷기"}}]}]}
        ]
    }"#;
    let registry = builder()
        .examples_json("examples.json", file)
        .build()
        .expect("registry");
    let requests: Vec<&str> = registry.examples().map(|e| e.request()).collect();
    assert_eq!(requests, ["운동 습관 찾아줘", "고마워", "걷기 추가"]);
    assert_eq!(
        registry.examples().nth(1).and_then(|e| e.answer_text()),
        Some("천만에요.")
    );

    let broken = builder()
        .examples_json("broken.json", "{\"examples\": [{\"request\": \"a\",}]}")
        .build()
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        broken.starts_with("the examples of broken.json could not be read:")
            && broken.contains("line 1 column"),
        "{broken}"
    );
    let misspelt = builder()
        .examples_json(
            "typo.json",
            r#"{"examples": [{"request": "a", "answr": "b"}]}"#,
        )
        .build()
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(misspelt.contains("unknown field `answr`"), "{misspelt}");
    let wrong_tool = builder()
        .examples_json(
            "wrong.json",
            r#"{"examples": [{"request": "오늘 날짜", "calls": [{"tool": "today", "args": {}}]}]}"#,
        )
        .build();
    assert!(
        matches!(wrong_tool, Err(RegistryError::InvalidExample { ref tool, .. }) if tool == "today"),
        "an example in a file is checked like any other"
    );
}

#[test]
fn an_example_whose_value_the_request_does_not_mention_is_refused_with_what_it_does_mention() {
    let with_example = |request: &str, day: &str| {
        let log = ToolDefinition::builder("log_day", "Logs a day.")
            .schema(ToolSchema::from_validation(json!({
                "type": "object",
                "properties": {"day": {"type": "string", "description": "The day."}},
                "required": ["day"]
            })))
            .values("day", || {
                vec![
                    agent_core::ValueChoice::new(json!("today"), "오늘"),
                    agent_core::ValueChoice::new(json!("yesterday"), "어제"),
                ]
            })
            .from_request("day")
            .example(request, json!({ "day": day }))
            .handler(|_: agent_core::CallContext| async { ToolResult::ok(json!(null)) })
            .build()
            .expect("definition");
        Registry::builder()
            .definition(log)
            .build()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert_eq!(with_example("어제 기록해줘", "yesterday"), "");
    let other = with_example("어제 기록해줘", "today");
    assert!(
        other.contains("does not mention \"today\": it mentions \"yesterday\" (어제)")
            && other.contains("a word of its label"),
        "{other}"
    );
    let none = with_example("기록해줘", "today");
    assert_eq!(
        none, "",
        "a required value nobody mentions keeps all values"
    );
}

/// `ToolDefinition`s from OpenAI-style function declarations, as an app gets them from a
/// plugin or a converter: the name, description and parameters as they are.
fn from_openai(declarations: &serde_json::Value) -> Vec<ToolDefinition> {
    declarations
        .as_array()
        .expect("a list of declarations")
        .iter()
        .map(|declaration| {
            let function = &declaration["function"];
            let name = function["name"].as_str().expect("a name").to_owned();
            let description = function["description"].as_str().expect("a description");
            ToolDefinition::builder(name.clone(), description.to_owned())
                .schema(ToolSchema::from_validation(function["parameters"].clone()))
                .handler(move |call: agent_core::CallContext| {
                    let name = name.clone();
                    async move { ToolResult::ok(json!({"tool": name, "args": call.args().clone()})) }
                })
                .build()
                .expect("an OpenAI-style declaration registers as it is")
        })
        .collect()
}

#[tokio::test]
async fn tools_from_openai_style_json_keep_dotted_names_and_float_formats() {
    let declarations = json!([
        {"type": "function", "function": {
            "name": "math.factorial",
            "description": "Computes the factorial of a number.",
            "parameters": {"type": "object", "properties": {
                "number": {"type": "integer", "format": "int32", "description": "The number."}
            }, "required": ["number"]}
        }},
        {"type": "function", "function": {
            "name": "geometry.circle-area",
            "description": "Area of a circle.",
            "parameters": {"type": "object", "properties": {
                "radius": {"type": "number", "format": "float", "description": "The radius."}
            }, "required": ["radius"]}
        }}
    ]);
    let mut builder = Registry::builder();
    for definition in from_openai(&declarations) {
        builder = builder.definition(definition);
    }
    let registry = std::sync::Arc::new(builder.build().expect("registry"));
    assert_eq!(names(&registry), ["math.factorial", "geometry.circle-area"]);

    // The model is shown the names as declared, and its call of one is dispatched by it.
    let config = agent_core::ChatConfig::new("You are a calculator.", &registry);
    let shown: Vec<&str> = config.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(shown, ["math.factorial", "geometry.circle-area"]);
    let script = vec![
        vec![agent_core::llm::scripted::call(
            "geometry.circle-area",
            json!({"radius": 1.5}),
        )],
        agent_core::llm::scripted::text("About 7.07."),
    ];
    let session = agent_core::llm::scripted::ScriptedSession::new(config, script);
    let transcript = session.transcript();
    let mut agent = agent_core::Agent::new(session, std::sync::Arc::clone(&registry))
        .with_strategy(agent_core::choice::Strategy::Model);
    assert_eq!(
        agent.send("area of r=1.5").await.expect("answer"),
        "About 7.07."
    );
    let fed_back = transcript.received().tool_results;
    assert_eq!(fed_back.len(), 1, "{fed_back:?}");
    assert_eq!(fed_back[0][0].name, "geometry.circle-area");
    assert_eq!(
        fed_back[0][0].result["data"],
        json!({"tool": "geometry.circle-area", "args": {"radius": 1.5}}),
        "{:?}",
        fed_back[0][0].result
    );

    // A name no MCP client or model could write is still refused.
    let bad = ToolDefinition::builder("math factorial", "Computes.")
        .handler(|_| async { ToolResult::ok(json!({})) })
        .build();
    assert!(bad.is_err());
}
