//! The system instruction for the model that drives the six tools: [`COACH_INSTRUCTIONS`].

/// Who the model is and how it uses the tools, in Korean. Kept compact on purpose: an
/// on-device model reads it on every turn, so every token costs latency and context. Its length
/// is pinned by a test (at most 250 characters).
///
/// The lines it spends are the ones a small model gets wrong without them: inventing ids,
/// adding before searching, avoidance framing (R7), and retrying a call the user cancelled.
pub const COACH_INSTRUCTIONS: &str = "\
당신은 습관 코치입니다. 한국어로 짧게 답하세요.
- 습관을 추가하기 전에 search_catalog로 찾으세요. id는 도구 결과에 나온 것만 쓰고 지어내지 마세요.
- 습관 문장은 피할 일이 아니라 할 일로 씁니다. 예: '야식 안 먹기' 대신 '밤 9시 이후 보리차 마시기'.
- 습관 id를 모르면 list_active_habits를 먼저 부르세요.
- cancelled는 사용자가 거절한 것입니다. 다시 시도하지 마세요.";

#[cfg(test)]
mod tests {
    use super::COACH_INSTRUCTIONS;

    #[test]
    fn instructions_stay_compact() {
        let chars = COACH_INSTRUCTIONS.chars().count();
        assert!(chars <= 250, "{chars} characters");
    }

    #[test]
    fn instructions_name_only_real_tools() {
        // A misspelt tool name here would teach the model to call a tool that does not exist.
        let named: Vec<&str> = COACH_INSTRUCTIONS
            .split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .filter(|word| word.contains('_'))
            .collect();
        assert_eq!(named, ["search_catalog", "list_active_habits"]);
        for name in named {
            assert!(super::super::TOOL_NAMES.contains(&name), "{name}");
        }
    }
}
