//! The read-only catalog tools: `search_catalog` (find protocols and diets) and
//! `query_protocol` (one entry's details).
//!
//! The catalog is compiled into the crate and held in memory, so unlike the other four tools
//! these two do no I/O and run in place rather than on the blocking pool.

use agent_core::{Dep, tool};

use crate::catalog::{CatalogSearch, ProtocolInfo, search};
use crate::coach::Coach;
use crate::error::HabitError;
use crate::rules;

/// 습관 카탈로그(만들 습관, 끊을 습관, 식단)를 검색합니다. 결과의 id를 query_protocol이나 add_habit에 씁니다.
#[tool(label = "습관 검색")]
pub async fn search_catalog(
    coach: Dep<Coach>,
    /// 분류(선택): 수면, 운동, 식습관, 마음, 생산성, 디지털, 건강
    #[schemars(length(max = rules::MAX_QUERY_CHARS))]
    category: Option<String>,
    /// 찾을 말(선택), 예: 걷기
    #[schemars(length(max = rules::MAX_QUERY_CHARS))]
    keyword: Option<String>,
    /// 최대 개수 1~10, 기본 5
    #[schemars(range(min = 1, max = search::MAX_LIMIT))]
    limit: Option<i64>,
) -> Result<CatalogSearch, HabitError> {
    coach.search_catalog(category.as_deref(), keyword.as_deref(), limit)
}

/// 카탈로그 항목 하나의 자세한 내용(방법, 최소량, 추천 시점 등)을 봅니다.
#[tool(label = "프로토콜 조회")]
pub async fn query_protocol(
    coach: Dep<Coach>,
    /// 카탈로그 id, 예: build.morning-walk
    id: String,
) -> Result<ProtocolInfo, HabitError> {
    coach.query_protocol(&id)
}
