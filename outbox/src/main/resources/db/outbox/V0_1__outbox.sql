-- The outbox: one row per domain event, written in the same transaction as the state change it describes.
-- The Debezium relay streams inserts to Kafka (EventRouter: topic from aggregatetype, key from kafka_key).
CREATE TABLE outbox (
    id            uuid         PRIMARY KEY,
    aggregatetype varchar(64)  NOT NULL,
    aggregateid   varchar(128) NOT NULL,
    kafka_key     varchar(128) NOT NULL,
    type          varchar(128) NOT NULL,
    payload       jsonb        NOT NULL,
    traceparent   varchar(64),
    created_at    timestamptz  NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX outbox_created_at_idx ON outbox (created_at);

-- Written by the relay's heartbeat so an idle database still moves the replication slot forward
-- and does not retain the WAL other databases of the cluster write.
CREATE TABLE outbox_heartbeat (
    id      int         PRIMARY KEY,
    beat_at timestamptz NOT NULL
);
INSERT INTO outbox_heartbeat (id, beat_at) VALUES (1, now());

-- Limited to the two tables, and to inserts and updates: the scheduled cleanup's deletes are never streamed.
CREATE PUBLICATION outbox_publication FOR TABLE outbox, outbox_heartbeat WITH (publish = 'insert, update');
