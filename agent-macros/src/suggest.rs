//! The wording shared by "unknown key" errors: the valid keys, and a "did you mean" for a
//! misspelled one.

/// `` (did you mean `range`?)`` when one of `known` is at most two edits from `key`.
pub(crate) fn did_you_mean(key: &str, known: &[&str]) -> String {
    known
        .iter()
        .map(|k| (edit_distance(key, k), k))
        .filter(|(distance, _)| *distance <= 2)
        // The closest; on a tie, the one listed first.
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, k)| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default()
}

/// `` `a`, `b`, `c` ``.
pub(crate) fn listed(known: &[&str]) -> String {
    known
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Levenshtein distance.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diagonal
            } else {
                1 + diagonal.min(row[j]).min(above)
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_keys_are_suggested() {
        assert_eq!(
            did_you_mean("rnage", &["range", "length"]),
            " (did you mean `range`?)"
        );
        assert_eq!(did_you_mean("colour", &["range", "length"]), "");
        assert_eq!(
            did_you_mean("mni", &["min", "max"]),
            " (did you mean `min`?)"
        );
        assert_eq!(listed(&["a", "b"]), "`a`, `b`");
    }
}
