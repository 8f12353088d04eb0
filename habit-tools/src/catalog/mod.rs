//! The bundled Korean catalog: build protocols, break protocols and diets, compiled into the
//! crate from `catalog.json` and parsed once. Owns the entry types, lookup by id
//! ([`Catalog::get`]) and `query_protocol`'s result; searching lives in [`search`].
//!
//! Kinds and their own fields:
//!
//! | kind | id prefix | fields |
//! |---|---|---|
//! | build | `build.` | `cue`, `routine`, `reward`, `minimum_dose`, `suggested_anchor` |
//! | break | `break.` | `trigger`, `replacement`, `friction[]` |
//! | diet  | `diet.`  | `rules[]`, `favor[]`, `limit[]`, `duration`, `caution?` |
//!
//! Every entry also has `id`, `title`, `category` (one of the display categories) and a
//! one-line `summary`, plus search `tags` (Korean and English) that are never returned.

pub mod search;

use std::sync::LazyLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{HabitError, echo};

pub use search::{CatalogItem, CatalogSearch};

/// The catalog source, checked by the tests in this module.
const CATALOG_JSON: &str = include_str!("catalog.json");

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| {
    // The file is part of the crate, not input: the tests below parse it, so a broken catalog
    // fails `cargo test` long before it could fail here.
    let mut catalog: Catalog = serde_json::from_str(CATALOG_JSON)
        .expect("bundled catalog.json parses (see catalog tests)");
    catalog.index = catalog.entries.iter().map(search::Indexed::new).collect();
    catalog
});

/// The bundled catalog, parsed on first use.
pub fn catalog() -> &'static Catalog {
    &CATALOG
}

/// The whole catalog: display categories and entries, in file order.
#[derive(Debug, Deserialize)]
pub struct Catalog {
    categories: Vec<Category>,
    entries: Vec<CatalogEntry>,
    /// Lowercased search fields, parallel to `entries`.
    #[serde(skip)]
    index: Vec<search::Indexed>,
}

/// A display category, e.g. 수면 (`sleep`).
#[derive(Debug, Clone, Deserialize)]
pub struct Category {
    /// English id, e.g. `sleep`.
    pub id: String,
    /// Korean display name, e.g. `수면`; the name shown in results.
    pub name: String,
    /// Other names a user or model may use for it (Korean and English).
    pub aliases: Vec<String>,
}

/// One catalog entry.
#[derive(Debug, Clone, Deserialize)]
pub struct CatalogEntry {
    /// Stable id, e.g. `build.morning-walk`.
    pub id: String,
    /// Short Korean title.
    pub title: String,
    /// The display category's id (e.g. `sleep`).
    pub category: String,
    /// One-line Korean summary.
    pub summary: String,
    /// Search keywords, Korean and English. Not returned to the model.
    pub tags: Vec<String>,
    /// The kind and its own fields.
    #[serde(flatten)]
    pub details: ProtocolDetails,
}

/// An entry's kind with the fields only that kind has. Serialised with a `kind` tag.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ProtocolDetails {
    /// A habit to build.
    Build(BuildProtocol),
    /// A habit to break, by replacing it.
    Break(BreakProtocol),
    /// A way of eating. Not a habit protocol: R8 refuses it in `add_habit`.
    Diet(DietPlan),
}

impl ProtocolDetails {
    /// The kind's name: `build`, `break` or `diet`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Build(_) => "build",
            Self::Break(_) => "break",
            Self::Diet(_) => "diet",
        }
    }
}

/// The fields of a build protocol: the habit loop plus where to start.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildProtocol {
    /// What reminds you: a place, time or preceding action.
    pub cue: String,
    /// The behaviour itself.
    pub routine: String,
    /// What makes it feel good right away.
    pub reward: String,
    /// The smallest version that still counts as done, for bad days.
    pub minimum_dose: String,
    /// A suggested existing routine to attach it to ("after …").
    pub suggested_anchor: String,
}

/// The fields of a break protocol: what sets it off, what to do instead, how to make it harder.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BreakProtocol {
    /// The usual trigger situations.
    pub trigger: String,
    /// The replacement behaviour, framed as something to do.
    pub replacement: String,
    /// Ways to add friction to the old habit.
    pub friction: Vec<String>,
}

/// The fields of a diet.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DietPlan {
    /// The rules to follow.
    pub rules: Vec<String>,
    /// Foods to favour.
    pub favor: Vec<String>,
    /// Foods to limit.
    pub limit: Vec<String>,
    /// How long to try it.
    pub duration: String,
    /// Who should ask a doctor first, if anyone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caution: Option<String>,
}

/// `query_protocol`'s result: the entry without its search tags, category as its Korean name.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ProtocolInfo {
    /// The entry id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its display category's Korean name.
    pub category: String,
    /// Its one-line summary.
    pub summary: String,
    /// `kind` and the kind's own fields, flattened into this object.
    #[serde(flatten)]
    pub details: ProtocolDetails,
}

impl Catalog {
    /// The entry with this id (exact, after trimming surrounding whitespace).
    pub fn get(&self, id: &str) -> Option<&CatalogEntry> {
        let id = id.trim();
        self.entries.iter().find(|e| e.id == id)
    }

    /// All entries, in catalog order.
    pub fn entries(&self) -> &[CatalogEntry] {
        &self.entries
    }

    /// All display categories, in catalog order.
    pub fn categories(&self) -> &[Category] {
        &self.categories
    }

    /// The Korean display name of a category id (the id itself if unknown).
    pub fn category_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.categories
            .iter()
            .find(|c| c.id == id)
            .map_or(id, |c| c.name.as_str())
    }

    /// `query_protocol`: the entry's kind-specific fields; an unknown id is `not_found`.
    pub fn query_protocol(&self, id: &str) -> Result<ProtocolInfo, HabitError> {
        let entry = self.get(id).ok_or_else(|| HabitError::NotFound {
            what: format!("protocol '{}'", echo(id)),
        })?;
        Ok(ProtocolInfo {
            id: entry.id.clone(),
            title: entry.title.clone(),
            category: self.category_name(&entry.category).to_owned(),
            summary: entry.summary.clone(),
            details: entry.details.clone(),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn parses_with_enough_entries_of_every_kind() {
        let c = catalog();
        assert!(c.entries().len() >= 30, "{}", c.entries().len());
        for kind in ["build", "break", "diet"] {
            let n = c
                .entries()
                .iter()
                .filter(|e| e.details.kind() == kind)
                .count();
            assert!(n >= 5, "only {n} {kind} entries");
        }
        assert!(c.categories().len() >= 6);
    }

    #[test]
    fn ids_are_unique_and_prefixed_by_their_kind() {
        let mut seen = HashSet::new();
        for e in catalog().entries() {
            assert!(seen.insert(e.id.as_str()), "duplicate id {}", e.id);
            let prefix = format!("{}.", e.details.kind());
            assert!(
                e.id.starts_with(&prefix),
                "{} should start with {prefix}",
                e.id
            );
            assert!(
                e.id[prefix.len()..]
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}: ids are lowercase ascii with dashes",
                e.id
            );
        }
    }

    #[test]
    fn every_entry_is_complete_and_in_a_known_category() {
        let c = catalog();
        let category_ids: HashSet<&str> = c.categories().iter().map(|c| c.id.as_str()).collect();
        let category_names: HashSet<&str> =
            c.categories().iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            category_ids.len(),
            c.categories().len(),
            "category ids unique"
        );
        assert_eq!(
            category_names.len(),
            c.categories().len(),
            "category names unique"
        );
        for e in c.entries() {
            assert!(
                category_ids.contains(e.category.as_str()),
                "{}: {}",
                e.id,
                e.category
            );
            for text in [&e.title, &e.summary] {
                assert!(!text.trim().is_empty(), "{}", e.id);
            }
            assert!(
                e.summary.chars().count() <= 32,
                "{}: summary too long for search results",
                e.id
            );
            assert!(
                e.tags.iter().any(|t| t.is_ascii()),
                "{}: needs English tags",
                e.id
            );
            assert!(
                e.tags.iter().any(|t| !t.is_ascii()),
                "{}: needs Korean tags",
                e.id
            );
            let texts: Vec<&String> = match &e.details {
                ProtocolDetails::Build(b) => {
                    vec![
                        &b.cue,
                        &b.routine,
                        &b.reward,
                        &b.minimum_dose,
                        &b.suggested_anchor,
                    ]
                }
                ProtocolDetails::Break(b) => {
                    assert!(!b.friction.is_empty(), "{}", e.id);
                    std::iter::once(&b.trigger)
                        .chain([&b.replacement])
                        .chain(&b.friction)
                        .collect()
                }
                ProtocolDetails::Diet(d) => {
                    assert!(!d.rules.is_empty() && !d.favor.is_empty() && !d.limit.is_empty());
                    d.rules
                        .iter()
                        .chain(&d.favor)
                        .chain(&d.limit)
                        .chain([&d.duration])
                        .collect()
                }
            };
            assert!(
                texts.iter().all(|t| !t.trim().is_empty()),
                "{}: empty field",
                e.id
            );
        }
    }

    #[test]
    fn suggested_behaviours_practise_what_r7_preaches() {
        // The catalog's own routines and replacements are what a model copies into framed_text,
        // so they must pass R7 themselves.
        for e in catalog().entries() {
            let text = match &e.details {
                ProtocolDetails::Build(b) => &b.routine,
                ProtocolDetails::Break(b) => &b.replacement,
                ProtocolDetails::Diet(_) => continue,
            };
            assert_eq!(crate::rules::find_avoidance(text), None, "{}: {text}", e.id);
        }
    }

    #[test]
    fn query_protocol_returns_kind_specific_fields() {
        let c = catalog();
        let walk = serde_json::to_value(c.query_protocol("build.morning-walk").unwrap()).unwrap();
        assert_eq!(walk["kind"], "build");
        assert_eq!(walk["category"], "운동");
        assert!(walk["minimum_dose"].is_string() && walk["cue"].is_string());
        assert!(walk.get("tags").is_none(), "tags are for search only");

        let snack =
            serde_json::to_value(c.query_protocol(" break.late-night-snacking ").unwrap()).unwrap();
        assert_eq!(snack["kind"], "break");
        assert!(snack["friction"].is_array() && snack["replacement"].is_string());

        let dash = serde_json::to_value(c.query_protocol("diet.dash").unwrap()).unwrap();
        assert_eq!(dash["kind"], "diet");
        assert!(dash["rules"].is_array() && dash["caution"].is_string());
        let dinner =
            serde_json::to_value(c.query_protocol("diet.sleep-friendly-dinner").unwrap()).unwrap();
        assert!(
            dinner.get("caution").is_none(),
            "absent caution is omitted, not null"
        );
    }

    #[test]
    fn query_protocol_unknown_id_is_not_found() {
        for id in ["", "build.nope", "BUILD.MORNING-WALK", &"x".repeat(10_000)] {
            let err = catalog().query_protocol(id).unwrap_err();
            assert_eq!(err.code(), "not_found", "{id:.20}");
            assert!(err.to_string().len() < 120);
        }
    }

    #[test]
    fn every_protocol_result_is_small() {
        for e in catalog().entries() {
            let json = serde_json::to_string(&catalog().query_protocol(&e.id).unwrap()).unwrap();
            assert!(json.len() <= 1500, "{}: {} bytes", e.id, json.len());
        }
    }
}
