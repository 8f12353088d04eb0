//! The read-only catalog tools: `search_catalog` (find protocols and diets) and
//! `query_protocol` (one entry's details).
//!
//! The catalog is compiled into the crate and held in memory, so unlike the other four tools
//! these two do no I/O and run in place rather than on the blocking pool.

use agent_core::{Dep, tool};

use super::values::{catalog_ids, categories, search_terms};
use crate::catalog::{CatalogSearch, ProtocolInfo, search};
use crate::coach::Coach;
use crate::error::HabitError;
use crate::rules;

/// 습관 카탈로그(만들 습관, 끊을 습관, 식단)를 검색합니다. 결과의 id를 query_protocol이나 add_habit에 씁니다.
#[tool(
    label = "습관 검색",
    reply = super::replies::search,
    access = trusted,
    example(request = "아침에 할 만한 운동 습관 찾아줘", args = { "keyword": "운동" }),
    example(request = "스트레스 풀리는 습관 있을까?", args = { "keyword": "스트레스" }),
    example(request = "수면 관련 습관 보여줘", args = { "category": "수면" }),
    example(request = "집중력에 좋은 습관 3개만 추천해줘", args = { "keyword": "집중", "limit": 3 }),
    example(request = "물 많이 마시는 습관 검색해줘", args = { "keyword": "물" }),
    example(request = "디지털 디톡스 습관 뭐 있어?", args = { "category": "디지털" }),
    example(request = "다이어트 식단 찾아줘", args = { "keyword": "식단" }),
    example(request = "마음 챙김 습관 알려줘", args = { "category": "마음" })
)]
pub async fn search_catalog(
    coach: Dep<Coach>,
    /// 분류(선택): 수면, 운동, 식습관, 마음, 생산성, 디지털, 건강
    #[schemars(length(max = rules::MAX_QUERY_CHARS))]
    #[values(categories)]
    #[from_request]
    category: Option<String>,
    /// 찾을 말(선택), 예: 걷기
    #[schemars(length(max = rules::MAX_QUERY_CHARS))]
    #[values(search_terms)]
    #[from_request]
    keyword: Option<String>,
    /// 최대 몇 개(1~10, 기본 5)
    #[schemars(range(min = 1, max = search::MAX_LIMIT))]
    #[from_request]
    limit: Option<i64>,
) -> Result<CatalogSearch, HabitError> {
    coach.search_catalog(category.as_deref(), keyword.as_deref(), limit)
}

/// 카탈로그 항목 하나의 자세한 내용(방법, 최소량, 추천 시점 등)을 봅니다.
#[tool(
    label = "프로토콜 조회",
    reply = super::replies::protocol,
    access = trusted,
    example(request = "build.morning-walk 자세히 알려줘", args = { "id": "build.morning-walk" }),
    example(request = "16:8 간헐적 단식은 어떻게 하는 거야?", args = { "id": "diet.16-8-fasting" }),
    example(request = "감사 일기 세 줄은 어떤 방법이에요?", args = { "id": "build.gratitude-journal" }),
    example(request = "break.snooze 내용 보여줘", args = { "id": "break.snooze" })
)]
pub async fn query_protocol(
    coach: Dep<Coach>,
    /// 카탈로그 id, 예: build.morning-walk
    #[values(catalog_ids)]
    id: String,
) -> Result<ProtocolInfo, HabitError> {
    coach.query_protocol(&id)
}
