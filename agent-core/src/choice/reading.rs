//! A classifier over the model's reading of a request (a vector per text, from
//! [`Evidence::read`](super::Evidence::read)): which plan of the declared examples the
//! request is most like, as the *model* reads it rather than by its letters.
//!
//! Trained when the agent first needs it, on the vectors of the declared examples' requests
//! (each labelled with its plan): the vectors are standardised (each dimension to mean 0 and
//! unit spread over the examples) and a multinomial logistic regression with a small L2
//! penalty is fitted by full-batch gradient descent with momentum, at the largest step the
//! inputs' curvature allows.
//!
//! Where the lexical router sees letters — two requests with no word in common are unlike to
//! it — the model reads meaning; the two together choose better than either alone.

use super::router::Plan;

/// Passes of gradient descent: with the step the inputs' curvature allows (see
/// [`step_size`]), enough to come close to the penalised optimum on a few hundred examples.
const EPOCHS: usize = 600;
/// Momentum of the steps.
const MOMENTUM: f32 = 0.9;
/// Power-iteration steps for the inputs' largest curvature.
const POWER_STEPS: usize = 30;
/// The L2 penalty per example, as scikit-learn's `C = 1` puts it (`1 / (C · n)` on the mean
/// loss, for unscaled inputs).
const C: f32 = 1.0;
/// A dimension whose spread over the examples is below this is left unscaled (it says
/// nothing, and dividing by its spread would only magnify noise).
const MIN_SPREAD: f32 = 1e-6;

/// See the module doc.
#[derive(Debug, Clone)]
pub struct ReadingClassifier {
    classes: Vec<Plan>,
    mean: Vec<f32>,
    /// Per dimension: `1 / (spread · √dimensions)`, so a standardised vector has unit length
    /// on average and one step size suits any width.
    scale: Vec<f32>,
    weights: Vec<Vec<f32>>,
    bias: Vec<f32>,
}

impl ReadingClassifier {
    /// Fits the classifier to `vectors` labelled with `plans` (the same length). `None` when
    /// there is nothing to learn: fewer than two plans, no vectors, or vectors of different
    /// lengths.
    pub fn train(vectors: &[Vec<f32>], plans: &[Plan]) -> Option<Self> {
        Self::train_weighted(vectors, plans, &vec![1.0; plans.len()])
    }

    /// [`train`](Self::train) with a weight per vector (the same length): how much each
    /// counts in the fit (background requests that need no tool count for less than an app's
    /// own examples, so that a hundred of them do not outweigh three of a tool).
    pub fn train_weighted(vectors: &[Vec<f32>], plans: &[Plan], weights: &[f32]) -> Option<Self> {
        let width = vectors.first()?.len();
        if width == 0
            || vectors.len() != plans.len()
            || weights.len() != plans.len()
            || vectors.iter().any(|v| v.len() != width)
        {
            return None;
        }
        let mut classes: Vec<Plan> = Vec::new();
        let labels: Vec<usize> = plans
            .iter()
            .map(|plan| match classes.iter().position(|c| c == plan) {
                Some(class) => class,
                None => {
                    classes.push(plan.clone());
                    classes.len() - 1
                }
            })
            .collect();
        if classes.len() < 2 {
            return None;
        }
        let n = vectors.len() as f32;
        let mut mean = vec![0.0_f32; width];
        for vector in vectors {
            for (m, x) in mean.iter_mut().zip(vector) {
                *m += x / n;
            }
        }
        let mut spread = vec![0.0_f32; width];
        for vector in vectors {
            for ((s, x), m) in spread.iter_mut().zip(vector).zip(&mean) {
                *s += (x - m) * (x - m) / n;
            }
        }
        let root = (width as f32).sqrt();
        let scale: Vec<f32> = spread
            .into_iter()
            .map(|s| {
                let s = s.sqrt();
                if s < MIN_SPREAD {
                    1.0 / root
                } else {
                    1.0 / (s * root)
                }
            })
            .collect();
        let mut classifier = Self {
            classes,
            mean,
            scale,
            weights: Vec::new(),
            bias: Vec::new(),
        };
        let inputs: Vec<Vec<f32>> = vectors.iter().map(|v| classifier.standardise(v)).collect();
        classifier.fit(&inputs, &labels, weights);
        Some(classifier)
    }

    /// The plans it tells apart, in the order of [`log_probabilities`](Self::log_probabilities).
    pub fn classes(&self) -> &[Plan] {
        &self.classes
    }

    /// The log-probability of each plan for a text read as `vector`; `None` when the vector
    /// is not of the training width.
    pub fn log_probabilities(&self, vector: &[f32]) -> Option<Vec<f32>> {
        if vector.len() != self.mean.len() {
            return None;
        }
        let input = self.standardise(vector);
        Some(log_softmax(&self.logits(&input)))
    }

    /// The log-probability of `plan` (`None` when it is not one of the classes).
    pub fn log_probability(&self, log_probabilities: &[f32], plan: &Plan) -> Option<f32> {
        let class = self.classes.iter().position(|c| c == plan)?;
        log_probabilities.get(class).copied()
    }

    fn standardise(&self, vector: &[f32]) -> Vec<f32> {
        vector
            .iter()
            .zip(&self.mean)
            .zip(&self.scale)
            .map(|((x, m), s)| (x - m) * s)
            .collect()
    }

    fn logits(&self, input: &[f32]) -> Vec<f32> {
        self.weights
            .iter()
            .zip(&self.bias)
            .map(|(w, b)| b + dot(w, input))
            .collect()
    }

    fn fit(&mut self, inputs: &[Vec<f32>], labels: &[usize], weights: &[f32]) {
        let classes = self.classes.len();
        let width = self.mean.len();
        // The weights' sum: the number of inputs when every weight is 1.
        let n: f32 = weights.iter().sum::<f32>().max(f32::MIN_POSITIVE);
        // scikit-learn's penalty, carried over to inputs scaled by 1/√width.
        let l2 = 1.0 / (C * n * width as f32);
        self.weights = vec![vec![0.0; width]; classes];
        self.bias = vec![0.0; classes];
        let mut weight_velocity = vec![vec![0.0_f32; width]; classes];
        let mut bias_velocity = vec![0.0_f32; classes];
        let step = step_size(inputs, l2);
        // The biases see a constant input of 1, orthogonal to the centred inputs, so their
        // block of the curvature is bounded apart: by ½ (no penalty on them).
        let bias_step = 2.0;
        for _ in 0..EPOCHS {
            let mut weight_grad = vec![vec![0.0_f32; width]; classes];
            let mut bias_grad = vec![0.0_f32; classes];
            for ((input, &label), &weight) in inputs.iter().zip(labels).zip(weights) {
                let probabilities: Vec<f32> = log_softmax(&self.logits(input))
                    .iter()
                    .map(|l| l.exp())
                    .collect();
                for (class, p) in probabilities.iter().enumerate() {
                    let error = (p - if class == label { 1.0 } else { 0.0 }) * weight / n;
                    bias_grad[class] += error;
                    for (g, x) in weight_grad[class].iter_mut().zip(input) {
                        *g += error * x;
                    }
                }
            }
            for class in 0..classes {
                bias_velocity[class] =
                    MOMENTUM * bias_velocity[class] - bias_step * bias_grad[class];
                self.bias[class] += bias_velocity[class];
                let weights = &mut self.weights[class];
                for ((w, v), g) in weights
                    .iter_mut()
                    .zip(weight_velocity[class].iter_mut())
                    .zip(&weight_grad[class])
                {
                    *v = MOMENTUM * *v - step * (g + l2 * *w);
                    *w += *v;
                }
            }
        }
    }
}

/// The dot product of two vectors of one length, summed in eight lanes so that the compiler
/// can use the CPU's vector instructions (a single running sum must be added in order, one
/// element at a time); training spends most of its time here.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    const LANES: usize = 8;
    let mut lanes = [0.0_f32; LANES];
    let (a_chunks, b_chunks) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = a_chunks
        .remainder()
        .iter()
        .zip(b_chunks.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a_chunks.zip(b_chunks) {
        for ((lane, x), y) in lanes.iter_mut().zip(x).zip(y) {
            *lane += x * y;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The largest step gradient descent can take on the weights of the mean softmax loss of
/// (centred) `inputs` with an L2 penalty `l2`: the inverse of the loss's greatest curvature in
/// them, which is at most half the largest eigenvalue of the inputs' second moment (Böhning's
/// bound for the softmax) plus the penalty. The eigenvalue is found by power iteration. A
/// fixed step would suit one set of inputs and crawl (or diverge) on another.
fn step_size(inputs: &[Vec<f32>], l2: f32) -> f32 {
    let width = inputs.first().map_or(0, Vec::len);
    let n = inputs.len().max(1) as f32;
    let mut v = vec![1.0 / (width.max(1) as f32).sqrt(); width];
    let mut largest = 0.0_f32;
    for _ in 0..POWER_STEPS {
        // u = Xᵀ(Xv) / n
        let mut u = vec![0.0_f32; width];
        for input in inputs {
            let projection = dot(input, &v);
            for (u, x) in u.iter_mut().zip(input) {
                *u += projection * x / n;
            }
        }
        largest = u.iter().map(|x| x * x).sum::<f32>().sqrt();
        if largest <= f32::EPSILON {
            break;
        }
        v = u.into_iter().map(|x| x / largest).collect();
    }
    1.0 / (0.5 * largest + l2).max(f32::EPSILON)
}

/// `values` as log-probabilities: each less the log of the sum of their exponentials.
pub(super) fn log_softmax(values: &[f32]) -> Vec<f32> {
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = values.iter().map(|v| (v - max).exp()).sum();
    let log_sum = max + sum.ln();
    values.iter().map(|v| v - log_sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(tools: &[&str]) -> Plan {
        tools.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn it_learns_which_plan_a_direction_means() {
        // Three plans, each a direction in 8 dimensions plus noise, with an offset and a
        // scale per dimension the standardisation must take out.
        let plans = [plan(&["search"]), plan(&["log"]), plan(&[])];
        let mut vectors = Vec::new();
        let mut labels = Vec::new();
        for i in 0..60 {
            let class = i % 3;
            let vector: Vec<f32> = (0..8)
                .map(|d| {
                    let signal = if d % 3 == class { 2.0 } else { 0.0 };
                    let noise = (((i * 7 + d * 13) % 11) as f32 - 5.0) / 10.0;
                    (signal + noise) * (d as f32 + 1.0) + 100.0
                })
                .collect();
            vectors.push(vector);
            labels.push(plans[class].clone());
        }
        let classifier = ReadingClassifier::train(&vectors, &labels).expect("trained");
        assert_eq!(classifier.classes().len(), 3);
        for (vector, label) in vectors.iter().zip(&labels) {
            let lp = classifier.log_probabilities(vector).expect("width");
            let best = classifier.classes()[lp
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map(|(i, _)| i)
                .expect("some")]
            .clone();
            assert_eq!(&best, label);
            let total: f32 = lp.iter().map(|l| l.exp()).sum();
            assert!(
                (total - 1.0).abs() < 1e-4,
                "probabilities sum to 1: {total}"
            );
        }
        assert!(
            classifier.log_probabilities(&[1.0, 2.0]).is_none(),
            "wrong width"
        );
        assert!(
            classifier
                .log_probability(&[0.0; 3], &plan(&["nope"]))
                .is_none()
        );
    }

    #[test]
    fn the_dot_product_counts_every_element() {
        // Lengths below, at and past a multiple of the lanes, so the tail counts too.
        for len in [0, 3, 8, 13, 640] {
            let a: Vec<f32> = (0..len).map(|i| i as f32).collect();
            let b = vec![2.0; len];
            let expected: f32 = (0..len).map(|i| 2.0 * i as f32).sum();
            assert_eq!(dot(&a, &b), expected, "length {len}");
        }
    }

    #[test]
    fn the_step_is_the_inverse_of_the_greatest_curvature() {
        // Second moment diag(2, 0.5): the greatest eigenvalue is 2, the softmax loss's
        // curvature at most half of it, so with no penalty the step is 1.
        let inputs = vec![vec![2.0, 0.0], vec![0.0, 1.0]];
        assert!((step_size(&inputs, 0.0) - 1.0).abs() < 1e-4);
        assert!((step_size(&inputs, 1.0) - 0.5).abs() < 1e-4);
        // Nothing to learn from: a finite step, not a division by zero.
        assert!(step_size(&[vec![0.0, 0.0]], 0.0).is_finite());
    }

    #[test]
    fn nothing_to_learn_is_none() {
        let one = vec![vec![1.0, 2.0], vec![2.0, 1.0]];
        assert!(ReadingClassifier::train(&one, &[plan(&["a"]), plan(&["a"])]).is_none());
        assert!(ReadingClassifier::train(&[], &[]).is_none());
        let ragged = vec![vec![1.0, 2.0], vec![2.0]];
        assert!(ReadingClassifier::train(&ragged, &[plan(&["a"]), plan(&["b"])]).is_none());
        assert!(ReadingClassifier::train(&one, &[plan(&["a"])]).is_none());
    }
}
