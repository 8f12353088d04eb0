//! Kitchen helper — an English cooking app whose tools arrive at run time, as a test domain
//! for the eval's arguments.
//!
//! The tools are declared the way a plugin or an MCP server hands them over: a JSON document
//! of OpenAI-style function declarations ([`TOOLS`]: names, descriptions, JSON Schemas — a
//! dotted name and a `format: float` among them), turned into [`ToolDefinition`]s with the
//! builder and given handlers over an in-memory kitchen. No parameter is marked
//! `from_request` or given a value provider: what the model writes is grounded by the
//! runtime's defaults only. Seven tools:
//!
//! | tool | kind |
//! |---|---|
//! | `search_recipes` | read-only |
//! | `get_recipe` | read-only |
//! | `show_shopping_list` | read-only |
//! | `units.convert` | read-only |
//! | `set_timer` | writes (not destructive) |
//! | `add_to_shopping_list` | destructive |
//! | `remove_from_shopping_list` | destructive |
//!
//! [`seeded`] gives the starting state (eight recipes, three items on the shopping list, no
//! timers), [`registry_builder`] the tools with three examples each cut to the first N, plus
//! three requests that need no tool. Eval binaries include it with
//! `#[path = "eval/domains/kitchen.rs"] mod kitchen;`.

use std::sync::{Arc, Mutex, MutexGuard};

use agent_core::{
    Example, Registry, RegistryBuilder, ToolDefinition, ToolError, ToolResult, ToolSchema,
};
use serde_json::{Value, json};

/// The system instruction of the kitchen helper.
pub(crate) const INSTRUCTIONS: &str = "You are Kitchen helper. You find recipes, show a \
recipe's ingredients, keep the shopping list, start kitchen timers and convert cooking \
units. Say only what the tool results say, in short friendly English. Answer without a tool \
when no tool is needed.";

/// The tools, as an app would receive them: OpenAI-style function declarations.
pub(crate) const TOOLS: &str = r#"[
  {"type": "function", "function": {
    "name": "search_recipes",
    "description": "Find recipes by dish, ingredient or cuisine.",
    "parameters": {"type": "object", "properties": {
      "query": {"type": "string", "description": "What to look for: a dish, an ingredient or a cuisine"},
      "max_minutes": {"type": "integer", "description": "Longest total cooking time, in minutes"}
    }, "required": ["query"]}}},
  {"type": "function", "function": {
    "name": "get_recipe",
    "description": "Show one recipe's ingredients and steps.",
    "parameters": {"type": "object", "properties": {
      "name": {"type": "string", "description": "The recipe's name"},
      "servings": {"type": "integer", "description": "How many people to scale it for"}
    }, "required": ["name"]}}},
  {"type": "function", "function": {
    "name": "show_shopping_list",
    "description": "Show what is on the shopping list.",
    "parameters": {"type": "object", "properties": {}}}},
  {"type": "function", "function": {
    "name": "units.convert",
    "description": "Convert a cooking amount from one unit to another.",
    "parameters": {"type": "object", "properties": {
      "amount": {"type": "number", "format": "float", "description": "How much, in the unit to convert from"},
      "from_unit": {"type": "string", "description": "The unit to convert from, e.g. cups, grams, ounces"},
      "to_unit": {"type": "string", "description": "The unit to convert to"}
    }, "required": ["amount", "from_unit", "to_unit"]}}},
  {"type": "function", "function": {
    "name": "set_timer",
    "description": "Start a kitchen timer.",
    "parameters": {"type": "object", "properties": {
      "minutes": {"type": "integer", "description": "Length of the timer, in minutes"},
      "label": {"type": "string", "description": "What the timer is for"}
    }, "required": ["minutes"]}}},
  {"type": "function", "function": {
    "name": "add_to_shopping_list",
    "description": "Add an item to the shopping list.",
    "parameters": {"type": "object", "properties": {
      "item": {"type": "string", "description": "The thing to buy"},
      "quantity": {"type": "integer", "description": "How many to buy"}
    }, "required": ["item"]}}},
  {"type": "function", "function": {
    "name": "remove_from_shopping_list",
    "description": "Remove an item from the shopping list.",
    "parameters": {"type": "object", "properties": {
      "item": {"type": "string", "description": "The item to remove"}
    }, "required": ["item"]}}}
]"#;

/// The tools that change the shopping list, which a person confirms.
const DESTRUCTIVE: [&str; 2] = ["add_to_shopping_list", "remove_from_shopping_list"];

/// The label people see for each tool.
const LABELS: [(&str, &str); 7] = [
    ("search_recipes", "Recipe search"),
    ("get_recipe", "Recipe"),
    ("show_shopping_list", "Shopping list"),
    ("units.convert", "Unit conversion"),
    ("set_timer", "Kitchen timer"),
    ("add_to_shopping_list", "Add to shopping list"),
    ("remove_from_shopping_list", "Remove from shopping list"),
];

/// One recipe of the kitchen's book.
#[derive(Debug, Clone)]
struct Recipe {
    name: &'static str,
    cuisine: &'static str,
    minutes: u32,
    serves: u32,
    ingredients: &'static [&'static str],
}

/// The recipe book.
const RECIPES: [Recipe; 8] = [
    Recipe {
        name: "Tomato basil pasta",
        cuisine: "Italian",
        minutes: 25,
        serves: 2,
        ingredients: &["pasta", "tomatoes", "basil", "garlic", "olive oil"],
    },
    Recipe {
        name: "Chicken curry",
        cuisine: "Indian",
        minutes: 45,
        serves: 4,
        ingredients: &["chicken", "onion", "curry paste", "coconut milk", "rice"],
    },
    Recipe {
        name: "Kimchi fried rice",
        cuisine: "Korean",
        minutes: 15,
        serves: 2,
        ingredients: &["rice", "kimchi", "egg", "spring onion", "sesame oil"],
    },
    Recipe {
        name: "Banana pancakes",
        cuisine: "American",
        minutes: 20,
        serves: 2,
        ingredients: &["banana", "flour", "egg", "milk", "butter"],
    },
    Recipe {
        name: "Greek salad",
        cuisine: "Greek",
        minutes: 10,
        serves: 2,
        ingredients: &["tomatoes", "cucumber", "feta", "olives", "red onion"],
    },
    Recipe {
        name: "Beef stew",
        cuisine: "French",
        minutes: 150,
        serves: 6,
        ingredients: &["beef", "carrots", "potatoes", "onion", "red wine"],
    },
    Recipe {
        name: "Miso soup",
        cuisine: "Japanese",
        minutes: 10,
        serves: 2,
        ingredients: &["miso paste", "tofu", "seaweed", "spring onion"],
    },
    Recipe {
        name: "Chocolate chip cookies",
        cuisine: "American",
        minutes: 30,
        serves: 12,
        ingredients: &["flour", "butter", "sugar", "egg", "chocolate chips"],
    },
];

/// Units the converter knows: name, other spellings, what it measures and its size in
/// millilitres or grams.
const UNITS: [(&str, &[&str], &str, f64); 9] = [
    ("cups", &["cup", "c"], "volume", 240.0),
    (
        "millilitres",
        &["ml", "milliliter", "milliliters", "millilitre"],
        "volume",
        1.0,
    ),
    (
        "litres",
        &["l", "liter", "liters", "litre"],
        "volume",
        1000.0,
    ),
    ("tablespoons", &["tablespoon", "tbsp"], "volume", 15.0),
    ("teaspoons", &["teaspoon", "tsp"], "volume", 5.0),
    ("grams", &["gram", "g"], "weight", 1.0),
    (
        "kilograms",
        &["kilogram", "kg", "kilo", "kilos"],
        "weight",
        1000.0,
    ),
    ("ounces", &["ounce", "oz"], "weight", 28.35),
    ("pounds", &["pound", "lb", "lbs"], "weight", 453.6),
];

/// The kitchen the tools share: the shopping list and the timers started.
#[derive(Debug, Default)]
pub(crate) struct Kitchen {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Item and quantity.
    shopping: Vec<(String, u32)>,
    /// Label and minutes.
    timers: Vec<(String, u32)>,
}

impl Kitchen {
    fn lock(&self) -> Result<MutexGuard<'_, State>, ToolError> {
        self.state
            .lock()
            .map_err(|_| ToolError::new("storage", "the kitchen's lists could not be read"))
    }
}

/// The starting state: milk, eggs (12) and flour on the shopping list, no timers.
pub(crate) fn seeded() -> Arc<Kitchen> {
    Arc::new(Kitchen {
        state: Mutex::new(State {
            shopping: vec![("milk".into(), 1), ("eggs".into(), 12), ("flour".into(), 1)],
            timers: Vec::new(),
        }),
    })
}

/// A string argument, trimmed, or an `invalid_argument` error naming it.
fn text(args: &Value, key: &str) -> Result<String, ToolError> {
    args.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| ToolError::new("invalid_argument", format!("`{key}` is missing or empty")))
}

/// An optional whole number within `1..=max`.
fn count(args: &Value, key: &str, max: u32) -> Result<Option<u32>, ToolError> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| (1..=max).contains(n))
            .map(Some)
            .ok_or_else(|| {
                ToolError::new("invalid_argument", format!("`{key}` must be 1 to {max}"))
            }),
    }
}

fn recipe_json(recipe: &Recipe) -> Value {
    json!({"name": recipe.name, "cuisine": recipe.cuisine, "minutes": recipe.minutes})
}

/// What one tool does with its arguments.
fn run(kitchen: &Kitchen, tool: &str, args: &Value) -> Result<Value, ToolError> {
    match tool {
        "search_recipes" => {
            let query = text(args, "query")?.to_lowercase();
            let within = count(args, "max_minutes", 24 * 60)?;
            let words: Vec<&str> = query.split_whitespace().collect();
            let found: Vec<Value> = RECIPES
                .iter()
                .filter(|r| within.is_none_or(|m| r.minutes <= m))
                .filter(|r| {
                    let about = format!("{} {} {}", r.name, r.cuisine, r.ingredients.join(" "))
                        .to_lowercase();
                    words
                        .iter()
                        .any(|w| about.contains(w.trim_end_matches('s')))
                })
                .map(recipe_json)
                .collect();
            Ok(json!({"query": query, "recipes": found}))
        }
        "get_recipe" => {
            let name = text(args, "name")?;
            let servings = count(args, "servings", 50)?;
            let lower = name.to_lowercase();
            let recipe = RECIPES
                .iter()
                .find(|r| {
                    r.name.to_lowercase().contains(&lower) || lower.contains(&r.name.to_lowercase())
                })
                .ok_or_else(|| {
                    ToolError::new("not_found", format!("no recipe called '{}'", clip(&name)))
                })?;
            Ok(json!({
                "name": recipe.name,
                "serves": servings.unwrap_or(recipe.serves),
                "minutes": recipe.minutes,
                "ingredients": recipe.ingredients,
            }))
        }
        "show_shopping_list" => {
            let state = kitchen.lock()?;
            let items: Vec<Value> = state
                .shopping
                .iter()
                .map(|(item, n)| json!({"item": item, "quantity": n}))
                .collect();
            Ok(json!({"items": items}))
        }
        "units.convert" => {
            let amount = args
                .get("amount")
                .and_then(Value::as_f64)
                .filter(|a| a.is_finite() && *a > 0.0 && *a < 1e6)
                .ok_or_else(|| {
                    ToolError::new("invalid_argument", "`amount` must be a positive number")
                })?;
            let unit = |key: &str| -> Result<(&'static str, &'static str, f64), ToolError> {
                let name = text(args, key)?.to_lowercase();
                UNITS
                    .iter()
                    .find(|(unit, others, _, _)| *unit == name || others.contains(&name.as_str()))
                    .map(|&(unit, _, kind, size)| (unit, kind, size))
                    .ok_or_else(|| {
                        ToolError::new(
                            "unknown_unit",
                            format!("'{}' is no unit I know", clip(&name)),
                        )
                    })
            };
            let (from, from_kind, from_size) = unit("from_unit")?;
            let (to, to_kind, to_size) = unit("to_unit")?;
            if from_kind != to_kind {
                return Err(ToolError::new(
                    "incompatible_units",
                    format!("{from} measure {from_kind} and {to} measure {to_kind}"),
                ));
            }
            let result = (amount * from_size / to_size * 100.0).round() / 100.0;
            Ok(json!({"amount": amount, "from": from, "result": result, "to": to}))
        }
        "set_timer" => {
            let minutes = count(args, "minutes", 24 * 60)?
                .ok_or_else(|| ToolError::new("invalid_argument", "`minutes` is missing"))?;
            let label = args
                .get("label")
                .and_then(Value::as_str)
                .map_or_else(|| "timer".to_owned(), clip);
            kitchen.lock()?.timers.push((label.clone(), minutes));
            Ok(json!({"label": label, "minutes": minutes}))
        }
        "add_to_shopping_list" => {
            let item = text(args, "item")?;
            let quantity = count(args, "quantity", 100)?.unwrap_or(1);
            let mut state = kitchen.lock()?;
            let lower = item.to_lowercase();
            match state.shopping.iter_mut().find(|(i, _)| *i == lower) {
                Some((_, n)) => *n += quantity,
                None => state.shopping.push((lower.clone(), quantity)),
            }
            Ok(json!({"item": clip(&lower), "quantity": quantity}))
        }
        "remove_from_shopping_list" => {
            let item = text(args, "item")?.to_lowercase();
            let mut state = kitchen.lock()?;
            let Some(at) = state.shopping.iter().position(|(i, _)| {
                *i == item || i.trim_end_matches('s') == item.trim_end_matches('s')
            }) else {
                return Err(ToolError::new(
                    "not_found",
                    format!("'{}' is not on the shopping list", clip(&item)),
                ));
            };
            let (removed, _) = state.shopping.remove(at);
            Ok(json!({"removed": removed}))
        }
        other => Err(ToolError::new(
            "unknown_tool",
            format!("no tool '{}'", clip(other)),
        )),
    }
}

/// At most 60 characters of `text`, for errors and stored labels.
fn clip(text: &str) -> String {
    text.chars().take(60).collect()
}

/// Three examples per tool, in the order they were written.
fn tool_examples() -> Vec<(&'static str, [(&'static str, Value); 3])> {
    vec![
        (
            "search_recipes",
            [
                ("Find me a pasta recipe", json!({"query": "pasta"})),
                (
                    "Any quick chicken dishes under 30 minutes?",
                    json!({"query": "chicken", "max_minutes": 30}),
                ),
                ("What Korean food can I make?", json!({"query": "Korean"})),
            ],
        ),
        (
            "get_recipe",
            [
                (
                    "Show me the recipe for beef stew",
                    json!({"name": "beef stew"}),
                ),
                ("What goes into miso soup?", json!({"name": "miso soup"})),
                (
                    "Banana pancakes for 4 people please",
                    json!({"name": "banana pancakes", "servings": 4}),
                ),
            ],
        ),
        (
            "show_shopping_list",
            [
                ("What's on my shopping list?", json!({})),
                ("Show the grocery list", json!({})),
                ("What do I still need to buy?", json!({})),
            ],
        ),
        (
            "units.convert",
            [
                (
                    "How many grams is 2 cups?",
                    json!({"amount": 2, "from_unit": "cups", "to_unit": "grams"}),
                ),
                (
                    "Convert 8 ounces to grams",
                    json!({"amount": 8, "from_unit": "ounces", "to_unit": "grams"}),
                ),
                (
                    "3 tablespoons in teaspoons?",
                    json!({"amount": 3, "from_unit": "tablespoons", "to_unit": "teaspoons"}),
                ),
            ],
        ),
        (
            "set_timer",
            [
                ("Set a timer for 10 minutes", json!({"minutes": 10})),
                (
                    "Timer 25 minutes for the cookies",
                    json!({"minutes": 25, "label": "cookies"}),
                ),
                (
                    "Remind me in 5 minutes to flip the steak",
                    json!({"minutes": 5, "label": "flip the steak"}),
                ),
            ],
        ),
        (
            "add_to_shopping_list",
            [
                ("Add butter to my shopping list", json!({"item": "butter"})),
                (
                    "Put 6 lemons on the list",
                    json!({"item": "lemons", "quantity": 6}),
                ),
                ("I need to buy olive oil", json!({"item": "olive oil"})),
            ],
        ),
        (
            "remove_from_shopping_list",
            [
                ("Take milk off the shopping list", json!({"item": "milk"})),
                ("Remove the flour, I have some", json!({"item": "flour"})),
                ("Cross eggs off my list", json!({"item": "eggs"})),
            ],
        ),
    ]
}

/// Requests that need no tool, with the answer's words; always included.
fn chat_examples() -> [Example; 3] {
    [
        Example::new("Hi there").answer("Hi! Want a recipe, a timer or your shopping list?"),
        Example::new("Thanks!").answer("You're welcome. Happy cooking!"),
        Example::new("What can you do?").answer(
            "I can find recipes, show a recipe, keep your shopping list, start timers and convert units.",
        ),
    ]
}

/// The kitchen tools, built from [`TOOLS`] with handlers over `kitchen`, the first
/// `examples_per_tool` examples of each tool (0 to 3) and the three chat examples.
pub(crate) fn registry_builder(
    kitchen: Arc<Kitchen>,
    examples_per_tool: usize,
) -> Result<RegistryBuilder, String> {
    let declarations: Vec<Value> =
        serde_json::from_str(TOOLS).map_err(|e| format!("kitchen tools: {e}"))?;
    let examples = tool_examples();
    let mut builder = Registry::builder();
    for declaration in &declarations {
        let function = &declaration["function"];
        let name = function["name"].as_str().unwrap_or_default().to_owned();
        let description = function["description"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let label = LABELS
            .iter()
            .find(|(tool, _)| *tool == name)
            .map_or(name.clone(), |(_, label)| (*label).to_owned());
        let shared = Arc::clone(&kitchen);
        let tool = name.clone();
        let mut definition = ToolDefinition::builder(name.clone(), description)
            .label(label)
            .schema(ToolSchema::from_validation(function["parameters"].clone()))
            .destructive(DESTRUCTIVE.contains(&name.as_str()))
            .handler(move |call: agent_core::CallContext| {
                let result = match run(&shared, &tool, call.args()) {
                    Ok(data) => ToolResult::ok(data),
                    Err(error) => ToolResult::Error(error),
                };
                std::future::ready(result)
            });
        if let Some((_, cases)) = examples.iter().find(|(tool, _)| *tool == name) {
            for (request, args) in cases.iter().take(examples_per_tool) {
                definition = definition.example(*request, args.clone());
            }
        }
        let definition = definition.build().map_err(|e| format!("{name}: {e}"))?;
        builder = builder.definition(definition);
    }
    Ok(chat_examples()
        .into_iter()
        .fold(builder, RegistryBuilder::example))
}
