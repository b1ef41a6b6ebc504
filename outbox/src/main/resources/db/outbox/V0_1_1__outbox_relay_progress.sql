-- What each relay has published, so that whichever relay runs next (the Debezium engine or the polling fallback)
-- starts exactly where the last one stopped, and cleanup deletes only what Kafka holds (docs/decisions/outbox-relay.md).
--
-- tx_id: the writing transaction (top level). A row is published when its transaction is visible in the relay's
--   watermark snapshot (outbox_relay.published_through): no write per published row, one small update per second.
-- seq: insertion order. The writer inserts an aggregate's event while holding that aggregate's row lock, so two
--   events of one order get their seq in commit order; the polling relay publishes in seq order.
ALTER TABLE outbox ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE outbox ADD COLUMN tx_id xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX outbox_tx_id_idx ON outbox (tx_id);

-- One row per relay (= replication slot name), written only on the session that holds the relay's lease.
CREATE TABLE outbox_relay (
    slot_name         varchar(64)  PRIMARY KEY,
    -- Every outbox row whose transaction this snapshot sees is in Kafka. '1:1:' sees nothing: a new relay, or one
    -- adopting a slot it has no record of, takes nothing as published.
    published_through pg_snapshot  NOT NULL DEFAULT '1:1:',
    -- The Debezium engine (name = offsets key) whose stream continues published_through, or NULL when no engine may
    -- resume without a hand-over: never started, or the polling relay published since.
    engine_name       varchar(128),
    -- Whether this relay has taken its slot into use: after that, a missing slot is a lost slot, not a new one.
    slot_in_use       boolean      NOT NULL DEFAULT false,
    updated_at        timestamptz  NOT NULL DEFAULT now()
);
