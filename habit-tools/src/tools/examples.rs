//! The coach's examples beyond each tool's own few: more ways people ask for each tool,
//! requests that take two calls, and requests that need no tool — with the kind of answer
//! the coach gives. The tool-choice stage learns from all of them; prompts show the tools' own
//! examples and a few of the answers.
//!
//! Ids in examples refer to the catalog (fixed) or to habit numbers a person would say
//! ("1번"); they are checked against the tools' schemas when the registry is built.

use agent_core::Example;
use serde_json::json;

fn call(request: &str, tool: &str, args: serde_json::Value) -> Example {
    Example::new(request).call(tool, args)
}

fn chat(request: &str, answer: &str) -> Example {
    Example::new(request).answer(answer)
}

/// Every example; see the module doc.
pub fn examples() -> Vec<Example> {
    let mut all = exchanges();
    all.extend(single_calls());
    all.extend(multi_step());
    all.extend(conversation());
    all.extend(more_ways());
    all
}

/// Whole exchanges — request, call, what the tool answered, what the coach said — which show
/// a model how to answer from a result (including a cancelled call and a refused one).
fn exchanges() -> Vec<Example> {
    vec![
        Example::new("운동 습관 찾아줘")
            .call("search_catalog", json!({"keyword": "운동"}))
            .result(json!({"status": "ok", "data": {"count": 2, "items": [
                {"id": "build.morning-walk", "title": "아침 10분 걷기", "category": "운동", "summary": "아침에 10분 걸으며 몸을 깨우고 햇빛 쬐기"},
                {"id": "build.daily-pushups", "title": "양치 후 푸시업", "category": "운동", "summary": "저녁 양치 뒤 푸시업 몇 개로 근력 기초 쌓기"}
            ]}}))
            .answer("운동 습관 2개를 찾았어요: '아침 10분 걷기', '양치 후 푸시업'. 마음에 드는 게 있으면 추가해 드릴게요."),
        Example::new("3번 습관 연속 기록 알려줘")
            .call("get_streak", json!({"habit_id": 3}))
            .result(json!({"status": "ok", "data": {"current_streak": 4, "longest_streak": 6, "done_count_30d": 12, "done_count_phase42": 12, "tier": "seed", "never_miss_twice_broken": false}}))
            .answer("지금 4일 연속이에요! 최근 30일 동안 12번 했어요. 이대로 계속해요."),
        Example::new("build.take-stairs로 '회사에서 계단으로 오르기' 습관 추가해줘")
            .call("add_habit", json!({"protocol_id": "build.take-stairs", "frame_level": 2, "framed_text": "회사에서 계단으로 오르기"}))
            .result(json!({"status": "cancelled", "reason": "user did not confirm"}))
            .answer("알겠어요, 추가하지 않았어요."),
        Example::new("2번 오늘 했어")
            .call("log_tracker_entry", json!({"habit_id": 2, "value": "done"}))
            .result(json!({"status": "error", "code": "duplicate", "reason": "habit 2 already has an entry for 2025-03-02"}))
            .answer("2번 습관은 오늘 이미 기록되어 있어요."),
    ]
}

fn single_calls() -> Vec<Example> {
    vec![
        // search_catalog
        call(
            "건강 관련 습관 목록 좀 보여줘",
            "search_catalog",
            json!({"category": "건강"}),
        ),
        call(
            "잠을 잘 자고 싶은데 도움 되는 습관 있어?",
            "search_catalog",
            json!({"keyword": "잠"}),
        ),
        call(
            "군것질 줄이는 습관 있나요",
            "search_catalog",
            json!({"keyword": "군것질"}),
        ),
        call(
            "생산성 올리는 습관 2개만",
            "search_catalog",
            json!({"category": "생산성", "limit": 2}),
        ),
        call("술 끊고 싶어", "search_catalog", json!({"keyword": "술"})),
        call(
            "독서 습관 있어?",
            "search_catalog",
            json!({"keyword": "독서"}),
        ),
        call(
            "운동 습관 추천 좀",
            "search_catalog",
            json!({"category": "운동"}),
        ),
        call(
            "공부 관련 습관도 있어?",
            "search_catalog",
            json!({"keyword": "공부"}),
        ),
        call(
            "아침 루틴으로 좋은 거 찾아봐",
            "search_catalog",
            json!({"keyword": "아침"}),
        ),
        call(
            "야식 끊는 방법 있는 습관 검색",
            "search_catalog",
            json!({"keyword": "야식"}),
        ),
        call(
            "마음이 불안할 때 할 만한 습관?",
            "search_catalog",
            json!({"category": "마음"}),
        ),
        // query_protocol
        call(
            "아침 햇빛 10분은 어떻게 하는 거예요?",
            "query_protocol",
            json!({"id": "build.morning-sunlight"}),
        ),
        call(
            "지중해식 식단 설명해줘",
            "query_protocol",
            json!({"id": "diet.mediterranean"}),
        ),
        call(
            "스누즈 버튼 바꾸기 방법 알려줘",
            "query_protocol",
            json!({"id": "break.snooze"}),
        ),
        call(
            "25분 집중 블록은 언제 하면 좋아?",
            "query_protocol",
            json!({"id": "build.pomodoro"}),
        ),
        call(
            "build.take-stairs 이건 뭐야",
            "query_protocol",
            json!({"id": "build.take-stairs"}),
        ),
        call(
            "break.alcohol 무슨 내용이야?",
            "query_protocol",
            json!({"id": "break.alcohol"}),
        ),
        call(
            "채소 먼저 먹기는 정확히 어떻게 해?",
            "query_protocol",
            json!({"id": "build.vegetables-first"}),
        ),
        call(
            "MIND 식단이 뭔지 알려줘",
            "query_protocol",
            json!({"id": "diet.mind"}),
        ),
        // list_active_habits
        call("내 습관 알려줘", "list_active_habits", json!({})),
        call(
            "지금 하고 있는 거 뭐뭐 있지?",
            "list_active_habits",
            json!({}),
        ),
        call("습관 더 넣을 자리 있어?", "list_active_habits", json!({})),
        call("내습관", "list_active_habits", json!({})),
        call("내 습관 리스트", "list_active_habits", json!({})),
        call(
            "제가 하고 있는 습관들 보여주세요",
            "list_active_habits",
            json!({}),
        ),
        // get_streak
        call("1번 몇일째야?", "get_streak", json!({"habit_id": 1})),
        call("2번 스트릭 알려줘", "get_streak", json!({"habit_id": 2})),
        call(
            "독서는 연속 기록이 어떻게 돼?",
            "get_streak",
            json!({"habit_id": 2}),
        ),
        call(
            "3번 습관 연속 기록 보여줘",
            "get_streak",
            json!({"habit_id": 3}),
        ),
        call(
            "2번 최근에 몇 번 했어?",
            "get_streak",
            json!({"habit_id": 2}),
        ),
        call(
            "1번 며칠째 하고 있는지 알려줘",
            "get_streak",
            json!({"habit_id": 1}),
        ),
        call(
            "2번 요즘 잘 하고 있어? 기록 봐줘",
            "get_streak",
            json!({"habit_id": 2}),
        ),
        // add_habit
        call(
            "build.pomodoro 추가해줘. 오전에 25분 집중하기",
            "add_habit",
            json!({"protocol_id": "build.pomodoro", "frame_level": 2, "framed_text": "오전에 25분 집중하기"}),
        ),
        call(
            "기상 후 물 한 컵 습관 넣어줘",
            "add_habit",
            json!({"protocol_id": "build.water-first", "frame_level": 1, "framed_text": "기상 후 물 한 컵"}),
        ),
        call(
            "감사 일기 습관 등록할래. 자기 전에 세 줄 쓰기",
            "add_habit",
            json!({"protocol_id": "build.gratitude-journal", "frame_level": 2, "framed_text": "자기 전에 세 줄 쓰기"}),
        ),
        call(
            "build.mood-check 추가. 퇴근길에 기분 적기",
            "add_habit",
            json!({"protocol_id": "build.mood-check", "frame_level": 2, "framed_text": "퇴근길에 기분 적기"}),
        ),
        call(
            "자세 리셋 습관 시작할래요. 한 시간마다 일어나기",
            "add_habit",
            json!({"protocol_id": "build.posture-reset", "frame_level": 1, "framed_text": "한 시간마다 일어나기"}),
        ),
        // log_tracker_entry
        call(
            "3번 오늘 완료",
            "log_tracker_entry",
            json!({"habit_id": 3, "value": "done"}),
        ),
        call(
            "2번 했음",
            "log_tracker_entry",
            json!({"habit_id": 2, "value": "done"}),
        ),
        call(
            "어제 1번 했어",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "done", "date": "yesterday"}),
        ),
        call(
            "2번은 오늘 쉬는 날로 체크",
            "log_tracker_entry",
            json!({"habit_id": 2, "value": "blank"}),
        ),
        call(
            "1번 오늘 걸었어!",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "done"}),
        ),
        call(
            "3번 어제 마셨어",
            "log_tracker_entry",
            json!({"habit_id": 3, "value": "done", "date": "yesterday"}),
        ),
        call(
            "2번 오늘 다 읽었다",
            "log_tracker_entry",
            json!({"habit_id": 2, "value": "done"}),
        ),
        call(
            "1번 오늘은 아파서 못 해. 쉰 걸로 해줘",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "blank"}),
        ),
        // Habits named in words rather than by number, and more ways to ask.
        call(
            "오늘 명상 끝!",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "done"}),
        ),
        call(
            "방금 산책하고 왔어요",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "done"}),
        ),
        call(
            "아침에 물 한 컵 마셨어",
            "log_tracker_entry",
            json!({"habit_id": 2, "value": "done"}),
        ),
        call(
            "푸시업 10개 했다 ㅎㅎ",
            "log_tracker_entry",
            json!({"habit_id": 3, "value": "done"}),
        ),
        call(
            "오늘 독서 완료",
            "log_tracker_entry",
            json!({"habit_id": 2, "value": "done"}),
        ),
        call(
            "어제 스트레칭 했는데 기록을 깜빡했어",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "done", "date": "yesterday"}),
        ),
        call(
            "어제 일기 썼어요 체크해주세요",
            "log_tracker_entry",
            json!({"habit_id": 3, "value": "done", "date": "yesterday"}),
        ),
        call(
            "오늘은 군것질 참았어!",
            "log_tracker_entry",
            json!({"habit_id": 3, "value": "done"}),
        ),
        call(
            "오늘 운동은 쉴래. 쉰 날로 해줘",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "blank"}),
        ),
        call(
            "회사에서 계단으로 올라왔어 기록해줘",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "done"}),
        ),
        call("걷기 며칠 연속이야?", "get_streak", json!({"habit_id": 1})),
        call("독서 연속 기록 어때?", "get_streak", json!({"habit_id": 2})),
        call(
            "명상 이번 달에 몇 번 했는지 알려줘",
            "get_streak",
            json!({"habit_id": 3}),
        ),
        call(
            "물 마시기 몇일째 이어가고 있지?",
            "get_streak",
            json!({"habit_id": 1}),
        ),
        call(
            "스트레칭 꾸준히 하고 있나 기록 봐줘",
            "get_streak",
            json!({"habit_id": 2}),
        ),
        call(
            "일기 쓰기 최장 기록이 며칠이야?",
            "get_streak",
            json!({"habit_id": 3}),
        ),
        call(
            "1번 습관 지금 무슨 단계까지 왔어?",
            "get_streak",
            json!({"habit_id": 1}),
        ),
        call(
            "독서 벌써 새싹 단계 됐나?",
            "get_streak",
            json!({"habit_id": 2}),
        ),
        call(
            "보리차 요즘 잘 되고 있는지 봐줘",
            "get_streak",
            json!({"habit_id": 3}),
        ),
        call(
            "2번 습관 성적표 좀 보여줘",
            "get_streak",
            json!({"habit_id": 2}),
        ),
        call("독서는 요즘 어때?", "get_streak", json!({"habit_id": 2})),
        call("지금 등록된 습관 좀 볼래", "list_active_habits", json!({})),
        call("나 뭐 하기로 했었지?", "list_active_habits", json!({})),
        call("현재 진행 중인 습관 목록", "list_active_habits", json!({})),
        call(
            "산책 관련 습관 있어요?",
            "search_catalog",
            json!({"keyword": "산책"}),
        ),
        call(
            "스트레스 줄이는 방법 찾아줘",
            "search_catalog",
            json!({"keyword": "스트레스"}),
        ),
        call(
            "카페인 줄이는 습관 있을까",
            "search_catalog",
            json!({"keyword": "카페인"}),
        ),
        call(
            "건강한 식습관 추천해줘",
            "search_catalog",
            json!({"category": "식습관"}),
        ),
        call(
            "build.pomodoro 이게 뭐예요?",
            "query_protocol",
            json!({"id": "build.pomodoro"}),
        ),
        call(
            "양치 후 푸시업은 몇 개씩 하는 거야?",
            "query_protocol",
            json!({"id": "build.daily-pushups"}),
        ),
        call(
            "break.late-caffeine 설명 좀",
            "query_protocol",
            json!({"id": "break.late-caffeine"}),
        ),
        call(
            "물 마시기 습관으로 추가해줘. 일어나면 물 한 컵",
            "add_habit",
            json!({"protocol_id": "build.water-first", "frame_level": 1, "framed_text": "일어나면 물 한 컵"}),
        ),
        call(
            "build.morning-walk로 등록할게. 점심 먹고 10분 걷기",
            "add_habit",
            json!({"protocol_id": "build.morning-walk", "frame_level": 2, "framed_text": "점심 먹고 10분 걷기"}),
        ),
    ]
}

fn multi_step() -> Vec<Example> {
    vec![
        Example::new("명상 습관 찾아서 추가해줘")
            .call("search_catalog", json!({"keyword": "명상"}))
            .call("add_habit", json!({"protocol_id": "build.breathing-2min", "frame_level": 1, "framed_text": "명상"})),
        Example::new("스트레칭 습관 찾아서 내 습관에 넣어줘")
            .call("search_catalog", json!({"keyword": "스트레칭"}))
            .call("add_habit", json!({"protocol_id": "build.bedtime-stretch", "frame_level": 1, "framed_text": "스트레칭"})),
        Example::new("수면 습관 검색해서 하나 자세히 보여줘")
            .call("search_catalog", json!({"category": "수면"}))
            .call("query_protocol", json!({"id": "build.consistent-wake"})),
        Example::new("내 습관 보여주고 1번은 오늘 한 걸로 기록해줘")
            .call("list_active_habits", json!({}))
            .call("log_tracker_entry", json!({"habit_id": 1, "value": "done"})),
        Example::new("습관 목록 보고 2번 연속 기록도 알려줘")
            .call("list_active_habits", json!({}))
            .call("get_streak", json!({"habit_id": 2})),
        Example::new("1번이랑 2번 오늘 다 했어")
            .call("log_tracker_entry", json!({"habit_id": 1, "value": "done"}))
            .call("log_tracker_entry", json!({"habit_id": 2, "value": "done"})),
        Example::new("2번하고 3번 스트릭 각각 알려줘")
            .call("get_streak", json!({"habit_id": 2}))
            .call("get_streak", json!({"habit_id": 3})),
        Example::new("내 습관 확인하고 걷기 연속 기록도 봐줘")
            .call("list_active_habits", json!({}))
            .call("get_streak", json!({"habit_id": 1})),
        Example::new("집중 습관 찾아보고 하나 자세히 알려줘")
            .call("search_catalog", json!({"keyword": "집중"}))
            .call("query_protocol", json!({"id": "build.pomodoro"})),
        Example::new("독서 습관 검색해서 등록해줘. 자기 전 10쪽")
            .call("search_catalog", json!({"keyword": "독서"}))
            .call("add_habit", json!({"protocol_id": "build.read-10-pages", "frame_level": 2, "framed_text": "자기 전 10쪽"})),
        Example::new("내 습관들 쭉 띄워 주고 나서 3번 했다고 남겨줘")
            .call("list_active_habits", json!({}))
            .call("log_tracker_entry", json!({"habit_id": 3, "value": "done"})),
        Example::new("감사 일기 같은 습관 있나 찾아보고 괜찮으면 추가해 줘")
            .call("search_catalog", json!({"keyword": "감사"}))
            .call("add_habit", json!({"protocol_id": "build.gratitude-journal", "frame_level": 1, "framed_text": "감사 일기"})),
        Example::new("자세 관련 습관 검색해 보고 그게 어떤 건지 설명 좀 해줘")
            .call("search_catalog", json!({"keyword": "자세"}))
            .call("query_protocol", json!({"id": "build.posture-reset"})),
        Example::new("습관 목록이랑 2번 스트릭 같이 보여줘")
            .call("list_active_habits", json!({}))
            .call("get_streak", json!({"habit_id": 2})),
    ]
}

fn conversation() -> Vec<Example> {
    vec![
        chat("안녕하세요", "안녕하세요! 오늘은 어떤 습관을 도와드릴까요?"),
        chat("고마워!", "천만에요. 꾸준히 하시는 모습 응원할게요!"),
        chat("잘 자", "편안한 밤 보내세요. 내일 또 만나요!"),
        chat("다음에 봐요", "네, 또 만나요. 오늘도 잘 해내셨어요!"),
        chat("thank you", "천만에요! 언제든 불러 주세요."),
        chat(
            "습관이 자리 잡으려면 얼마나 걸려?",
            "사람마다 다르지만 보통 두 달쯤 꾸준히 반복하면 자연스러워져요.",
        ),
        chat(
            "며칠 빼먹으면 어떡해?",
            "괜찮아요. 두 번 연속으로만 빠지지 않게 다시 시작하면 돼요.",
        ),
        chat(
            "꾸준히 하는 비결이 뭐야?",
            "아주 작게 시작해서 매일 같은 때에 하는 게 가장 좋아요.",
        ),
        chat("넌 누구야?", "습관 만들기를 도와드리는 코치예요."),
        chat(
            "오늘 너무 피곤하다",
            "오늘 하루 정말 고생 많으셨어요. 푹 쉬세요.",
        ),
        chat(
            "힘내라고 말해줘",
            "지금까지 해 온 것만으로도 충분히 잘하고 있어요. 힘내세요!",
        ),
        chat(
            "습관을 바꾸려면 어떻게 해야 해?",
            "바꾸고 싶은 행동 대신 할 작은 행동을 정하고, 매일 같은 때에 해 보세요.",
        ),
        chat(
            "왜 작게 시작하라는 거야?",
            "작게 시작하면 부담이 적어 매일 하기 쉽고, 그 반복이 습관을 만들어요.",
        ),
        chat(
            "의지가 약한데 괜찮을까?",
            "의지보다 환경이 중요해요. 하기 쉽게 만들면 누구나 할 수 있어요.",
        ),
        chat(
            "좋은 말 한마디 해줘",
            "오늘의 작은 한 걸음이 내일의 큰 변화를 만들어요!",
        ),
        chat("bye", "안녕히 가세요! 내일 또 봐요."),
        chat(
            "날씨 알려줘",
            "날씨는 알 수 없지만, 습관 만들기는 도와드릴 수 있어요.",
        ),
        chat(
            "코딩 좀 도와줘",
            "그건 제가 도와드릴 수 없어요. 습관에 대해서라면 언제든 물어보세요.",
        ),
        chat(
            "자바스크립트로 배열 합치는 방법 좀 알려줘",
            "그건 제가 도와드릴 수 없어요. 저는 습관 만들기를 돕는 코치예요.",
        ),
        chat(
            "너 이름이 뭐야?",
            "저는 습관 코치예요. 좋은 습관을 함께 만들어요.",
        ),
        chat(
            "요즘 너무 우울해",
            "마음이 많이 힘드시군요. 천천히 이야기해 주세요, 들을게요.",
        ),
        chat(
            "습관 만들 때 가장 중요한 게 뭐야?",
            "작게 시작하고, 매일 같은 때에 하는 거예요.",
        ),
        chat(
            "오늘 날씨 좋다",
            "기분 좋은 날이네요! 산책하기 딱 좋겠어요.",
        ),
        chat(
            "수학 문제 풀어줘",
            "그건 제가 도와드릴 수 없어요. 습관이라면 언제든 도와드릴게요.",
        ),
        chat(
            "습관은 왜 중요해?",
            "작은 행동이 매일 쌓이면 큰 변화가 돼요. 그래서 습관이 중요해요.",
        ),
        chat(
            "하루에 습관 몇 개가 적당해?",
            "처음엔 한두 개로 시작하고, 익숙해지면 하나씩 늘리는 게 좋아요.",
        ),
        chat(
            "습관 쌓기가 뭐야?",
            "이미 하는 행동 바로 뒤에 새 행동을 붙이는 방법이에요. 커피 마신 뒤 물 한 컵처럼요.",
        ),
        chat(
            "동기부여가 안 될 때는 어떡해?",
            "의욕이 없을 땐 아주 작게 해도 괜찮아요. 1분만 해도 이어가는 거예요.",
        ),
        chat(
            "좋은 아침!",
            "좋은 아침이에요! 오늘도 작은 습관 하나 해 봐요.",
        ),
        chat("수고했어", "고마워요! 오늘도 수고 많으셨어요."),
        chat("심심하다", "그럴 땐 가볍게 산책이나 스트레칭 어때요?"),
        chat(
            "ㅋㅋㅋ",
            "즐거워 보여서 좋네요! 더 도와드릴 게 있으면 말해 주세요.",
        ),
        chat("ok", "네, 좋아요! 필요하면 언제든 불러 주세요."),
        chat(
            "주식 추천해줘",
            "그건 제가 도와드릴 수 없어요. 습관에 대해서라면 언제든 물어보세요.",
        ),
        chat(
            "맛집 알려줘",
            "맛집은 잘 모르지만, 건강한 식습관은 도와드릴 수 있어요.",
        ),
        chat(
            "이메일 좀 대신 써줘",
            "그건 제가 할 수 없어요. 습관 만들기라면 도와드릴게요.",
        ),
        chat(
            "지금 몇 시야?",
            "시간은 알 수 없지만, 습관 기록은 도와드릴 수 있어요.",
        ),
        chat(
            "잘 안 돼서 속상해",
            "속상하셨겠어요. 조금씩이라도 이어가면 충분해요.",
        ),
    ]
}

/// More ways of asking for the same plans, so tool choice matches a request by what it asks
/// rather than by the wording of the examples above: 반말, 해요체 and 합쇼체; habits named by
/// ordinal or `#` ("첫 번째", "#3") as well as "N번"; a request wrapped in a line about the
/// person's day; no spaces, typos and emoji. The requests that need no tool include some
/// that use habit words ("스트레스", "쉬어도", "루틴") yet ask nothing a tool can answer.
///
/// Written by someone who had seen the tools and the catalog but none of the eval's
/// requests. The few that came out close to one of them anyway (edit similarity ≥ 0.7 to a
/// held-out or unread probe request, ≥ 0.8 to any other) were left out, and so were two-step
/// plans no other example declares (log then streak, query then add, streak then log): on
/// the dev requests they made a one-step request read as two (57 of 63 right against 60).
fn more_ways() -> Vec<Example> {
    vec![
        // search_catalog
        call(
            "잠이 너무 안 와요 ㅠㅠ 숙면에 좋은 거 뭐 있을까요",
            "search_catalog",
            json!({"keyword": "숙면"}),
        ),
        call(
            "폰 좀 덜 만지고 싶다",
            "search_catalog",
            json!({"category": "디지털"}),
        ),
        call(
            "유튜브 쇼츠 보다가 새벽 2시에 자는 게 일상이에요. 이거 고칠 만한 습관 있나요?",
            "search_catalog",
            json!({"keyword": "유튜브"}),
        ),
        call(
            "음식 관련 습관 3개만 골라줘",
            "search_catalog",
            json!({"category": "식습관", "limit": 3}),
        ),
        call(
            "거북목 심해요.. 고칠 습관?",
            "search_catalog",
            json!({"keyword": "거북목"}),
        ),
        call(
            "회식이 잦아서 맥주를 너무 자주 마셔요. 도움 될 만한 거 검색 좀",
            "search_catalog",
            json!({"keyword": "맥주"}),
        ),
        call(
            "만사가 귀찮음.. 이것도 습관으로 고칠 수 있나",
            "search_catalog",
            json!({"keyword": "귀찮음"}),
        ),
        call(
            "홈트 workout 루틴에 넣을 만한 습관 있나",
            "search_catalog",
            json!({"category": "운동"}),
        ),
        call(
            "치아 관리 습관 검색해 줄래?",
            "search_catalog",
            json!({"keyword": "치아"}),
        ),
        call(
            "긴장하면 손톱 물어뜯는 버릇이 있어요",
            "search_catalog",
            json!({"keyword": "손톱"}),
        ),
        call(
            "마음챙김 쪽으로 5개 추천",
            "search_catalog",
            json!({"category": "마음", "limit": 5}),
        ),
        // query_protocol
        call(
            "치실 한 번 습관은 정확히 뭘 하는 건가요?",
            "query_protocol",
            json!({"id": "build.floss-one-tooth"}),
        ),
        call(
            "DASH 식단이 뭐야? 혈압에 좋다던데",
            "query_protocol",
            json!({"id": "diet.dash"}),
        ),
        call(
            "휴대폰 거실에서 충전하는 거 어떻게 하는 건데",
            "query_protocol",
            json!({"id": "build.phone-outside-bedroom"}),
        ),
        call(
            "break.smoking 상세 정보",
            "query_protocol",
            json!({"id": "break.smoking"}),
        ),
        call(
            "오늘의 핵심 세 가지는 언제 정하는 게 좋아요?",
            "query_protocol",
            json!({"id": "build.daily-top3"}),
        ),
        call(
            "12시간 식사 창 규칙 좀 알려줘",
            "query_protocol",
            json!({"id": "diet.12h-eating-window"}),
        ),
        call(
            "마음 날씨가 뭐임",
            "query_protocol",
            json!({"id": "build.mood-check"}),
        ),
        call(
            "잠들기 전 30분 마무리 루틴 최소한 뭐만 하면 돼?",
            "query_protocol",
            json!({"id": "build.wind-down"}),
        ),
        call(
            "고단백 식단 주의할 점 있어?",
            "query_protocol",
            json!({"id": "diet.high-protein"}),
        ),
        call(
            "단 음료 바꾸기에서 대신 뭘 마시라는 거야",
            "query_protocol",
            json!({"id": "break.sugary-drinks"}),
        ),
        call(
            "혈당 안정 식단은 얼마 동안 해야 돼요",
            "query_protocol",
            json!({"id": "diet.low-glycemic"}),
        ),
        call(
            "break.procrastination 방법이 궁금합니다",
            "query_protocol",
            json!({"id": "break.procrastination"}),
        ),
        // list_active_habits
        call("내가 등록한거 전부 보여져", "list_active_habits", json!({})),
        call(
            "요새 내가 뭘 하기로 했는지 까먹었어 ㅋㅋ",
            "list_active_habits",
            json!({}),
        ),
        call("몇 번이 뭐였지? 번호 헷갈려", "list_active_habits", json!({})),
        call("습관 몇 개 등록돼 있어?", "list_active_habits", json!({})),
        call("습관 남은 자리 있나 확인 좀", "list_active_habits", json!({})),
        call("진행중인습관보여줘", "list_active_habits", json!({})),
        call(
            "혹시 끊을 습관 자리는 남아 있나요?",
            "list_active_habits",
            json!({}),
        ),
        call(
            "제 습관 번호랑 이름 좀 알려주실래요?",
            "list_active_habits",
            json!({}),
        ),
        call("내가 만든 습관들 나열해 봐", "list_active_habits", json!({})),
        call(
            "오늘 해야 할 습관이 뭐였는지 보여줘",
            "list_active_habits",
            json!({}),
        ),
        // get_streak
        call(
            "첫 번째 습관 연속 기록 궁금해",
            "get_streak",
            json!({"habit_id": 1}),
        ),
        call("#3 스트릭", "get_streak", json!({"habit_id": 3})),
        call(
            "2번째 습관 지금 며칠 이어가는 중이에요?",
            "get_streak",
            json!({"habit_id": 2}),
        ),
        call(
            "한 달 동안 1번은 몇 번이나 했는지 궁금해",
            "get_streak",
            json!({"habit_id": 1}),
        ),
        call(
            "세 번째 거 최장 기록 알려줘",
            "get_streak",
            json!({"habit_id": 3}),
        ),
        call(
            "1번 습관 얼마나 이어가고 있는지 궁금하네요",
            "get_streak",
            json!({"habit_id": 1}),
        ),
        call("3번 티어 뭐얌", "get_streak", json!({"habit_id": 3})),
        call(
            "둘째 습관 잘 되고 있나 통계 좀",
            "get_streak",
            json!({"habit_id": 2}),
        ),
        call("1번 기록 현황 알려줘", "get_streak", json!({"habit_id": 1})),
        call("#2 연속 며칠?", "get_streak", json!({"habit_id": 2})),
        call(
            "3번 습관 이번 달 성과 어때요? 솔직하게",
            "get_streak",
            json!({"habit_id": 3}),
        ),
        // add_habit
        call(
            "이번엔 정체성으로 가 볼게요. 나는 매일 책 읽는 사람 — 독서 습관으로 등록해 주세요",
            "add_habit",
            json!({"protocol_id": "build.read-10-pages", "frame_level": 3, "framed_text": "나는 매일 책 읽는 사람"}),
        ),
        call(
            "build.daily-pushups 추가할게 저녁 양치 끝나면 푸시업 다섯 개",
            "add_habit",
            json!({"protocol_id": "build.daily-pushups", "frame_level": 2, "framed_text": "저녁 양치 끝나면 푸시업 다섯 개", "dose_text": "다섯 개"}),
        ),
        call(
            "콜라 맨날 마시는데 단 음료 바꾸기로 등록할게. '콜라 대신 탄산수 마시기'",
            "add_habit",
            json!({"protocol_id": "break.sugary-drinks", "frame_level": 1, "framed_text": "콜라 대신 탄산수 마시기"}),
        ),
        call(
            "휴대폰 침실 밖에서 충전하는 습관 만들래요. 자기 전에 거실 충전기에 꽂기",
            "add_habit",
            json!({"protocol_id": "build.phone-outside-bedroom", "frame_level": 2, "framed_text": "자기 전에 거실 충전기에 꽂기", "anchor_when": "자기 전에"}),
        ),
        call(
            "야식 대신 할 거 정했어. 밤 10시 넘으면 양치하고 불 끄기로 등록해줘",
            "add_habit",
            json!({"protocol_id": "break.late-night-snacking", "frame_level": 2, "framed_text": "밤 10시 넘으면 양치하고 불 끄기"}),
        ),
        call(
            "2분 호흡 명상 추가. 점심 먹고 2분 숨 고르기",
            "add_habit",
            json!({"protocol_id": "build.breathing-2min", "frame_level": 2, "framed_text": "점심 먹고 2분 숨 고르기", "anchor_after_what": "점심 먹고", "dose_text": "2분"}),
        ),
        call(
            "아침 햇빛 쬐기 시작할래 ☀️ 출근길에 10분 햇볕 받으며 걷기",
            "add_habit",
            json!({"protocol_id": "build.morning-sunlight", "frame_level": 2, "framed_text": "출근길에 10분 햇볕 받으며 걷기", "dose_text": "10분"}),
        ),
        call(
            "감정 기록하는 습관 1단계로 추가해줘 '기분 한 단어로 적기'",
            "add_habit",
            json!({"protocol_id": "build.mood-check", "frame_level": 1, "framed_text": "기분 한 단어로 적기"}),
        ),
        call(
            "계단 습관은 정체성 문장으로 할래: 나는 계단을 오르는 사람이다",
            "add_habit",
            json!({"protocol_id": "build.take-stairs", "frame_level": 3, "framed_text": "나는 계단을 오르는 사람이다"}),
        ),
        call(
            "스누즈 버릇 바꾸는 거 등록해줘. 알람 울리면 바로 커튼 열기",
            "add_habit",
            json!({"protocol_id": "break.snooze", "frame_level": 2, "framed_text": "알람 울리면 바로 커튼 열기", "anchor_after_what": "알람 울리면"}),
        ),
        call(
            "담배 대신할 습관 추가: 피우고 싶을 때 물 한 잔 마시기",
            "add_habit",
            json!({"protocol_id": "break.smoking", "frame_level": 2, "framed_text": "피우고 싶을 때 물 한 잔 마시기"}),
        ),
        // log_tracker_entry
        call(
            "첫 번째 습관 오늘 완료했어요",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "done"}),
        ),
        call(
            "#2 체크",
            "log_tracker_entry",
            json!({"habit_id": 2, "value": "done"}),
        ),
        call(
            "3번 어젯밤에 했는데 기록 못 했어",
            "log_tracker_entry",
            json!({"habit_id": 3, "value": "done", "date": "yesterday"}),
        ),
        call(
            "1번 했음 메모: 비 와서 실내에서 제자리걸음",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "done", "note": "비 와서 실내에서 제자리걸음"}),
        ),
        call(
            "2번 오늘 끝냄ㅋㅋ",
            "log_tracker_entry",
            json!({"habit_id": 2, "value": "done"}),
        ),
        call(
            "오늘 두 번째 거 성공!! 🎉",
            "log_tracker_entry",
            json!({"habit_id": 2, "value": "done"}),
        ),
        call(
            "3번은 컨디션이 안 좋아서 오늘 휴식",
            "log_tracker_entry",
            json!({"habit_id": 3, "value": "blank"}),
        ),
        call(
            "어제 1번 못했어 쉰 걸로 처리해줘",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "blank", "date": "yesterday"}),
        ),
        call(
            "방금 2번 끝! 메모: 10쪽 말고 20쪽 읽음",
            "log_tracker_entry",
            json!({"habit_id": 2, "value": "done", "note": "10쪽 말고 20쪽 읽음"}),
        ),
        call(
            "오늘 여행 중이라 #1은 쉴게요",
            "log_tracker_entry",
            json!({"habit_id": 1, "value": "blank"}),
        ),
        call(
            "어제 3번 done 처리",
            "log_tracker_entry",
            json!({"habit_id": 3, "value": "done", "date": "yesterday"}),
        ),
        call(
            "세 번째 습관 어제 꺼 체크해 줘",
            "log_tracker_entry",
            json!({"habit_id": 3, "value": "done", "date": "yesterday"}),
        ),
        // Two calls.
        Example::new("커피 줄이는 습관 검색해서 등록해 줘, 오후 두 시 이후엔 디카페인 마시기")
            .call("search_catalog", json!({"keyword": "커피"}))
            .call("add_habit", json!({"protocol_id": "break.late-caffeine", "frame_level": 2, "framed_text": "오후 두 시 이후엔 디카페인 마시기"})),
        Example::new("두뇌에 좋은 식단 찾아보고 내용도 설명해 줘")
            .call("search_catalog", json!({"keyword": "두뇌"}))
            .call("query_protocol", json!({"id": "diet.mind"})),
        Example::new("내 습관 목록 띄우고 #2 오늘 완료 처리")
            .call("list_active_habits", json!({}))
            .call("log_tracker_entry", json!({"habit_id": 2, "value": "done"})),
        Example::new("2번 3번 둘 다 완료")
            .call("log_tracker_entry", json!({"habit_id": 2, "value": "done"}))
            .call("log_tracker_entry", json!({"habit_id": 3, "value": "done"})),
        Example::new("1번은 했고 2번은 오늘 쉴래")
            .call("log_tracker_entry", json!({"habit_id": 1, "value": "done"}))
            .call("log_tracker_entry", json!({"habit_id": 2, "value": "blank"})),
        Example::new("습관 뭐 있는지랑 첫 번째 거 스트릭 같이 알려줘")
            .call("list_active_habits", json!({}))
            .call("get_streak", json!({"habit_id": 1})),
        Example::new("미루기 고치는 습관 찾아서 추가해줘. 하기 싫을 때 2분만 시작하기")
            .call("search_catalog", json!({"keyword": "미루기"}))
            .call("add_habit", json!({"protocol_id": "break.procrastination", "frame_level": 2, "framed_text": "하기 싫을 때 2분만 시작하기"})),
        Example::new("계획 세우는 습관 찾아서 추가해 주세요. 나는 하루를 계획하는 사람")
            .call("search_catalog", json!({"keyword": "계획"}))
            .call("add_habit", json!({"protocol_id": "build.daily-top3", "frame_level": 3, "framed_text": "나는 하루를 계획하는 사람"})),
        // No tool.
        chat("하이~", "안녕하세요! 오늘 챙기고 싶은 습관이 있으면 말씀해 주세요."),
        chat(
            "진짜 고마워요 덕분에 일주일 버텼어요",
            "일주일이나 해내셨다니 멋져요! 그 기세로 계속 가 봐요.",
        ),
        chat("좋은 밤 되세요", "감사합니다. 푹 주무시고 내일 또 만나요!"),
        chat(
            "아침형 인간이 되는 게 나을까, 저녁형이 나을까?",
            "정답은 없어요. 내 생활에 맞는 시간에 꾸준히 하는 게 가장 중요해요.",
        ),
        chat(
            "작심삼일인데 나 같은 사람도 할 수 있을까",
            "물론이에요! 사흘마다 다시 시작해도 괜찮아요. 아주 작게 시작해 봐요.",
        ),
        chat(
            "환경 설계가 뭐야?",
            "좋은 습관은 눈에 띄고 쉽게, 나쁜 습관은 번거롭게 주변을 바꾸는 거예요.",
        ),
        chat(
            "오늘 로또 번호 뭐가 좋을까",
            "그건 제가 알 수 없어요. 습관 만들기라면 언제든 도와드릴게요.",
        ),
        chat(
            "영어로 번역 좀 해줄래?",
            "번역은 도와드리기 어려워요. 저는 습관을 함께 만드는 코치예요.",
        ),
        chat("야 너 AI야?", "네, 습관 만들기를 돕는 AI 코치예요."),
        chat(
            "회사 일 때문에 스트레스 받아 죽겠어",
            "많이 지치셨겠어요. 잠깐 숨 한번 크게 쉬어 보세요. 원하면 도움이 될 습관도 찾아 드릴게요.",
        ),
        chat("오늘 하루도 다 끝났다 ㅎ", "오늘도 수고 많으셨어요! 편하게 쉬세요."),
        chat(
            "나쁜 습관은 그냥 참으면 되는 거 아냐?",
            "참기만 하면 금방 지쳐요. 그 순간에 대신 할 행동을 정해 두는 게 훨씬 쉬워요.",
        ),
        chat("오 ㄳ", "천만에요! 또 필요하면 불러 주세요."),
        chat(
            "주말엔 습관 쉬어도 되나요?",
            "가끔 쉬어도 괜찮아요. 두 번 연속으로만 빠지지 않게 해 보세요.",
        ),
        chat(
            "요즘 야근이 많아서 집에 오면 아무것도 하기 싫어요. 그래도 습관 계속해야 할까요?",
            "그럴 땐 가장 작은 만큼만 해도 충분해요. 1분이라도 하면 흐름이 이어져요.",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_has_a_request_and_either_calls_or_an_answer() {
        for example in examples() {
            assert!(!example.request().trim().is_empty());
            assert!(
                !example.calls().is_empty() || example.answer_text().is_some(),
                "{example:?}"
            );
        }
    }
}
