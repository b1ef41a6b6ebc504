-- The inbox: the ids of the events a consumer has already applied, written in the same transaction as the effect,
-- so a redelivered or replayed event changes nothing twice.
CREATE TABLE inbox (
    consumer    varchar(128) NOT NULL,
    event_id    uuid         NOT NULL,
    event_type  varchar(128) NOT NULL,
    received_at timestamptz  NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (consumer, event_id)
);
