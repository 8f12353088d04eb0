//! `search_catalog`: filtering the catalog by display category and ranking it by keyword.
//!
//! - **category** is matched after lowercasing and dropping spaces, `-`, `_` and `/`, against each
//!   category's English id, Korean name and aliases: `Sleep`, `sleep`, `수면` and `잠` all find
//!   the sleep entries. An unknown category is an `invalid_value` error that lists the known
//!   ones, so a model can correct itself instead of concluding the catalog is empty.
//! - **keyword** is split on whitespace; each word is looked for (case-insensitively) in the
//!   title, summary, tags, id and category names of every entry. A Korean word also tries
//!   itself without a trailing particle (`수면을` → `수면`). Entries matching more words, and in
//!   weightier fields (title > tags > summary, id, category), come first; ties keep catalog
//!   order.
//! - **limit** is 1–10 (default 5). `count` is the number of items returned.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Catalog, CatalogEntry, Category};
use crate::error::{HabitError, echo};
use crate::rules::{self, MAX_QUERY_CHARS};

/// Default number of items when `limit` is not given.
pub const DEFAULT_LIMIT: i64 = 5;
/// Largest allowed `limit`.
pub const MAX_LIMIT: i64 = 10;

/// `search_catalog`'s result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CatalogSearch {
    /// How many items follow.
    pub count: usize,
    /// The matching entries, best first.
    pub items: Vec<CatalogItem>,
}

/// One search hit: just enough to pick an entry and call `query_protocol` with its id.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CatalogItem {
    /// The entry id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its display category's Korean name.
    pub category: String,
    /// Its one-line summary.
    pub summary: String,
}

/// Lowercased copies of an entry's searchable text, built once with the catalog.
#[derive(Debug)]
pub(super) struct Indexed {
    title: String,
    summary: String,
    id: String,
    tags: Vec<String>,
}

impl Indexed {
    pub(super) fn new(entry: &CatalogEntry) -> Self {
        Self {
            title: entry.title.to_lowercase(),
            summary: entry.summary.to_lowercase(),
            id: entry.id.to_lowercase(),
            tags: entry.tags.iter().map(|t| t.to_lowercase()).collect(),
        }
    }
}

/// Korean particles a keyword may carry (`수면을`, `운동이`), longest first.
const PARTICLES: &[&str] = &[
    "으로", "에서", "하고", "을", "를", "이", "가", "은", "는", "에", "의", "도", "로", "와", "과",
    "랑",
];

impl Catalog {
    /// `search_catalog(category?, keyword?, limit?)`. See the module docs for the matching rules.
    pub fn search(
        &self,
        category: Option<&str>,
        keyword: Option<&str>,
        limit: Option<i64>,
    ) -> Result<CatalogSearch, HabitError> {
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(n) if (1..=MAX_LIMIT).contains(&n) => n,
            Some(n) => {
                return Err(HabitError::InvalidValue {
                    field: "limit",
                    reason: format!("{n} is not between 1 and {MAX_LIMIT}"),
                });
            }
        };
        // The same text checks as stored texts (blank is absent, no control or format
        // characters, NFC so decomposed Hangul finds what precomposed Hangul finds).
        let category = match rules::optional_text("category", category, MAX_QUERY_CHARS)? {
            None => None,
            Some(c) => Some(self.resolve_category(&c)?),
        };
        let keyword =
            rules::optional_text("keyword", keyword, MAX_QUERY_CHARS)?.map(|k| k.to_lowercase());
        let words: Vec<Vec<String>> = keyword
            .as_deref()
            .map(|k| k.split_whitespace().map(word_variants).collect())
            .unwrap_or_default();

        let mut hits: Vec<(u32, usize)> = self
            .entries
            .iter()
            .zip(&self.index)
            .enumerate()
            .filter(|(_, (entry, _))| category.is_none_or(|c| entry.category == c.id))
            .filter_map(|(i, (entry, indexed))| {
                if words.is_empty() {
                    return Some((0, i));
                }
                let category = self.categories.iter().find(|c| c.id == entry.category);
                let score: u32 = words
                    .iter()
                    .map(|variants| word_score(variants, indexed, category))
                    .sum();
                (score > 0).then_some((score, i))
            })
            .collect();
        // Stable sort: equal scores keep catalog order.
        hits.sort_by_key(|&(score, _)| std::cmp::Reverse(score));

        let items: Vec<CatalogItem> = hits
            .into_iter()
            .take(usize::try_from(limit).unwrap_or(1))
            .map(|(_, i)| {
                let e = &self.entries[i];
                CatalogItem {
                    id: e.id.clone(),
                    title: e.title.clone(),
                    category: self.category_name(&e.category).to_owned(),
                    summary: e.summary.clone(),
                }
            })
            .collect();
        Ok(CatalogSearch {
            count: items.len(),
            items,
        })
    }

    /// The category a user or model meant, by id, Korean name or alias.
    pub fn resolve_category(&self, name: &str) -> Result<&Category, HabitError> {
        let wanted = squash(name);
        self.categories
            .iter()
            .find(|c| {
                squash(&c.id) == wanted
                    || squash(&c.name) == wanted
                    || c.aliases.iter().any(|a| squash(a) == wanted)
            })
            .ok_or_else(|| {
                let known: Vec<String> = self
                    .categories
                    .iter()
                    .map(|c| format!("{}({})", c.name, c.id))
                    .collect();
                HabitError::InvalidValue {
                    field: "category",
                    reason: format!(
                        "unknown category '{}'; use one of: {}",
                        echo(name),
                        known.join(", ")
                    ),
                }
            })
    }
}

/// Lowercase, without spaces and separators: `Digital Wellbeing` ~ `digital-wellbeing`.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '-' | '_' | '/' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A keyword word and, for Korean, the same word without a trailing particle. The stem must keep
/// at least two characters so `요가` does not turn into a one-syllable match-anything.
fn word_variants(word: &str) -> Vec<String> {
    let mut variants = vec![word.to_owned()];
    if let Some(stem) = PARTICLES.iter().find_map(|p| word.strip_suffix(p))
        && stem.chars().count() >= 2
    {
        variants.push(stem.to_owned());
    }
    variants
}

/// How well one keyword word (any of its variants) matches an entry: the best field it hits.
fn word_score(variants: &[String], e: &Indexed, category: Option<&Category>) -> u32 {
    variants
        .iter()
        .map(|w| {
            let tag_hit = e
                .tags
                .iter()
                .any(|t| t.contains(w.as_str()) || tag_inside_word(t, w));
            let category_hit = category.is_some_and(|c| {
                let w = squash(w);
                squash(&c.id) == w
                    || squash(&c.name) == w
                    || c.aliases.iter().any(|a| squash(a) == w)
            });
            if e.title.contains(w.as_str()) {
                3
            } else if tag_hit {
                2
            } else if e.summary.contains(w.as_str()) || e.id.contains(w.as_str()) || category_hit {
                1
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0)
}

/// Whether a whole tag sits inside a longer keyword word: `아침운동` (written without a space)
/// contains the tags `아침` and `운동`; `walking` and `stretches` start with `walk` and
/// `stretch`. English tags must start the word and have four letters or more, so `bread` does
/// not find `read`, nor `digital` a two-letter tag.
fn tag_inside_word(tag: &str, word: &str) -> bool {
    if tag.is_ascii() {
        tag.len() >= 4 && word.starts_with(tag)
    } else {
        tag.chars().count() >= 2 && word.contains(tag)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::super::catalog;
    use super::*;

    fn ids(result: &CatalogSearch) -> Vec<&str> {
        result.items.iter().map(|i| i.id.as_str()).collect()
    }

    #[test]
    fn no_filters_returns_default_limit_in_catalog_order() {
        let r = catalog().search(None, None, None).unwrap();
        assert_eq!(r.count, 5);
        assert_eq!(r.items.len(), 5);
        assert_eq!(r.items[0].id, catalog().entries()[0].id);
    }

    #[test]
    fn category_accepts_english_korean_any_case_and_aliases() {
        let expected = catalog().search(Some("sleep"), None, Some(10)).unwrap();
        assert!(expected.count >= 5);
        assert!(expected.items.iter().all(|i| i.category == "수면"));
        for name in ["Sleep", "SLEEP", " sleep ", "수면", "잠", "Bedtime"] {
            let r = catalog().search(Some(name), None, Some(10)).unwrap();
            assert_eq!(ids(&r), ids(&expected), "{name}");
        }
        let digital = catalog()
            .search(Some("Digital Wellbeing"), None, Some(10))
            .unwrap();
        assert!(digital.count >= 3 && digital.items.iter().all(|i| i.category == "디지털"));
    }

    #[test]
    fn unknown_category_lists_the_known_ones() {
        let err = catalog().search(Some("astrology"), None, None).unwrap_err();
        assert_eq!(err.code(), "invalid_value");
        let reason = err.to_string();
        assert!(
            reason.contains("수면(sleep)") && reason.contains("운동(exercise)"),
            "{reason}"
        );
    }

    #[test]
    fn keyword_matches_english_tags_and_korean_text() {
        let r = catalog().search(None, Some("morning"), Some(10)).unwrap();
        assert!(ids(&r).contains(&"build.morning-walk"), "{:?}", ids(&r));
        let r = catalog().search(None, Some("걷기"), None).unwrap();
        assert_eq!(r.items[0].id, "build.morning-walk", "title hits rank first");
        let r = catalog().search(None, Some("COFFEE"), None).unwrap();
        assert!(ids(&r).contains(&"break.late-caffeine"));
        let r = catalog().search(None, Some("커피"), None).unwrap();
        assert!(ids(&r).contains(&"break.late-caffeine"));
    }

    #[test]
    fn more_matching_words_rank_higher() {
        let r = catalog().search(None, Some("아침 걷기"), Some(10)).unwrap();
        assert_eq!(r.items[0].id, "build.morning-walk");
        let r = catalog()
            .search(None, Some("morning walk"), Some(3))
            .unwrap();
        assert_eq!(r.items[0].id, "build.morning-walk");
    }

    #[test]
    fn english_word_forms_find_their_stem_tags_but_not_substrings() {
        let r = catalog().search(None, Some("stretches"), None).unwrap();
        assert_eq!(ids(&r), ["build.bedtime-stretch"]);
        let r = catalog().search(None, Some("bread"), None).unwrap();
        assert!(!ids(&r).contains(&"build.read-10-pages"), "{:?}", ids(&r));
    }

    #[test]
    fn korean_particles_and_compounds_still_match() {
        let r = catalog().search(None, Some("혈압을"), None).unwrap();
        assert_eq!(r.items[0].id, "diet.dash");
        let r = catalog().search(None, Some("아침운동"), Some(10)).unwrap();
        assert!(ids(&r).contains(&"build.morning-walk"));
    }

    #[test]
    fn keyword_and_category_combine() {
        let r = catalog()
            .search(Some("수면"), Some("coffee"), None)
            .unwrap();
        assert_eq!(ids(&r), ["break.late-caffeine"]);
        let r = catalog()
            .search(Some("exercise"), Some("coffee"), None)
            .unwrap();
        assert_eq!(r.count, 0);
        assert!(r.items.is_empty());
    }

    #[test]
    fn keyword_naming_a_category_finds_its_entries() {
        let r = catalog()
            .search(None, Some("productivity"), Some(10))
            .unwrap();
        assert!(
            r.count >= 4 && r.items.iter().all(|i| i.category == "생산성"),
            "{:?}",
            ids(&r)
        );
    }

    #[test]
    fn nothing_matches_gives_an_empty_result() {
        let r = catalog().search(None, Some("zzzxq"), None).unwrap();
        assert_eq!((r.count, r.items.len()), (0, 0));
    }

    #[test]
    fn blank_filters_mean_absent() {
        let all = catalog().search(None, None, Some(10)).unwrap();
        let blank = catalog().search(Some("  "), Some(""), Some(10)).unwrap();
        assert_eq!(ids(&all), ids(&blank));
    }

    #[test]
    fn limit_is_one_to_ten() {
        assert_eq!(catalog().search(None, None, Some(1)).unwrap().count, 1);
        assert_eq!(catalog().search(None, None, Some(10)).unwrap().count, 10);
        for bad in [0, 11, -1, i64::MAX, i64::MIN] {
            let err = catalog().search(None, None, Some(bad)).unwrap_err();
            assert_eq!(err.code(), "invalid_value", "{bad}");
        }
    }

    #[test]
    fn overlong_queries_are_refused() {
        let long = "가".repeat(MAX_QUERY_CHARS + 1);
        assert_eq!(
            catalog()
                .search(None, Some(&long), None)
                .unwrap_err()
                .code(),
            "invalid_text"
        );
        assert_eq!(
            catalog()
                .search(Some(&long), None, None)
                .unwrap_err()
                .code(),
            "invalid_text"
        );
    }

    #[test]
    fn queries_get_the_stored_texts_checks() {
        let plain = catalog().search(None, Some("걷기"), None).unwrap();
        assert!(plain.count > 0);
        // Decomposed Hangul finds what precomposed Hangul finds.
        let decomposed: String = unicode_normalization::UnicodeNormalization::nfd("걷기").collect();
        let found = catalog().search(None, Some(&decomposed), None).unwrap();
        assert_eq!(found.count, plain.count);
        // Invisible-only is absent; control and format characters are refused.
        let all = catalog().search(None, None, None).unwrap();
        let invisible = catalog()
            .search(None, Some("\u{FEFF}\u{200B}"), None)
            .unwrap();
        assert_eq!(invisible.count, all.count);
        for bad in ["걷\u{200B}기", "걷\n기", "\u{1B}[2J"] {
            let err = catalog().search(None, Some(bad), None).unwrap_err();
            assert_eq!(err.code(), "invalid_text", "{bad:?}");
            let err = catalog().search(Some(bad), None, None).unwrap_err();
            assert_eq!(err.code(), "invalid_text", "{bad:?}");
        }
    }

    #[test]
    fn the_largest_possible_result_stays_under_the_cap() {
        // Ten items with the longest serialisations: no query can return anything bigger.
        let mut sizes: Vec<usize> = catalog()
            .entries()
            .iter()
            .map(|e| {
                let item = CatalogItem {
                    id: e.id.clone(),
                    title: e.title.clone(),
                    category: catalog().category_name(&e.category).to_owned(),
                    summary: e.summary.clone(),
                };
                serde_json::to_string(&item).unwrap().len() + 1
            })
            .collect();
        sizes.sort_unstable_by(|a, b| b.cmp(a));
        let worst: usize =
            sizes.iter().take(10).sum::<usize>() + r#"{"count":10,"items":[]}"#.len();
        assert!(worst <= 1900, "worst-case search result is {worst} bytes");
    }
}
