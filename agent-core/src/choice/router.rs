//! The lexical router: which plan a request is most like, judged by character n-grams
//! against the declared examples.
//!
//! Character n-grams suit Korean: words agglutinate (`찾아줘`, `찾아서`, `찾아봐` share `찾아`),
//! spacing is optional (`내습관목록`), and a model-free matcher needs no tokenizer. Text is
//! lower-cased, everything but letters and digits is dropped, and the n-grams (1 to 3
//! characters) are taken over the text with its spaces removed, so spacing does not matter;
//! whole words are features too, so a short word (`내`, "my") counts where it is a word.
//!
//! Each example is a vector of those features, weighted by (sublinear) term frequency, by
//! inverse document frequency over all examples, and by inverse *class* frequency: a feature
//! found in the examples of every plan (`습관`, `해줘`) says nothing about which plan is
//! meant and weighs nothing, one found in a single plan's examples weighs most. Vectors are
//! normalised to unit length; a request's score for a plan is the cosine similarity of its
//! best example, plus a smaller share of its second best, so a plan many examples agree on
//! wins a near tie.
//!
//! A two-step plan is scored as a composition too: a request split between two words into
//! a part that asks for the first step and a part that asks for the second (see
//! [`Router::rank`]). The examples declare which plans exist; the composition only lets a
//! request worded unlike any two-step example still find its plan.
//!
//! Training and ranking are plain Rust over a few hundred short strings: microseconds per
//! request, and linear in the number of examples, so a toolset of 50 tools with a handful
//! of examples each is no harder than six.

use std::collections::HashMap;

/// A plan: the tool names to call in order; empty for "answer in words".
pub type Plan = Vec<String>;

/// How much of a plan's second-best example counts.
const SECOND_BEST_SHARE: f32 = 0.35;
/// Weight of single characters against bigrams and trigrams.
const UNIGRAM_WEIGHT: f32 = 0.35;
/// The least weight a feature found in every plan keeps, so a text of only such features
/// still has a direction.
const MIN_CLASS_WEIGHT: f32 = 0.05;

/// One training text.
#[derive(Debug, Clone)]
struct Entry {
    vector: Vec<(u32, f32)>,
    class: usize,
    weight: f32,
}

/// See the module doc.
#[derive(Debug, Clone, Default)]
pub struct Router {
    vocabulary: HashMap<String, u32>,
    /// Per feature: inverse document frequency × inverse class frequency.
    idf: Vec<f32>,
    entries: Vec<Entry>,
    classes: Vec<Plan>,
    /// A linear classifier over the same features: per class, a weight per feature and a
    /// bias (see [`Router::train`]).
    weights: Vec<Vec<f32>>,
    bias: Vec<f32>,
}

/// The fewest words each part of a composed request has.
const MIN_PART_WORDS: usize = 2;

/// The least score of a composed plan's weaker part: below it, a part is as like the other
/// plans as like its step, and a one-step request split anywhere would pass.
const MIN_COMPOSED: f32 = 0.35;

/// How much the linear classifier's probability adds to a plan's nearest-example score: the
/// classifier alone chooses worse than the nearest example, and beside it better than either.
pub(crate) const CLASSIFIER_SHARE: f32 = 0.5;
/// Training of the classifier: passes over the examples, step size, L2 penalty.
const EPOCHS: usize = 200;
const LEARNING_RATE: f32 = 0.5;
const L2: f32 = 1e-4;

/// A text as a [`Router`] weighs it; see [`Router::query`].
#[derive(Debug, Clone, PartialEq)]
pub struct Query(Vec<(u32, f32)>);

/// A plan with its score, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// The plan.
    pub plan: Plan,
    /// Its score (a cosine similarity, roughly 0 to 1.35).
    pub score: f32,
    /// The training text that matched best (its index, in training order).
    pub nearest: Option<usize>,
}

impl Router {
    /// Trains on `(text, plan, weight)`: declared example requests at weight 1, weaker hints
    /// (a tool's label and description) below it.
    pub fn train<'a>(texts: impl IntoIterator<Item = (&'a str, Plan, f32)>) -> Self {
        let mut classes: Vec<Plan> = Vec::new();
        let mut raw: Vec<(HashMap<String, f32>, usize, f32)> = Vec::new();
        for (text, plan, weight) in texts {
            let class = match classes.iter().position(|c| *c == plan) {
                Some(class) => class,
                None => {
                    classes.push(plan);
                    classes.len() - 1
                }
            };
            raw.push((ngrams(text), class, weight));
        }
        let mut vocabulary: HashMap<String, u32> = HashMap::new();
        let mut document_frequency: Vec<f32> = Vec::new();
        let mut class_sets: Vec<Vec<usize>> = Vec::new();
        for (grams, class, _) in &raw {
            // In a fixed order, so that two routers trained on the same texts number their
            // features alike and add up their weights in the same order.
            let mut ordered: Vec<&String> = grams.keys().collect();
            ordered.sort_unstable();
            for gram in ordered {
                let id = *vocabulary.entry(gram.clone()).or_insert_with(|| {
                    document_frequency.push(0.0);
                    class_sets.push(Vec::new());
                    u32::try_from(document_frequency.len() - 1).unwrap_or(u32::MAX)
                });
                if let Some(df) = document_frequency.get_mut(id as usize) {
                    *df += 1.0;
                }
                if let Some(classes) = class_sets.get_mut(id as usize)
                    && !classes.contains(class)
                {
                    classes.push(*class);
                }
            }
        }
        let n = raw.len() as f32;
        let c = classes.len() as f32;
        let idf = document_frequency
            .iter()
            .zip(&class_sets)
            .map(|(df, in_classes)| {
                let idf = ((1.0 + n) / (1.0 + df)).ln() + 1.0;
                let icf = ((1.0 + c) / (1.0 + in_classes.len() as f32)).ln() / (1.0 + c).ln();
                idf * icf.max(MIN_CLASS_WEIGHT)
            })
            .collect();
        let mut router = Self {
            vocabulary,
            idf,
            entries: Vec::new(),
            classes,
            weights: Vec::new(),
            bias: Vec::new(),
        };
        router.entries = raw
            .into_iter()
            .map(|(grams, class, weight)| Entry {
                vector: router.vectorize(&grams),
                class,
                weight,
            })
            .collect();
        router.fit();
        router
    }

    /// Fits a multinomial logistic regression to the examples (full-batch gradient descent;
    /// a few hundred short texts and a few thousand features take milliseconds). Where the
    /// nearest example can be fooled by a shared phrase, the classifier weighs every feature
    /// by how well it told the plans apart in training.
    fn fit(&mut self) {
        let features = self.vocabulary.len();
        let classes = self.classes.len();
        self.weights = vec![vec![0.0; features]; classes];
        self.bias = vec![0.0; classes];
        if classes < 2 || self.entries.is_empty() {
            return;
        }
        let n = self.entries.len() as f32;
        for _ in 0..EPOCHS {
            let mut weight_grad = vec![vec![0.0_f32; features]; classes];
            let mut bias_grad = vec![0.0_f32; classes];
            for entry in &self.entries {
                let probs = self.probabilities(&entry.vector);
                for (c, p) in probs.iter().enumerate() {
                    let error = (p - if c == entry.class { 1.0 } else { 0.0 }) * entry.weight;
                    bias_grad[c] += error;
                    for &(id, x) in &entry.vector {
                        if let Some(g) = weight_grad[c].get_mut(id as usize) {
                            *g += error * x;
                        }
                    }
                }
            }
            for c in 0..classes {
                self.bias[c] -= LEARNING_RATE * bias_grad[c] / n;
                for (w, g) in self.weights[c].iter_mut().zip(&weight_grad[c]) {
                    *w -= LEARNING_RATE * (g / n + L2 * *w);
                }
            }
        }
    }

    /// The classifier's probability of every class for a feature vector.
    fn probabilities(&self, vector: &[(u32, f32)]) -> Vec<f32> {
        let logits: Vec<f32> = self
            .weights
            .iter()
            .zip(&self.bias)
            .map(|(weights, bias)| {
                bias + vector
                    .iter()
                    .filter_map(|&(id, x)| weights.get(id as usize).map(|w| w * x))
                    .sum::<f32>()
            })
            .collect();
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let exps: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
        let total: f32 = exps.iter().sum();
        exps.into_iter()
            .map(|e| e / total.max(f32::MIN_POSITIVE))
            .collect()
    }

    /// The plans, best first, each with its score.
    ///
    /// A two-step plan is also scored as a composition: where the request splits (between
    /// two words) into a part most like the plan's first step and a part most like its
    /// second, the weaker part's score is the plan's, if that is more than its own. A
    /// request that asks two things ("목록 보여주고 3번은 오늘 했다고 체크해줘") is then
    /// judged by how well each of its halves asks for its step, not by its similarity as a
    /// whole to some two-step example, which the one-step examples of either half outscore.
    pub fn rank(&self, text: &str) -> Vec<Ranked> {
        let mut scores = self.scores(text);
        self.compose(text, &mut scores);
        let mut ranked: Vec<Ranked> = scores
            .into_iter()
            .zip(&self.classes)
            .map(|((score, nearest), plan)| Ranked {
                plan: plan.clone(),
                score,
                nearest,
            })
            .collect();
        ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
        ranked
    }

    /// Each plan's score for `text` as a whole, without composition: what a part of a
    /// request is scored by where only its one-step plans matter (their scores are the same
    /// as in [`rank`](Self::rank), which only raises two-step plans).
    pub(crate) fn whole_scores(&self, text: &str) -> Vec<(&Plan, f32)> {
        self.classes
            .iter()
            .zip(self.scores(text))
            .map(|(plan, (score, _))| (plan, score))
            .collect()
    }

    /// Per class: its score for `text` and its nearest training text.
    fn scores(&self, text: &str) -> Vec<(f32, Option<usize>)> {
        let query = self.vectorize(&ngrams(text));
        let mut best: Vec<([f32; 2], Option<usize>)> = vec![([0.0; 2], None); self.classes.len()];
        for (index, entry) in self.entries.iter().enumerate() {
            let score = dot(&query, &entry.vector) * entry.weight;
            let (slot, nearest) = &mut best[entry.class];
            if score > slot[0] {
                slot[1] = slot[0];
                slot[0] = score;
                *nearest = Some(index);
            } else if score > slot[1] {
                slot[1] = score;
            }
        }
        let probabilities = if self.weights.is_empty() {
            vec![0.0; self.classes.len()]
        } else {
            self.probabilities(&query)
        };
        best.iter()
            .zip(probabilities)
            .map(|(([first, second], nearest), p)| {
                (
                    first + SECOND_BEST_SHARE * second + CLASSIFIER_SHARE * p,
                    *nearest,
                )
            })
            .collect()
    }

    /// Raises each two-step plan's score to its best composition; see [`Router::rank`].
    fn compose(&self, text: &str, scores: &mut [(f32, Option<usize>)]) {
        let single = |tool: &String| {
            self.classes
                .iter()
                .position(|plan| plan.len() == 1 && plan[0] == *tool)
        };
        let pairs: Vec<(usize, usize, usize)> = self
            .classes
            .iter()
            .enumerate()
            .filter_map(|(class, plan)| {
                let (a, b) = two_steps(plan)?;
                Some((class, single(a)?, single(b)?))
            })
            .collect();
        if pairs.is_empty() {
            return;
        }
        for (left, right) in crate::request::splits(text, MIN_PART_WORDS) {
            let left = self.scores(&left);
            let right = self.scores(&right);
            // Each part must ask for its own step above every other one-step plan and above
            // no tool at all.
            let top = |part: &[(f32, Option<usize>)], class: usize| {
                self.classes.iter().enumerate().all(|(other, plan)| {
                    other == class || plan.len() > 1 || part[other].0 < part[class].0
                })
            };
            for &(class, first, second) in &pairs {
                if !(top(&left, first) && top(&right, second)) {
                    continue;
                }
                let composed = left[first].0.min(right[second].0);
                if composed >= MIN_COMPOSED && composed > scores[class].0 {
                    scores[class].0 = composed;
                }
            }
        }
    }

    /// Whether some plan has two different steps, so that a request is worth splitting into
    /// parts to be scored (or read) each.
    pub fn composes(&self) -> bool {
        self.classes.iter().any(|plan| two_steps(plan).is_some())
    }

    /// Similarity of two texts under this router's weights (0 to 1), e.g. of a request and
    /// a value's label.
    pub fn similarity(&self, a: &str, b: &str) -> f32 {
        self.similarity_to(&self.query(a), b)
    }

    /// `text` as the router weighs it, to be compared with many others
    /// ([`similarity_to`](Self::similarity_to)) without being read again each time.
    pub fn query(&self, text: &str) -> Query {
        Query(self.vectorize(&ngrams(text)))
    }

    /// The [`similarity`](Self::similarity) of a text read once (`query`) and `other`.
    pub fn similarity_to(&self, query: &Query, other: &str) -> f32 {
        dot(&query.0, &self.vectorize(&ngrams(other)))
    }

    /// A unit-length TF-IDF vector, sorted by feature id; n-grams never seen in training are
    /// given the rarest weight, so they still count between two new texts.
    fn vectorize(&self, grams: &HashMap<String, f32>) -> Vec<(u32, f32)> {
        let unseen_idf = self.idf.iter().copied().fold(1.0_f32, f32::max);
        let mut vector: Vec<(u32, f32)> = grams
            .iter()
            .map(|(gram, tf)| {
                let (id, idf) = match self.vocabulary.get(gram) {
                    Some(&id) => (id, self.idf.get(id as usize).copied().unwrap_or(1.0)),
                    // Unseen grams only matter in `similarity`, where both sides may be new:
                    // hashed into ids above any vocabulary id.
                    None => (UNSEEN_IDS | (fnv(gram) >> 1), unseen_idf),
                };
                let weight = if gram.chars().count() == 1 {
                    UNIGRAM_WEIGHT
                } else {
                    1.0
                };
                (id, (1.0 + tf.ln()) * idf * weight)
            })
            .collect();
        // Sorted first, so the norm is summed in one order whatever the hash map's.
        vector.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let norm = vector.iter().map(|(_, w)| w * w).sum::<f32>().sqrt();
        if norm > 0.0 {
            vector.iter_mut().for_each(|(_, w)| *w /= norm);
        }
        vector
    }
}

/// Ids of n-grams outside the vocabulary have the top bit set (a vocabulary of 2^31 n-grams
/// is far beyond any set of examples).
const UNSEEN_IDS: u32 = 1 << 31;

/// The two steps of a plan of two different steps, which a request in two parts can ask
/// for. A step twice ("1번이랑 3번 둘 다") is two values, not two requests: each half of
/// such a request looks like the same step, as the halves of any one-step request do.
pub(crate) fn two_steps(plan: &Plan) -> Option<(&String, &String)> {
    match plan.as_slice() {
        [a, b] if a != b => Some((a, b)),
        _ => None,
    }
}

fn fnv(text: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in text.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

fn dot(a: &[(u32, f32)], b: &[(u32, f32)]) -> f32 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                sum += a[i].1 * b[j].1;
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

/// The text as the router sees it: lower-case letters and digits, everything else dropped.
pub(crate) fn normalize(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// Character 1- to 3-grams of the normalised text and its whole words (marked with a
/// leading space, which no n-gram has), with their counts.
fn ngrams(text: &str) -> HashMap<String, f32> {
    let chars: Vec<char> = normalize(text).chars().collect();
    let mut grams: HashMap<String, f32> = HashMap::new();
    for n in 1..=3 {
        for window in chars.windows(n) {
            *grams.entry(window.iter().collect()).or_insert(0.0) += 1.0;
        }
    }
    for word in text.split_whitespace() {
        let word = normalize(word);
        if !word.is_empty() {
            *grams.entry(format!(" {word}")).or_insert(0.0) += 1.0;
        }
    }
    grams
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(tools: &[&str]) -> Plan {
        tools.iter().map(|t| (*t).to_owned()).collect()
    }

    fn router() -> Router {
        Router::train([
            ("아침 운동 습관 찾아줘", plan(&["search"]), 1.0),
            ("잠 잘 오는 습관 검색", plan(&["search"]), 1.0),
            ("내 습관 목록 보여줘", plan(&["list"]), 1.0),
            ("2번 습관 오늘 했어", plan(&["log"]), 1.0),
            ("명상 습관 찾아서 추가해줘", plan(&["search", "add"]), 1.0),
            ("고마워", plan(&[]), 1.0),
            ("안녕하세요", plan(&[]), 1.0),
        ])
    }

    #[test]
    fn a_router_composes_where_a_plan_has_two_different_steps() {
        assert!(router().composes());
        let one_step = Router::train([
            ("고마워", plan(&[]), 1.0),
            ("2번 했어", plan(&["log"]), 1.0),
        ]);
        assert!(
            !one_step.composes(),
            "no two-step plan, nothing to split for"
        );
    }

    #[test]
    fn requests_go_to_the_plan_of_their_nearest_examples() {
        let router = router();
        let top = |text: &str| router.rank(text)[0].plan.clone();
        assert_eq!(top("운동 습관 좀 찾아봐"), plan(&["search"]));
        assert_eq!(
            top("내습관목록"),
            plan(&["list"]),
            "spacing does not matter"
        );
        assert_eq!(top("3번 오늘 했어요"), plan(&["log"]));
        assert_eq!(top("걷기 습관 찾아서 추가"), plan(&["search", "add"]));
        assert_eq!(top("고마워요!"), plan(&[]));
    }

    #[test]
    fn a_request_in_two_parts_ranks_the_two_step_plan_by_its_parts() {
        let router = Router::train([
            ("내 습관 목록 보여줘", plan(&["list"]), 1.0),
            ("등록된 습관 목록", plan(&["list"]), 1.0),
            ("2번 습관 오늘 했어", plan(&["log"]), 1.0),
            ("1번 오늘 완료 체크", plan(&["log"]), 1.0),
            ("걷기 기록 보고 1번 체크", plan(&["list", "log"]), 1.0),
            ("고마워", plan(&[]), 1.0),
        ]);
        let request = "내 습관 목록 보여주고 2번 오늘 했어";
        let two_step = router
            .classes
            .iter()
            .position(|p| *p == plan(&["list", "log"]))
            .expect("class");
        let whole = router.scores(request)[two_step].0;
        let ranked = router.rank(request);
        assert_eq!(ranked[0].plan, plan(&["list", "log"]), "{ranked:?}");
        assert!(ranked[0].score > whole, "raised by its parts");
        // A one-step request is not split: one part would not ask for the other step.
        assert_eq!(router.rank("2번 습관 오늘 했어요")[0].plan, plan(&["log"]));
        assert_eq!(
            router.rank("내 습관 목록 보여줘요")[0].plan,
            plan(&["list"])
        );
    }

    #[test]
    fn scores_are_sorted_and_bounded() {
        let ranked = router().rank("아침 운동 습관 찾아줘");
        assert!(ranked.windows(2).all(|w| w[0].score >= w[1].score));
        let most = 1.0 + SECOND_BEST_SHARE + CLASSIFIER_SHARE + 1e-3;
        assert!(
            ranked[0].score > 0.99 && ranked[0].score < most,
            "{}",
            ranked[0].score
        );
        // Nothing in common with any example: only the classifier's prior is left.
        assert!(
            router()
                .rank("")
                .iter()
                .all(|r| r.score <= CLASSIFIER_SHARE + 1e-6)
        );
    }

    #[test]
    fn fifty_tools_rank_in_well_under_a_millisecond() {
        let names: Vec<String> = (0..50).map(|i| format!("tool_{i}")).collect();
        let texts: Vec<(String, Plan)> = names
            .iter()
            .enumerate()
            .flat_map(|(i, name)| {
                (0..5).map(move |j| {
                    (
                        format!("요청 {i}번 도구 예시 {j} 가나다 {name}"),
                        vec![name.clone()],
                    )
                })
            })
            .collect();
        let router = Router::train(texts.iter().map(|(t, p)| (t.as_str(), p.clone(), 1.0)));
        let started = std::time::Instant::now();
        let ranked = router.rank("요청 17번 도구 예시 tool_17");
        let elapsed = started.elapsed();
        assert_eq!(ranked[0].plan, vec!["tool_17".to_owned()]);
        assert_eq!(ranked.len(), 50);
        // Generous for an unoptimised test build on a busy machine.
        assert!(elapsed.as_millis() < 50, "{elapsed:?}");
    }

    #[test]
    fn similarity_compares_new_texts_too() {
        let router = router();
        assert!(
            router.similarity("아침 커피 후 10분 걷기", "걷기 했어")
                > router.similarity("자기 전 책 10쪽 읽기", "걷기 했어")
        );
    }
}
