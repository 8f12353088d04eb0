//! The channels a session scores requests under, for tool choice without the model's
//! reading: one per tool (its label, description and some of its examples' requests), then
//! one for plain conversation.

use super::background::Background;
use super::decision::{Candidate, Channel};
use super::router::Router;
use super::training::Training;
use super::tuning::CHANNEL_EXAMPLES;
use crate::registry::Registry;
use crate::tool::Example;

/// The candidates of a registry's channels, in [`channels`] order: every tool in
/// registration order, then plain conversation.
pub(super) fn candidates(registry: &Registry) -> Vec<Candidate> {
    registry
        .tools()
        .map(|tool| Candidate::Tool(tool.name().to_owned()))
        .chain(std::iter::once(Candidate::Chat))
        .collect()
}

/// One channel per tool of `registry` (label, description, some of its examples'
/// requests), then one for plain conversation described by `chat_description` (with the
/// requests of examples without calls) — what a session that can score is configured with
/// ([`ChatConfig::channels`](crate::ChatConfig::channels)).
pub fn channels(registry: &Registry, chat_description: &str) -> Vec<Channel> {
    let router = Training::of(registry, &Background::none()).router;
    let requests = |pick: &dyn Fn(&Example) -> bool, k: usize| -> Vec<String> {
        let all: Vec<&str> = registry
            .examples()
            .filter(|e| pick(e))
            .map(Example::request)
            .collect();
        spread(&all, k, &router)
    };
    let mut channels: Vec<Channel> = registry
        .tools()
        .map(|tool| Channel {
            candidate: Candidate::Tool(tool.name().to_owned()),
            title: tool.label().to_owned(),
            description: tool.description().to_owned(),
            examples: requests(
                &|e: &Example| e.plan().first() == Some(&tool.name()),
                CHANNEL_EXAMPLES,
            ),
        })
        .collect();
    // Examples make any request likelier after them: the chat channel shows no more than the
    // tools' best-furnished channel, or it would win for tools that declare none.
    let most = channels.iter().map(|c| c.examples.len()).max().unwrap_or(0);
    channels.push(Channel {
        candidate: Candidate::Chat,
        title: String::new(),
        description: chat_description.to_owned(),
        examples: requests(&|e: &Example| e.calls().is_empty(), most),
    });
    channels
}

/// At most `k` of `requests`, as unlike each other as the router can tell: the first, then
/// again and again the one least like any already taken (farthest-point selection), listed in
/// declaration order.
///
/// A channel is only as good as the requests it shows: the first few a developer declares
/// tend to be one way of asking (habits by number, say), and a request put another way (the
/// habit by name) is then unlikely after every channel but the chat one, whose examples are
/// all different. Spread examples cover the ways a tool is asked for.
fn spread(requests: &[&str], k: usize, router: &Router) -> Vec<String> {
    let mut taken: Vec<usize> = Vec::new();
    // Per request: its greatest similarity to any taken request.
    let mut closest = vec![f32::NEG_INFINITY; requests.len()];
    while taken.len() < k.min(requests.len()) {
        let next = if taken.is_empty() {
            0
        } else {
            (0..requests.len())
                .filter(|i| !taken.contains(i))
                .min_by(|&a, &b| closest[a].total_cmp(&closest[b]).then(a.cmp(&b)))
                .unwrap_or(0)
        };
        taken.push(next);
        for (i, request) in requests.iter().enumerate() {
            closest[i] = closest[i].max(router.similarity(request, requests[next]));
        }
    }
    taken.sort_unstable();
    taken.into_iter().map(|i| requests[i].to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_examples_are_spread_over_the_ways_of_asking() {
        let requests = [
            "1번 습관 연속 며칠째야?",
            "2번 습관 연속 며칠째야?",
            "3번 습관 연속 며칠째야?",
            "걷기 몇 번이나 했는지 궁금해",
        ];
        let router = Router::train(
            requests
                .iter()
                .map(|r| (*r, vec!["streak".to_owned()], 1.0)),
        );
        assert_eq!(
            spread(&requests, 2, &router),
            ["1번 습관 연속 며칠째야?", "걷기 몇 번이나 했는지 궁금해"],
            "the unlike one, not a second near copy"
        );
        assert_eq!(spread(&requests, 9, &router).len(), 4, "all when fewer");
        assert!(spread(&[], 3, &router).is_empty());
    }
}
