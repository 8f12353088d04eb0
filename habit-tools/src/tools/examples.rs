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
