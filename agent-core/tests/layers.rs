//! agent-core's modules form layers that only point down (see the crate docs): every
//! `crate::…` path a file names must belong to its own layer or one below it. Read from the
//! sources, so a new upward import fails here rather than in review.

use std::path::{Path, PathBuf};

/// The layers, bottom first. A module may use its own layer and those before it.
const LAYERS: &[&str] = &[
    "messages", "tool", "layer", "registry", "dispatch", "choice", "agent", "llm", "mcp",
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable src").flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The layer a source file belongs to: its first path component under `src/`.
fn layer_of(src: &Path, file: &Path) -> Option<usize> {
    let relative = file.strip_prefix(src).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.trim_end_matches(".rs");
    LAYERS.iter().position(|l| *l == name)
}

/// The layers a file's `crate::` paths name (outside comments).
fn used_layers(text: &str) -> Vec<(usize, String)> {
    let mut used = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            // A grouped import would hide its layers from this scan: name one per path.
            assert!(
                !rest.starts_with('{'),
                "write `crate::<layer>::…` paths, not `crate::{{…}}`: {line}"
            );
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if let Some(layer) = LAYERS.iter().position(|l| *l == name) {
                used.push((layer, line.trim().to_owned()));
            }
        }
    }
    used
}

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut violations = Vec::new();
    for file in &files {
        let Some(own) = layer_of(&src, file) else {
            continue; // lib.rs re-exports everything: it is the top.
        };
        let text = std::fs::read_to_string(file).expect("readable source");
        for (used, line) in used_layers(&text) {
            if used > own {
                violations.push(format!(
                    "{} ({}) uses {}: {line}",
                    file.strip_prefix(&src).unwrap_or(file).display(),
                    LAYERS[own],
                    LAYERS[used]
                ));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "upward imports:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_crate_docs_list_every_layer_in_order() {
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs"))
        .expect("lib.rs");
    let table: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//! | "))
        .filter_map(|row| row.split('|').next())
        .map(|cell| cell.trim().trim_matches(['`', '[', ']']))
        .filter(|cell| LAYERS.contains(cell))
        .collect();
    assert_eq!(table, LAYERS, "the layer table in lib.rs");
}

#[test]
fn the_check_itself_sees_an_upward_import() {
    let text = "use crate::agent::Agent;\n// use crate::llm::x; (a comment)\nlet x = crate::tool::Dep::new(1);";
    let used: Vec<usize> = used_layers(text).into_iter().map(|(l, _)| l).collect();
    assert_eq!(used, [6, 1]);
}
