//! How the evidence for one request becomes a plan: the router's ranking, the model's
//! reading of the request and of its parts, and channel scores, each turned into
//! log-probabilities and added under the chooser's [`Tuning`].
//!
//! A request for two things is mostly read as the one it says more about, so where the
//! examples declare two-step plans the parts of the request (split between words) are read
//! too, and a part asking for each step composes the plan; and a request of two sentences,
//! each confidently asking for a different tool, gets the two in order whether or not an
//! example declares the pair.

use super::decision::{Candidate, Strategy};
use super::reading::{ReadingClassifier, log_softmax};
use super::router::{self, Plan, Ranked, Router};
use super::tuning::{PART_CONFIDENCE, PART_WORDS, Tuning, UNREAD_PLAN};
use crate::request::Request;

/// What one decision weighs with: the chooser's router, its reading classifier (if it has
/// learned one), its tuning and strategy, and the candidates its channels stand for.
pub(super) struct Weigher<'a> {
    pub(super) router: &'a Router,
    pub(super) classifier: Option<&'a ReadingClassifier>,
    pub(super) tuning: &'a Tuning,
    pub(super) strategy: Strategy,
    pub(super) candidates: &'a [Candidate],
}

/// A plan with the evidence it was chosen on.
pub(super) struct Weighed {
    pub(super) plan: Plan,
    pub(super) channel_scores: Vec<(Candidate, f32)>,
    pub(super) reading_scores: Vec<(Plan, f32)>,
    /// Every ranked plan's combined log-score, where the plan was chosen by one (not composed
    /// from the request's parts): how sure the choice is.
    pub(super) scores: Vec<(Plan, f32)>,
}

impl Weigher<'_> {
    /// The places a request's parts are read at between words: only where some declared
    /// plan has two different steps.
    pub(super) fn word_splits(&self, request: &Request) -> Vec<(String, String)> {
        if self.router.composes() {
            request.word_splits(PART_WORDS)
        } else {
            Vec::new()
        }
    }

    /// Decides for `request` from the router's `ranked` plans, the channel `scores` (the
    /// log-likelihoods the session returned for the channels `scored`, in that order) and
    /// the model's `reading`: the vectors of the request and its parts, in the order
    /// [`Chooser`](super::Chooser) asks for them (the request's alone is enough; without
    /// the parts' no plan is composed from them).
    ///
    /// With the reading, a request the whole of which reads as one step can still get a
    /// declared two-step plan: where it splits into a part that asks, above every other
    /// one-step plan, for the plan's first step and a part that asks for its second, each
    /// confidently (the reading of the part and the router's ranking of it, together).
    /// Failing that, a request of two sentences gets any two different tools its sentences
    /// ask for, in their order, where each sentence confidently gives its own and the whole
    /// request's reading does not rule either out.
    pub(super) fn weigh(
        &self,
        request: &Request,
        ranked: &[Ranked],
        scored: &[usize],
        scores: Option<&[f32]>,
        reading: Option<&[Vec<f32>]>,
    ) -> Weighed {
        let whole = reading.and_then(<[_]>::first);
        let reading_scores: Vec<(Plan, f32)> = match (self.classifier, whole) {
            (Some(classifier), Some(vector)) => classifier
                .log_probabilities(vector)
                .map(|lp| classifier.classes().iter().cloned().zip(lp).collect())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let channel_scores: Vec<(Candidate, f32)> = match scores {
            Some(scores) => scored
                .iter()
                .zip(scores)
                .filter_map(|(&i, &s)| Some((self.candidates.get(i)?.clone(), s)))
                .collect(),
            None => Vec::new(),
        };
        let mut scores = Vec::new();
        let plan = match (self.strategy, channel_scores.is_empty()) {
            (Strategy::Model, _) => Vec::new(),
            (Strategy::Channels, false) => channel_scores
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(candidate, _)| match candidate {
                    Candidate::Tool(name) => vec![name.clone()],
                    Candidate::Chat => Vec::new(),
                })
                .unwrap_or_default(),
            (Strategy::Combined, _) if !reading_scores.is_empty() => {
                scores = self.combine_reading(ranked, &reading_scores, &channel_scores);
                let plan = best(&scores).unwrap_or_default();
                let parts = reading.and_then(|r| r.get(1..)).unwrap_or_default();
                match self.classifier {
                    Some(classifier) if plan.len() < 2 => self
                        .compose_reading(request, parts, classifier)
                        .or_else(|| {
                            self.compose_sentences(request, parts, classifier, &reading_scores)
                        })
                        .unwrap_or(plan),
                    _ => plan,
                }
            }
            (Strategy::Combined, false) => {
                scores = self.combine(ranked, &channel_scores);
                best(&scores)
                    .or_else(|| ranked.first().map(|r| r.plan.clone()))
                    .unwrap_or_default()
            }
            _ => ranked.first().map(|r| r.plan.clone()).unwrap_or_default(),
        };
        Weighed {
            plan,
            channel_scores,
            reading_scores,
            scores,
        }
    }

    /// The router's ranking as log-probabilities, at the router temperature.
    fn router_log_q(&self, ranked: &[Ranked]) -> Vec<f32> {
        log_softmax(
            &ranked
                .iter()
                .map(|r| r.score / self.tuning.router_temperature)
                .collect::<Vec<_>>(),
        )
    }

    /// The channel scores as log-probabilities, at the channel temperature.
    fn channel_log_p(&self, channel_scores: &[(Candidate, f32)]) -> Vec<f32> {
        log_softmax(
            &channel_scores
                .iter()
                .map(|(_, s)| *s / self.tuning.channel_temperature)
                .collect::<Vec<_>>(),
        )
    }

    /// `log q(plan) + w · log p(plan | reading)`, over the ranked plans, plus the channel
    /// evidence of the plan's likeliest step where channels were scored (a plan none of
    /// whose steps was scored gets the least likely scored step's).
    fn combine_reading(
        &self,
        ranked: &[Ranked],
        reading_scores: &[(Plan, f32)],
        channel_scores: &[(Candidate, f32)],
    ) -> Vec<(Plan, f32)> {
        let router_log_q = self.router_log_q(ranked);
        let channel_log_p = self.channel_log_p(channel_scores);
        // 0 when nothing was scored.
        let least = channel_log_p.iter().copied().fold(0.0_f32, f32::min);
        let channel_of =
            |plan: &Plan| likeliest_step(plan, channel_scores, &channel_log_p).unwrap_or(least);
        ranked
            .iter()
            .zip(router_log_q)
            .map(|(r, log_q)| {
                let of = |plan: &[String]| {
                    reading_scores
                        .iter()
                        .find(|(p, _)| p.as_slice() == plan)
                        .map_or(UNREAD_PLAN, |(_, lp)| *lp)
                };
                // A request for two things reads partly like a request for each, and
                // two-step examples are few: a plan of several steps has the reading of its
                // least likely step, if that is more than its own — both steps must be
                // read in the request, and the router's composition, part by part, tells
                // one from two.
                let log_p = r
                    .plan
                    .iter()
                    .map(|step| of(std::slice::from_ref(step)))
                    .reduce(f32::min)
                    .map_or(of(&r.plan), |weakest| weakest.max(of(&r.plan)));
                (
                    r.plan.clone(),
                    log_q
                        + self.tuning.reading_weight * log_p
                        + self.tuning.reading_channel_weight * channel_of(&r.plan),
                )
            })
            .collect()
    }

    /// The declared two-step plan the parts of `request` ask for, step by step, if one is
    /// asked for confidently enough; `parts` are the vectors of its splits' parts.
    fn compose_reading(
        &self,
        request: &Request,
        parts: &[Vec<f32>],
        classifier: &ReadingClassifier,
    ) -> Option<Plan> {
        let classes = classifier.classes();
        let single = one_step_classes(classifier);
        let step = |tool: &String| {
            single
                .iter()
                .position(|&i| classes[i].first() == Some(tool))
        };
        let pairs: Vec<(&Plan, usize, usize)> = classes
            .iter()
            .filter_map(|plan| {
                let (a, b) = router::two_steps(plan)?;
                Some((plan, step(a)?, step(b)?))
            })
            .collect();
        let splits = self.word_splits(request);
        if pairs.is_empty() || parts.len() < 2 * splits.len() {
            return None;
        }
        let part =
            |text: &str, vector: &[f32]| self.part_reading(classifier, &single, text, vector);
        let mut best: Option<(&Plan, f32)> = None;
        for ((left, right), vectors) in splits.iter().zip(parts.chunks_exact(2)) {
            let (Some(l), Some(r)) = (part(left, &vectors[0]), part(right, &vectors[1])) else {
                return None;
            };
            for &(plan, first, second) in &pairs {
                let composed = l[first].min(r[second]);
                if best.is_none_or(|(_, score)| composed > score) {
                    best = Some((plan, composed));
                }
            }
        }
        best.filter(|(_, score)| *score >= PART_CONFIDENCE.ln())
            .map(|(plan, _)| plan.clone())
    }

    /// A part's log-probability of each one-step plan (`single`, indices into the
    /// classifier's classes): its reading's and the router's ranking of it, each normalised
    /// over those plans, multiplied and normalised again; every plan but the one the part's
    /// own reading puts first is ruled out.
    fn part_reading(
        &self,
        classifier: &ReadingClassifier,
        single: &[usize],
        text: &str,
        vector: &[f32],
    ) -> Option<Vec<f32>> {
        let classes = classifier.classes();
        let all = classifier.log_probabilities(vector)?;
        let read = log_softmax(&single.iter().map(|&i| all[i]).collect::<Vec<_>>());
        let scores = self.router.whole_scores(text);
        let routed = log_softmax(
            &single
                .iter()
                .map(|&i| {
                    scores
                        .iter()
                        .find(|(plan, _)| **plan == classes[i])
                        .map_or(UNREAD_PLAN, |(_, score)| {
                            score / self.tuning.router_temperature
                        })
                })
                .collect::<Vec<_>>(),
        );
        let combined = log_softmax(
            &read
                .iter()
                .zip(&routed)
                .map(|(a, b)| a + b)
                .collect::<Vec<_>>(),
        );
        // A step the part's own reading does not put first is the router's alone: a part
        // that only names something ("오늘 할일") is like some step's examples without
        // asking for it.
        let top = read
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(i, _)| i);
        Some(
            combined
                .iter()
                .enumerate()
                .map(|(i, &lp)| {
                    if Some(i) == top {
                        lp
                    } else {
                        f32::NEG_INFINITY
                    }
                })
                .collect(),
        )
    }

    /// The two-step plan a request of two clauses asks for, clause by clause, declared or
    /// not: where, split between two of its clauses (after a sentence's end or a joining word,
    /// see `Request::clause_splits`), the first part asks for one tool and the rest for
    /// another, each with at least the tuning's sentence confidence (read as in
    /// [`compose_reading`](Self::compose_reading)), and the whole request's reading (`whole`)
    /// gives each at least the sentence floor. `parts` are the vectors of all the parts read,
    /// the clause splits' last.
    ///
    /// No example can declare every pair of tools an app's requests combine ("오늘 걷기
    /// 했어! 며칠 연속이야?" is a check-in and a question about the streak), and a pair
    /// composed from any split between words is mostly false: one request cut into what it
    /// names and what it asks. Between clauses, each part is a request of its own.
    fn compose_sentences(
        &self,
        request: &Request,
        parts: &[Vec<f32>],
        classifier: &ReadingClassifier,
        whole: &[(Plan, f32)],
    ) -> Option<Plan> {
        let sentences = request.clause_splits();
        let skip = parts.len().checked_sub(2 * sentences.len())?;
        let classes = classifier.classes();
        let single = one_step_classes(classifier);
        let mut best: Option<(Plan, f32)> = None;
        for ((left, right), vectors) in sentences.iter().zip(parts[skip..].chunks_exact(2)) {
            let l = self.part_reading(classifier, &single, left, &vectors[0])?;
            let r = self.part_reading(classifier, &single, right, &vectors[1])?;
            let first = |lp: &[f32]| {
                lp.iter()
                    .enumerate()
                    .max_by(|a, b| a.1.total_cmp(b.1))
                    .map(|(i, &p)| (&classes[single[i]], p))
            };
            let (Some((a, pa)), Some((b, pb))) = (first(&l), first(&r)) else {
                continue;
            };
            let (Some(a), Some(b)) = (a.first(), b.first()) else {
                // A part that needs no tool (a greeting, a thank-you) composes nothing.
                continue;
            };
            let score = pa.min(pb);
            if a != b && best.as_ref().is_none_or(|(_, s)| score > *s) {
                best = Some((vec![a.clone(), b.clone()], score));
            }
        }
        let floor = self.tuning.sentence_floor.ln();
        let read_whole = |step: &String| {
            whole
                .iter()
                .find(|(plan, _)| plan.len() == 1 && plan.first() == Some(step))
                .is_some_and(|(_, lp)| *lp >= floor)
        };
        best.filter(|(plan, score)| {
            *score >= self.tuning.sentence_confidence.ln() && plan.iter().all(read_whole)
        })
        .map(|(plan, _)| plan)
    }

    /// `log q(plan) + w · max log p(step)`, over the plans with a scored step.
    fn combine(&self, ranked: &[Ranked], channel_scores: &[(Candidate, f32)]) -> Vec<(Plan, f32)> {
        let channel_log_p = self.channel_log_p(channel_scores);
        let router_log_q = self.router_log_q(ranked);
        ranked
            .iter()
            .zip(router_log_q)
            .filter_map(|(r, log_q)| {
                let log_p = likeliest_step(&r.plan, channel_scores, &channel_log_p)?;
                Some((r.plan.clone(), log_q + self.tuning.channel_weight * log_p))
            })
            .collect()
    }
}

/// The plan of the highest score (the last of equals).
pub(super) fn best(scores: &[(Plan, f32)]) -> Option<Plan> {
    scores
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(plan, _)| plan.clone())
}

/// A plan's steps as channel candidates: its tools, or plain conversation for the empty plan.
pub(super) fn steps_of(plan: &Plan) -> Vec<Candidate> {
    if plan.is_empty() {
        vec![Candidate::Chat]
    } else {
        plan.iter()
            .map(|tool| Candidate::Tool(tool.clone()))
            .collect()
    }
}

/// A plan's channel evidence: the log-probability (`log_p`, per entry of `channel_scores`)
/// of its likeliest scored step, `None` when no step was scored. A request for two things
/// reads like requests for either (most like the one it says more about), so its first
/// step alone would undersell it.
fn likeliest_step(plan: &Plan, channel_scores: &[(Candidate, f32)], log_p: &[f32]) -> Option<f32> {
    steps_of(plan)
        .iter()
        .filter_map(|step| {
            let i = channel_scores.iter().position(|(c, _)| c == step)?;
            log_p.get(i).copied()
        })
        .reduce(f32::max)
}

/// The indices of a classifier's one-step plans (and no tool), which each part of a request
/// is read as one of.
fn one_step_classes(classifier: &ReadingClassifier) -> Vec<usize> {
    let classes = classifier.classes();
    (0..classes.len())
        .filter(|&i| classes[i].len() <= 1)
        .collect()
}
