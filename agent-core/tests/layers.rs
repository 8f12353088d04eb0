//! agent-core's modules form layers that only point down (see the crate docs): every
//! `crate::…` path a file names must belong to its own layer or one below it; and inside
//! each folder no files import each other in a circle. Read from the sources, so a new
//! upward or circular import fails here rather than in review.

use std::path::{Path, PathBuf};

/// The layers, bottom first. A module may use its own layer and those before it.
const LAYERS: &[&str] = &[
    "messages", "inert", "tool", "request", "layer", "registry", "dispatch", "choice", "session",
    "llm", "agent", "mcp",
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
    let used: Vec<&str> = used_layers(text)
        .into_iter()
        .map(|(l, _)| LAYERS[l])
        .collect();
    assert_eq!(used, ["agent", "tool"]);
}

// ---------------------------------------------------------------------------------------
// Circles between the files of one folder.
//
// A file's `use` paths and inline paths (`super::x::y`, `crate::a::b`, a child module's
// name in a `mod.rs`) are read with a small scanner that skips comments, string and char
// literals and `mod tests { … }` blocks (test code may reach anything it tests), and are
// resolved to module paths. Within every folder under `src/` (the top level is the layer
// table's), each file and each subfolder is one node — `mod.rs` included, so a child that
// reaches back into its `mod.rs` while the `mod.rs` re-exports it is a circle too.

/// One scanned token: an identifier, `::`, or one punctuation character.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Path,
    Punct(char),
}

/// The tokens of `text` outside comments and literals.
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || (next == Some('#') && raw_string_at(&chars, i)))
        {
            // A raw string: r"…", r#"…"#.
            let mut hashes = 0;
            i += 1;
            while chars.get(i) == Some(&'#') {
                hashes += 1;
                i += 1;
            }
            i += 1;
            while i < chars.len() {
                if chars[i] == '"' && (0..hashes).all(|h| chars.get(i + 1 + h) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a).
            if next == Some('\\') {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
        } else if c == ':' && next == Some(':') {
            out.push(Token::Path);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    out
}

/// Whether `r#` at `at` opens a raw string (`r#"`), not a raw identifier (`r#type`).
fn raw_string_at(chars: &[char], at: usize) -> bool {
    let mut i = at + 1;
    while chars.get(i) == Some(&'#') {
        i += 1;
    }
    chars.get(i) == Some(&'"')
}

/// Every path the tokens name, as written (`super::a::B`), with `use` groups expanded
/// (`use super::{a, b::C}` gives `super::a` and `super::b::C`), together with the inline
/// module (by name, outermost first) each is written in. `mod tests { … }` is skipped.
fn written_paths(tokens: &[Token]) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    // Open braces: Some(name) for the brace of an inline module.
    let mut braces: Vec<Option<String>> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Ident(word) if word == "mod" => {
                if let (Some(Token::Ident(name)), Some(Token::Punct('{'))) =
                    (tokens.get(i + 1), tokens.get(i + 2))
                {
                    if name == "tests" {
                        i = skip_block(tokens, i + 2);
                        continue;
                    }
                    braces.push(Some(name.clone()));
                    i += 3;
                    continue;
                }
                i += 1;
            }
            Token::Punct('{') => {
                braces.push(None);
                i += 1;
            }
            Token::Punct('}') => {
                braces.pop();
                i += 1;
            }
            Token::Ident(first) if tokens.get(i + 1) == Some(&Token::Path) => {
                // Not the tail of a longer path (`a::b` is read from `a`).
                let after_path = i > 0 && tokens[i - 1] == Token::Path;
                let (paths, end) = path_tree(tokens, i, vec![first.clone()]);
                if !after_path {
                    let inline: Vec<String> = braces.iter().flatten().cloned().collect();
                    out.extend(paths.into_iter().map(|p| (p, inline.clone())));
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// The index after the block whose `{` is at `open`.
fn skip_block(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0;
    let mut i = open;
    while i < tokens.len() {
        match tokens[i] {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The paths of the path (tree) whose first segment is at `at` and is `prefix`'s last: its
/// segments, then, after a `::{`, each item of the group; returns them and the index after.
fn path_tree(tokens: &[Token], at: usize, prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
    let mut path = prefix;
    let mut i = at + 1;
    loop {
        if tokens.get(i) != Some(&Token::Path) {
            return (vec![path], i);
        }
        match tokens.get(i + 1) {
            Some(Token::Ident(segment)) => {
                path.push(segment.clone());
                i += 2;
            }
            Some(Token::Punct('{')) => {
                let mut paths = Vec::new();
                i += 2;
                while let Some(token) = tokens.get(i) {
                    match token {
                        Token::Punct('}') => return (paths, i + 1),
                        Token::Ident(segment) => {
                            let mut inner = path.clone();
                            if segment != "self" {
                                inner.push(segment.clone());
                            }
                            let (more, end) = path_tree(tokens, i, inner);
                            paths.extend(more);
                            i = end;
                        }
                        _ => i += 1,
                    }
                }
                return (paths, i);
            }
            _ => return (vec![path], i + 1),
        }
    }
}

/// The module path of a source file under `src`: `a/b.rs` → `[a, b]`, `a/mod.rs` → `[a]`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = relative
        .components()
        .filter_map(|c| c.as_os_str().to_str().map(str::to_owned))
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_owned());
        }
    }
    parts
}

/// `written` resolved to a module path from inside `module` (the file's module, then its
/// inline modules): `crate::…` from the root, `super::`/`self::` relative, a first segment
/// the file declares as a module (`mod x;`) below it. `None` for other paths (other crates,
/// local items, imported names).
fn resolve(written: &[String], module: &[String], declared: &[String]) -> Option<Vec<String>> {
    let (first, rest) = written.split_first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.to_vec(),
        "super" => {
            let mut base = module.to_vec();
            base.pop()?;
            base
        }
        child if declared.iter().any(|d| d == child) => {
            let mut base = module.to_vec();
            base.push(child.to_owned());
            base
        }
        _ => return None,
    };
    let mut rest = rest.iter().peekable();
    while rest.peek().is_some_and(|s| s.as_str() == "super") {
        base.pop()?;
        rest.next();
    }
    base.extend(rest.cloned());
    Some(base)
}

/// The modules a file declares (`mod x;`, `pub(crate) mod x;`).
fn declared_modules(tokens: &[Token]) -> Vec<String> {
    tokens
        .windows(3)
        .filter_map(|w| match w {
            [Token::Ident(m), Token::Ident(name), Token::Punct(';')] if m == "mod" => {
                Some(name.clone())
            }
            _ => None,
        })
        .collect()
}

/// The node of `folder` (a module path) that `target` lies in: the child file or subfolder
/// it is inside, or `mod` for an item of the folder's own `mod.rs`; `None` outside the folder.
fn node_in(folder: &[String], target: &[String], children: &[String]) -> Option<String> {
    let inside = target.strip_prefix(folder)?;
    match inside.first() {
        Some(child) if children.contains(child) => Some(child.clone()),
        _ => Some("mod".to_owned()),
    }
}

/// Every folder under `dir` (itself excluded), as a path.
fn folders(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable src").flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.push(path.clone());
            folders(&path, out);
        }
    }
}

/// The edges between the nodes of each folder under `src`: (folder, from, to, the line).
fn folder_edges(src: &Path) -> Vec<(String, String, String, String)> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut dirs = Vec::new();
    folders(src, &mut dirs);
    let mut scanned = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        let tokens = tokens(&text);
        let module = module_of(src, file);
        let declared = declared_modules(&tokens);
        let mut targets = Vec::new();
        for (written, inline) in written_paths(&tokens) {
            let mut inside = module.clone();
            inside.extend(inline);
            if let Some(target) = resolve(&written, &inside, &declared) {
                targets.push((target, written.join("::")));
            }
        }
        scanned.push((module, file.clone(), targets));
    }
    let mut edges = Vec::new();
    for dir in &dirs {
        let folder = module_of(src, &dir.join("mod.rs"));
        let children: Vec<String> = std::fs::read_dir(dir)
            .expect("readable folder")
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_str()?.to_owned();
                let stem = name.strip_suffix(".rs").unwrap_or(&name).to_owned();
                (stem != "mod" && (e.path().is_dir() || name.ends_with(".rs"))).then_some(stem)
            })
            .collect();
        for (module, file, targets) in &scanned {
            if !file.starts_with(dir) {
                continue;
            }
            let from = if file.parent() == Some(dir.as_path()) && file.ends_with("mod.rs") {
                "mod".to_owned()
            } else {
                match module.get(folder.len()) {
                    Some(child) => child.clone(),
                    None => "mod".to_owned(),
                }
            };
            for (target, written) in targets {
                if let Some(to) = node_in(&folder, target, &children)
                    && to != from
                {
                    edges.push((folder.join("/"), from.clone(), to, written.clone()));
                }
            }
        }
    }
    edges
}

/// A circle among `edges` (from, to), as the nodes in order, if there is one.
fn find_circle(edges: &[(String, String)]) -> Option<Vec<String>> {
    let mut nodes: Vec<&String> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
    nodes.sort();
    nodes.dedup();
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; nodes.len()];
    let index = |name: &String| nodes.iter().position(|n| *n == name).unwrap_or(0);
    fn visit(
        at: usize,
        nodes: &[&String],
        edges: &[(String, String)],
        state: &mut [u8],
        stack: &mut Vec<usize>,
        index: &dyn Fn(&String) -> usize,
    ) -> Option<Vec<String>> {
        state[at] = 1;
        stack.push(at);
        for (_, to) in edges.iter().filter(|(from, _)| from == nodes[at]) {
            let next = index(to);
            if state[next] == 1 {
                let start = stack.iter().position(|&n| n == next).unwrap_or(0);
                let mut circle: Vec<String> =
                    stack[start..].iter().map(|&n| nodes[n].clone()).collect();
                circle.push(nodes[next].clone());
                return Some(circle);
            }
            if state[next] == 0
                && let Some(circle) = visit(next, nodes, edges, state, stack, index)
            {
                return Some(circle);
            }
        }
        stack.pop();
        state[at] = 2;
        None
    }
    for start in 0..nodes.len() {
        if state[start] == 0 {
            let mut stack = Vec::new();
            if let Some(circle) = visit(start, &nodes, edges, &mut state, &mut stack, &index) {
                return Some(circle);
            }
        }
    }
    None
}

#[test]
fn no_files_inside_a_folder_import_each_other_in_a_circle() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = folder_edges(&src);
    let mut by_folder: Vec<&String> = edges.iter().map(|(folder, ..)| folder).collect();
    by_folder.sort();
    by_folder.dedup();
    let mut circles = Vec::new();
    for folder in by_folder {
        let within: Vec<(String, String)> = edges
            .iter()
            .filter(|(f, ..)| f == folder)
            .map(|(_, a, b, _)| (a.clone(), b.clone()))
            .collect();
        if let Some(circle) = find_circle(&within) {
            let witnesses: Vec<String> = circle
                .windows(2)
                .filter_map(|pair| {
                    edges
                        .iter()
                        .find(|(f, a, b, _)| f == folder && *a == pair[0] && *b == pair[1])
                        .map(|(_, a, b, line)| format!("    {a} → {b}: {line}"))
                })
                .collect();
            circles.push(format!(
                "{folder}/: {}\n{}",
                circle.join(" → "),
                witnesses.join("\n")
            ));
        }
    }
    assert!(circles.is_empty(), "circles:\n{}", circles.join("\n"));
}

#[test]
fn the_circle_check_itself_sees_a_circle() {
    let text = r#"
        use super::{model::Shared, format};
        // use super::handle::Nope;
        let s = "super::handle::Nope";
        mod tests { use super::worker::Nope; }
        fn f() { super::super::gemma::sampler::x(); }
    "#;
    let module: Vec<String> = ["llm", "gemma", "decode"].map(str::to_owned).to_vec();
    let resolved: Vec<Vec<String>> = written_paths(&tokens(text))
        .into_iter()
        .filter_map(|(path, _)| resolve(&path, &module, &[]))
        .collect();
    let folder: Vec<String> = ["llm", "gemma"].map(str::to_owned).to_vec();
    let children: Vec<String> = ["model", "format", "sampler", "handle"]
        .map(str::to_owned)
        .to_vec();
    let nodes: Vec<String> = resolved
        .iter()
        .filter_map(|t| node_in(&folder, t, &children))
        .collect();
    assert_eq!(nodes, ["model", "format", "sampler"]);
    let edges =
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")].map(|(a, b)| (a.to_owned(), b.to_owned()));
    assert_eq!(
        find_circle(&edges),
        Some(["a", "b", "c", "a"].map(str::to_owned).to_vec())
    );
    assert_eq!(find_circle(&edges[..2]), None);
}
