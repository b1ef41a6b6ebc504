-- Who handed what back to a consumer group (docs/decisions/dead-letter-redrive.md). A dead letter is one record on a
-- group's dead-letter topic: re-driven at most once (its key), by the operator named here (the token's subject).
CREATE TABLE dead_letter_redrive (
    letter_topic     varchar(255) NOT NULL,
    letter_partition integer      NOT NULL,
    letter_offset    bigint       NOT NULL,
    consumer_group   varchar(255) NOT NULL,
    event_id         uuid         NOT NULL,
    order_id         varchar(128),
    redriven_by      varchar(255) NOT NULL,
    redriven_at      timestamptz  NOT NULL,
    PRIMARY KEY (letter_topic, letter_partition, letter_offset)
);
CREATE INDEX dead_letter_redrive_group_idx ON dead_letter_redrive (consumer_group);

-- Events of the log handed to one group again (an order's replay); append-only, a replay may be repeated (the
-- group's inbox makes a second one change nothing).
CREATE TABLE event_replay (
    id               bigserial    PRIMARY KEY,
    source_topic     varchar(255) NOT NULL,
    source_partition integer      NOT NULL,
    source_offset    bigint       NOT NULL,
    consumer_group   varchar(255) NOT NULL,
    event_id         uuid,
    order_id         varchar(128),
    replayed_by      varchar(255) NOT NULL,
    replayed_at      timestamptz  NOT NULL
);
CREATE INDEX event_replay_order_idx ON event_replay (order_id);
