//! The compiled automaton and a position in it.
//!
//! [`Program`] is a Pike virtual machine (Thompson's construction, as in RE2): character
//! instructions, `Split`/`Jmp` for alternatives and repetition, and two counting loops — a
//! string body (length and escape state) and an integer (its digits so far, checked against
//! the bounds at every digit). A [`Matcher`] holds the set of threads alive after the text
//! fed so far; the set is deduplicated, so it stays as small as the call's ambiguity (a few
//! threads inside an enum of ids, one almost everywhere else).
//!
//! Text arrives as token pieces, which may end inside a multi-byte character (Gemma's byte
//! fallback tokens). Such a tail is held back and accepted only where a non-ASCII character
//! can come next; it is checked in full once the character is complete.

use super::node::{Node, StrSpec};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Inst {
    Char(char),
    Digit,
    Str(StrSpec),
    Int {
        min: Option<i64>,
        max: Option<i64>,
    },
    Copy {
        source: std::sync::Arc<[char]>,
        max: u32,
    },
    Split(Vec<u32>),
    Jmp(u32),
    Match,
}

/// Registers of a thread inside a counting loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reg {
    None,
    Str {
        count: u32,
        escape: bool,
    },
    Int {
        negative: bool,
        digits: u8,
        magnitude: u64,
    },
    /// Inside a copy: the next source position, characters copied so far.
    Copy {
        pos: u32,
        count: u32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Thread {
    pc: u32,
    reg: Reg,
}

/// A compiled call shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Program {
    insts: Vec<Inst>,
}

impl Program {
    /// Compiles `node`; the program matches exactly the texts the node describes.
    pub(crate) fn compile(node: &Node) -> Self {
        let mut insts = Vec::new();
        emit(node, &mut insts);
        insts.push(Inst::Match);
        Self { insts }
    }

    /// A matcher at the start.
    pub(crate) fn start(&self) -> Matcher<'_> {
        let mut threads = Vec::new();
        self.add(&mut threads, 0, Reg::None);
        Matcher {
            program: self,
            threads,
            pending: Vec::new(),
        }
    }

    fn inst(&self, pc: u32) -> &Inst {
        // `pc` always comes from `emit`, which only targets instructions it wrote, and the
        // final `Match` has no successor: an out-of-range pc cannot be produced.
        &self.insts[pc as usize]
    }

    /// Adds the thread at `pc` and everything reachable from it without consuming a char.
    fn add(&self, threads: &mut Vec<Thread>, pc: u32, reg: Reg) {
        let thread = Thread { pc, reg };
        if threads.contains(&thread) {
            return;
        }
        match self.inst(pc) {
            Inst::Split(targets) => {
                // Recorded too, so a loop of empty branches ends.
                threads.push(thread);
                for &target in targets {
                    self.add(threads, target, Reg::None);
                }
            }
            Inst::Jmp(target) => {
                threads.push(thread);
                self.add(threads, *target, Reg::None);
            }
            Inst::Str(spec) => {
                let reg = match reg {
                    Reg::None => Reg::Str {
                        count: 0,
                        escape: false,
                    },
                    other => other,
                };
                let thread = Thread { pc, reg };
                if threads.contains(&thread) {
                    return;
                }
                threads.push(thread);
                if let Reg::Str {
                    count,
                    escape: false,
                } = reg
                    && count >= spec.min
                {
                    self.add(threads, pc + 1, Reg::None);
                }
            }
            Inst::Int { min, max } => {
                let reg = match reg {
                    Reg::None => Reg::Int {
                        negative: false,
                        digits: 0,
                        magnitude: 0,
                    },
                    other => other,
                };
                let thread = Thread { pc, reg };
                if threads.contains(&thread) {
                    return;
                }
                threads.push(thread);
                if let Reg::Int {
                    negative,
                    digits,
                    magnitude,
                } = reg
                    && digits > 0
                    && in_range(signed(negative, magnitude), *min, *max)
                {
                    self.add(threads, pc + 1, Reg::None);
                }
            }
            Inst::Copy { source, .. } => match reg {
                Reg::Copy { pos, count } => {
                    threads.push(thread);
                    // A copy ends where a word ends: whole words, never half of one.
                    let at_word_end = source
                        .get(pos as usize)
                        .is_none_or(|next| !next.is_alphanumeric());
                    if count >= 1 && at_word_end {
                        self.add(threads, pc + 1, Reg::None);
                    }
                }
                _ => {
                    // One thread per place a copy may start: a word's first character.
                    for (pos, c) in source.iter().enumerate() {
                        let starts_word = pos == 0 || !source[pos - 1].is_alphanumeric();
                        if *c != '\0' && !c.is_whitespace() && starts_word {
                            let start = Thread {
                                pc,
                                reg: Reg::Copy {
                                    pos: u32::try_from(pos).unwrap_or(u32::MAX),
                                    count: 0,
                                },
                            };
                            if !threads.contains(&start) {
                                threads.push(start);
                            }
                        }
                    }
                }
            },
            Inst::Char(_) | Inst::Digit | Inst::Match => threads.push(thread),
        }
    }

    /// The threads after `thread` consumes `c`, added to `out`.
    fn step(&self, thread: Thread, c: char, out: &mut Vec<Thread>) {
        let pc = thread.pc;
        match (self.inst(pc), thread.reg) {
            (Inst::Char(expected), _) if *expected == c => self.add(out, pc + 1, Reg::None),
            (Inst::Digit, _) if c.is_ascii_digit() => self.add(out, pc + 1, Reg::None),
            (Inst::Str(spec), Reg::Str { count, escape }) => {
                if escape {
                    if matches!(c, '"' | '\\' | '/') {
                        self.add(
                            out,
                            pc,
                            Reg::Str {
                                count: count + 1,
                                escape: false,
                            },
                        );
                    }
                } else if count < spec.max {
                    if spec.escapes && c == '\\' {
                        self.add(
                            out,
                            pc,
                            Reg::Str {
                                count,
                                escape: true,
                            },
                        );
                    } else if spec.allows(c) {
                        self.add(
                            out,
                            pc,
                            Reg::Str {
                                count: count + 1,
                                escape: false,
                            },
                        );
                    }
                }
            }
            (Inst::Copy { source, max }, Reg::Copy { pos, count })
                if count < *max && source.get(pos as usize) == Some(&c) && c != '\0' =>
            {
                self.add(
                    out,
                    pc,
                    Reg::Copy {
                        pos: pos + 1,
                        count: count + 1,
                    },
                );
            }
            (
                Inst::Int { min, max },
                Reg::Int {
                    negative,
                    digits,
                    magnitude,
                },
            ) => {
                let next = if c == '-' && digits == 0 && !negative {
                    Some((true, 0, 0))
                } else if let Some(d) = c.to_digit(10) {
                    let leading_zero = digits > 0 && magnitude == 0;
                    let negative_zero = negative && digits == 0 && d == 0;
                    if leading_zero || negative_zero || digits >= MAX_DIGITS {
                        None
                    } else {
                        magnitude
                            .checked_mul(10)
                            .and_then(|m| m.checked_add(u64::from(d)))
                            .map(|m| (negative, digits + 1, m))
                    }
                } else {
                    None
                };
                if let Some((negative, digits, magnitude)) = next
                    && feasible(negative, digits, magnitude, *min, *max)
                {
                    self.add(
                        out,
                        pc,
                        Reg::Int {
                            negative,
                            digits,
                            magnitude,
                        },
                    );
                }
            }
            _ => {}
        }
    }
}

/// Integers longer than this are refused (`i64` has 19 digits).
const MAX_DIGITS: u8 = 19;

fn signed(negative: bool, magnitude: u64) -> i128 {
    let magnitude = i128::from(magnitude);
    if negative { -magnitude } else { magnitude }
}

fn in_range(value: i128, min: Option<i64>, max: Option<i64>) -> bool {
    min.is_none_or(|min| value >= i128::from(min)) && max.is_none_or(|max| value <= i128::from(max))
}

/// Whether some integer written as the digits so far plus more digits lies in `[min, max]`.
fn feasible(
    negative: bool,
    digits: u8,
    magnitude: u64,
    min: Option<i64>,
    max: Option<i64>,
) -> bool {
    let lo = i128::from(min.unwrap_or(i64::MIN));
    let hi = i128::from(max.unwrap_or(i64::MAX));
    let magnitude = i128::from(magnitude);
    // Each candidate range of magnitudes: the prefix itself, then the prefix with j more
    // digits. A lone `0` takes no more digits; nothing typed yet can become any length.
    let mut ranges: Vec<(i128, i128)> = Vec::new();
    if digits == 0 {
        let smallest = if negative { 1 } else { 0 };
        ranges.push((smallest, 10_i128.pow(u32::from(MAX_DIGITS)) - 1));
    } else {
        ranges.push((magnitude, magnitude));
        if magnitude != 0 {
            let mut scale: i128 = 1;
            for _ in digits..MAX_DIGITS {
                scale *= 10;
                ranges.push((magnitude * scale, magnitude * scale + scale - 1));
            }
        }
    }
    ranges.into_iter().any(|(a, b)| {
        let (a, b) = if negative { (-b, -a) } else { (a, b) };
        a <= hi && b >= lo
    })
}

fn emit(node: &Node, insts: &mut Vec<Inst>) {
    match node {
        Node::Lit(text) => insts.extend(text.chars().map(Inst::Char)),
        Node::Seq(nodes) => nodes.iter().for_each(|n| emit(n, insts)),
        Node::Alt(nodes) => {
            let split = insts.len();
            insts.push(Inst::Split(Vec::new()));
            let mut starts = Vec::with_capacity(nodes.len());
            let mut jumps = Vec::with_capacity(nodes.len());
            for node in nodes {
                starts.push(pc_of(insts.len()));
                emit(node, insts);
                jumps.push(insts.len());
                insts.push(Inst::Jmp(0));
            }
            let end = pc_of(insts.len());
            for jump in jumps {
                insts[jump] = Inst::Jmp(end);
            }
            insts[split] = Inst::Split(starts);
        }
        Node::Opt(inner) => {
            let split = insts.len();
            insts.push(Inst::Split(Vec::new()));
            let body = pc_of(insts.len());
            emit(inner, insts);
            let end = pc_of(insts.len());
            insts[split] = Inst::Split(vec![body, end]);
        }
        Node::Star(inner) => {
            let split = insts.len();
            insts.push(Inst::Split(Vec::new()));
            let body = pc_of(insts.len());
            emit(inner, insts);
            insts.push(Inst::Jmp(pc_of(split)));
            let end = pc_of(insts.len());
            insts[split] = Inst::Split(vec![body, end]);
        }
        Node::Str(spec) => insts.push(Inst::Str(spec.clone())),
        Node::Int { min, max } => insts.push(Inst::Int {
            min: *min,
            max: *max,
        }),
        Node::Digit => insts.push(Inst::Digit),
        Node::Copy { source, max } => insts.push(Inst::Copy {
            source: std::sync::Arc::clone(source),
            max: *max,
        }),
    }
}

fn pc_of(index: usize) -> u32 {
    // A call shape has a few thousand instructions at most (an enum of a few hundred ids).
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// A position in a [`Program`]: the threads alive after the text fed so far.
#[derive(Debug, Clone)]
pub(crate) struct Matcher<'p> {
    program: &'p Program,
    threads: Vec<Thread>,
    /// The start of a multi-byte character whose remaining bytes have not arrived yet.
    pending: Vec<u8>,
}

impl Matcher<'_> {
    /// Feeds `bytes` (a token's piece); returns `false`, leaving the matcher unusable, when
    /// the program does not admit them.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> bool {
        let mut buffer = std::mem::take(&mut self.pending);
        buffer.extend_from_slice(bytes);
        let (text, tail) = match std::str::from_utf8(&buffer) {
            Ok(text) => (text, &[][..]),
            Err(error) if error.error_len().is_none() => {
                let valid = error.valid_up_to();
                // Checked just above: the prefix up to `valid` is UTF-8.
                let text = std::str::from_utf8(&buffer[..valid]).unwrap_or_default();
                (text, &buffer[valid..])
            }
            Err(_) => {
                self.threads.clear();
                return false;
            }
        };
        for c in text.chars() {
            if !self.feed_char(c) {
                return false;
            }
        }
        if !tail.is_empty() {
            if !self.admits_prefix(tail) {
                self.threads.clear();
                return false;
            }
            self.pending = tail.to_vec();
        }
        true
    }

    /// Whether [`feed`](Self::feed) would accept `bytes`, without changing the matcher.
    pub(crate) fn accepts(&self, bytes: &[u8]) -> bool {
        self.clone().feed(bytes)
    }

    fn feed_char(&mut self, c: char) -> bool {
        let mut next = Vec::with_capacity(self.threads.len());
        for &thread in &self.threads {
            self.program.step(thread, c, &mut next);
        }
        self.threads = next;
        !self.threads.is_empty()
    }

    /// Whether some thread could take a character whose UTF-8 encoding starts with `prefix`.
    fn admits_prefix(&self, prefix: &[u8]) -> bool {
        self.threads
            .iter()
            .any(|thread| match (self.program.inst(thread.pc), thread.reg) {
                (Inst::Char(c), _) => {
                    let mut buf = [0; 4];
                    c.encode_utf8(&mut buf).as_bytes().starts_with(prefix)
                }
                (Inst::Str(spec), Reg::Str { count, escape }) => !escape && count < spec.max,
                (Inst::Copy { source, max }, Reg::Copy { pos, count }) => {
                    count < *max
                        && source.get(pos as usize).is_some_and(|c| {
                            let mut buf = [0; 4];
                            c.encode_utf8(&mut buf).as_bytes().starts_with(prefix)
                        })
                }
                _ => false,
            })
    }

    /// Which bytes may start the next piece: a cheap filter before [`accepts`](Self::accepts)
    /// when a whole vocabulary is scanned. Permissive (a `true` may still be refused), never
    /// the other way round.
    pub(crate) fn first_bytes(&self) -> [bool; 256] {
        let mut allowed = [false; 256];
        if !self.pending.is_empty() {
            // Inside a multi-byte character: only continuation bytes.
            allowed[0x80..0xC0].iter_mut().for_each(|b| *b = true);
            return allowed;
        }
        for thread in &self.threads {
            match (self.program.inst(thread.pc), thread.reg) {
                (Inst::Char(c), _) => {
                    let mut buf = [0; 4];
                    allowed[usize::from(c.encode_utf8(&mut buf).as_bytes()[0])] = true;
                }
                (Inst::Digit, _) => allowed[usize::from(b'0')..=usize::from(b'9')]
                    .iter_mut()
                    .for_each(|b| *b = true),
                (Inst::Int { .. }, _) => {
                    allowed[usize::from(b'-')] = true;
                    allowed[usize::from(b'0')..=usize::from(b'9')]
                        .iter_mut()
                        .for_each(|b| *b = true);
                }
                (Inst::Str(_), Reg::Str { escape: true, .. }) => {
                    for b in [b'"', b'\\', b'/'] {
                        allowed[usize::from(b)] = true;
                    }
                }
                (Inst::Copy { source, max }, Reg::Copy { pos, count }) if count < *max => {
                    if let Some(c) = source.get(pos as usize).filter(|c| **c != '\0') {
                        let mut buf = [0; 4];
                        allowed[usize::from(c.encode_utf8(&mut buf).as_bytes()[0])] = true;
                    }
                }
                (Inst::Str(spec), Reg::Str { count, .. }) if count < spec.max => {
                    for (byte, slot) in allowed.iter_mut().enumerate() {
                        let ascii_ok = byte < 0x80 && spec.allows(char::from(byte as u8));
                        let starts_multibyte = (0xC2..0xF5).contains(&byte);
                        *slot |= ascii_ok
                            || starts_multibyte
                            || (spec.escapes && byte == usize::from(b'\\'));
                    }
                }
                _ => {}
            }
        }
        allowed
    }

    /// Whether the text so far is a complete call.
    pub(crate) fn is_complete(&self) -> bool {
        self.pending.is_empty()
            && self
                .threads
                .iter()
                .any(|t| matches!(self.program.inst(t.pc), Inst::Match))
    }

    /// Whether more text may follow.
    pub(crate) fn can_continue(&self) -> bool {
        !self.pending.is_empty()
            || self
                .threads
                .iter()
                .any(|t| !matches!(self.program.inst(t.pc), Inst::Match))
    }

    /// The text that must come next, up to `limit` characters: as long as every thread
    /// expects one and the same character, and the call cannot end here.
    pub(crate) fn forced(&self, limit: usize) -> String {
        let mut matcher = self.clone();
        let mut out = String::new();
        while out.len() < limit && matcher.pending.is_empty() {
            let Some(c) = matcher.single_next() else {
                break;
            };
            if !matcher.feed_char(c) {
                break;
            }
            out.push(c);
        }
        out
    }

    fn single_next(&self) -> Option<char> {
        let mut only = None;
        for thread in &self.threads {
            match self.program.inst(thread.pc) {
                Inst::Char(c) => match only {
                    None => only = Some(*c),
                    Some(existing) if existing == *c => {}
                    Some(_) => return None,
                },
                // Epsilon instructions are only bookkeeping: their targets are threads too.
                Inst::Split(_) | Inst::Jmp(_) => {}
                // A full string takes no more characters; its exit is a thread of its own.
                Inst::Str(spec) if matches!(thread.reg, Reg::Str { count, escape: false } if count >= spec.max) =>
                    {}
                Inst::Digit | Inst::Str(_) | Inst::Int { .. } | Inst::Copy { .. } | Inst::Match => {
                    return None;
                }
            }
        }
        only
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepts_all(node: &Node, text: &str) -> bool {
        let program = Program::compile(node);
        let mut m = program.start();
        m.feed(text.as_bytes()) && m.is_complete()
    }

    fn ids() -> Node {
        Node::alt(
            ["build.morning-walk", "build.mood-check", "break.snooze"]
                .iter()
                .map(|id| Node::lit(format!("\"{id}\"")))
                .collect(),
        )
    }

    #[test]
    fn literals_alternatives_and_options() {
        let node = Node::seq(vec![
            Node::lit("{"),
            Node::Opt(Box::new(Node::lit("\"a\":1"))),
            Node::lit("}"),
        ]);
        assert!(accepts_all(&node, "{}"));
        assert!(accepts_all(&node, "{\"a\":1}"));
        assert!(!accepts_all(&node, "{\"a\":2}"));
        assert!(!accepts_all(&node, "{\"a\":1"), "incomplete");
        assert!(!accepts_all(&node, "{}}"), "nothing after the end");
    }

    #[test]
    fn forced_text_runs_until_a_real_choice() {
        let node = Node::seq(vec![Node::lit("{\"id\":"), ids(), Node::lit("}")]);
        let program = Program::compile(&node);
        let mut m = program.start();
        assert_eq!(m.forced(100), "{\"id\":\"b");
        assert!(m.feed(b"{\"id\":\"bu"));
        assert_eq!(
            m.forced(100),
            "ild.mo",
            "morning-walk and mood-check differ after `mo`"
        );
        assert!(m.feed(b"ild.moo"));
        assert_eq!(m.forced(100), "d-check\"}");
        assert!(m.feed(b"d-check\"}"));
        assert!(m.is_complete() && !m.can_continue());
        assert_eq!(m.forced(100), "");
    }

    #[test]
    fn strings_count_characters_and_escapes() {
        let node = Node::seq(vec![
            Node::lit("\""),
            Node::Str(StrSpec::quoted(1, 3)),
            Node::lit("\""),
        ]);
        assert!(accepts_all(&node, "\"가나다\""));
        assert!(accepts_all(&node, "\"a\\\"b\""), "an escape counts once");
        assert!(!accepts_all(&node, "\"\""), "min 1");
        assert!(!accepts_all(&node, "\"가나다라\""), "max 3");
        assert!(!accepts_all(&node, "\"a\nb\""), "no control characters");
        assert!(
            !accepts_all(&node, "\"a\\nb\""),
            "only quote, backslash and slash escapes"
        );
        let program = Program::compile(&node);
        let mut m = program.start();
        assert!(m.feed(b"\"abc"));
        assert_eq!(m.forced(10), "\"", "a full string can only close");
    }

    #[test]
    fn multibyte_characters_may_arrive_in_pieces() {
        let node = Node::seq(vec![
            Node::lit("\""),
            Node::Str(StrSpec::quoted(0, 5)),
            Node::lit("\""),
        ]);
        let program = Program::compile(&node);
        let mut m = program.start();
        let bytes = "\"가\"".as_bytes();
        assert!(m.feed(&bytes[..2]), "the first byte of 가");
        assert!(!m.is_complete());
        assert!(m.feed(&bytes[2..4]));
        assert!(m.feed(&bytes[4..]));
        assert!(m.is_complete());
        // A lone continuation byte is never valid.
        assert!(!program.start().accepts(&[b'"', 0x80]));
        // A multi-byte start where only ASCII may follow is refused at once.
        let digits = Program::compile(&Node::Int {
            min: None,
            max: None,
        });
        assert!(!digits.start().accepts(&[0xEA]));
    }

    #[test]
    fn integers_respect_their_bounds_digit_by_digit() {
        let node = Node::Int {
            min: Some(1),
            max: Some(10),
        };
        for ok in ["1", "9", "10"] {
            assert!(accepts_all(&node, ok), "{ok}");
        }
        for bad in ["0", "11", "01", "-1", "100", ""] {
            assert!(!accepts_all(&node, bad), "{bad}");
        }
        let program = Program::compile(&node);
        assert!(!program.start().accepts(b"2 "), "nothing after the number");
        assert!(!program.start().accepts(b"2") || !program.start().accepts(b"20"));
        assert!(
            !program.start().accepts(b"20"),
            "20 has no completion in 1..=10"
        );
        let signed = Node::Int {
            min: Some(-5),
            max: Some(i64::MAX),
        };
        assert!(accepts_all(&signed, "-5"));
        assert!(!accepts_all(&signed, "-6"));
        assert!(!accepts_all(&signed, "-0"));
        assert!(accepts_all(&signed, &i64::MAX.to_string()));
        let unbounded = Node::Int {
            min: None,
            max: None,
        };
        assert!(accepts_all(&unbounded, &i64::MIN.to_string()));
        assert!(!accepts_all(&unbounded, "99999999999999999999"));
    }

    #[test]
    fn copies_are_stretches_of_the_source_starting_at_words() {
        let spec = super::super::node::StrSpec::quoted(0, 10);
        let node = Node::seq(vec![
            Node::lit("\""),
            Node::copy("폰을 너무 \"많이\" 봐요", &spec),
            Node::lit("\""),
        ]);
        for ok in [
            "\"폰을\"",
            "\"폰을 너무\"",
            "\"너무 \"",
            "\"봐요\"",
            "\"많이\"",
        ] {
            assert!(accepts_all(&node, ok), "{ok}");
        }
        for bad in [
            "\"\"",
            "\"폰\"",
            "\"을 너무\"",
            "\"스마트폰\"",
            "\"너무 많이\"",
            "\"폰을 너무 \\\"많이\"",
        ] {
            assert!(!accepts_all(&node, bad), "{bad}");
        }
        let program = Program::compile(&node);
        assert!(
            !program.start().accepts("\"폰을 너무 많".as_bytes()),
            "the quote is a break"
        );
        let mut m = program.start();
        assert!(m.feed("\"폰을".as_bytes()));
        let next = m.first_bytes();
        assert!(next[usize::from(b'"')] && next[usize::from(b' ')]);
        assert!(!next[usize::from(b'x')]);
    }

    #[test]
    fn repetition_and_digits() {
        let list = Node::seq(vec![
            Node::lit("["),
            Node::Opt(Box::new(Node::seq(vec![
                Node::Digit,
                Node::Star(Box::new(Node::seq(vec![Node::lit(","), Node::Digit]))),
            ]))),
            Node::lit("]"),
        ]);
        for ok in ["[]", "[1]", "[1,2,3]"] {
            assert!(accepts_all(&list, ok), "{ok}");
        }
        for bad in ["[,]", "[1,]", "[12]"] {
            assert!(!accepts_all(&list, bad), "{bad}");
        }
        // An empty loop body must not hang the closure.
        let empty_loop = Node::Star(Box::new(Node::Opt(Box::new(Node::lit("a")))));
        assert!(accepts_all(&empty_loop, "aaa"));
    }
}
