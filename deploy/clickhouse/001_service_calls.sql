-- service_calls: one row per metered call (the ServiceCalled event), written by ClickHouseCallsProjector.
-- A documented interface for analysts: see README.md beside this file. Runs on ClickHouse 18.16 and later.
-- Applied at every start by ClickHouseMigrator: keep every statement idempotent (IF NOT EXISTS).
--
-- Delivery is at-least-once, so the same call (event_id) can be inserted more than once. Duplicates are
-- identical rows with the same sorting key, which ReplacingMergeTree collapses in background merges; until
-- then, count with uniqExact(event_id) or read FROM service_calls FINAL.
CREATE TABLE IF NOT EXISTS service_calls
(
    event_id UUID,
    at DateTime('UTC'),
    day Date MATERIALIZED toDate(at),
    account_id String,
    key_id String,
    slug String,
    operation_id String,
    convention Enum8('S' = 1, 'R' = 2, 'D' = 3),
    status UInt16,
    latency_ms Float64
)
ENGINE = ReplacingMergeTree()
PARTITION BY toYYYYMM(at)
ORDER BY (account_id, at, event_id);
