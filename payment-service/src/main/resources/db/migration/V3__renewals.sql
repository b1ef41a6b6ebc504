-- Subscription renewals (issue 18, docs/renewals.md).
CREATE TABLE subscriptions (
    subscription_id uuid         PRIMARY KEY,
    member_id       varchar(64)  NOT NULL,
    plan            varchar(100) NOT NULL,
    amount          bigint       NOT NULL CHECK (amount > 0),
    currency        char(3)      NOT NULL,
    billing_key     varchar(200) NOT NULL,
    next_period     date         NOT NULL,
    status          varchar(16)  NOT NULL,
    created_at      timestamptz  NOT NULL
);
CREATE INDEX subscriptions_due ON subscriptions (next_period) WHERE status = 'ACTIVE';
CREATE INDEX subscriptions_member ON subscriptions (member_id);

-- One charge per (subscription, period): the primary key is what makes two runs, a restarted run or yesterday's run
-- still going at midnight unable to charge a period twice. A new attempt starts only from DUE.
CREATE TABLE renewal_charges (
    subscription_id   uuid        NOT NULL REFERENCES subscriptions,
    period            date        NOT NULL,
    state             varchar(16) NOT NULL CHECK (state IN ('DUE', 'CHARGING', 'CHARGED', 'GAVE_UP')),
    attempt           int         NOT NULL CHECK (attempt >= 0),
    declines          int         NOT NULL CHECK (declines >= 0),
    payment_id        uuid,
    next_attempt_at   timestamptz NOT NULL,
    first_declined_at timestamptz,
    updated_at        timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (subscription_id, period),
    CHECK (state = 'DUE' OR payment_id IS NOT NULL)
);
-- The run's queue: claimed row by row with FOR UPDATE SKIP LOCKED.
CREATE INDEX renewal_charges_due ON renewal_charges (next_attempt_at) WHERE state = 'DUE';
CREATE INDEX renewal_charges_in_flight ON renewal_charges (payment_id) WHERE state = 'CHARGING';

-- Every attempt's payment; (subscription, period, attempt) is the source of the PG Idempotency-Key, so it is unique.
CREATE TABLE renewal_attempts (
    payment_id      uuid        PRIMARY KEY,
    subscription_id uuid        NOT NULL,
    period          date        NOT NULL,
    attempt         int         NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (subscription_id, period, attempt),
    FOREIGN KEY (subscription_id, period) REFERENCES renewal_charges
);

CREATE TABLE renewal_runs (
    run_id       uuid         PRIMARY KEY,
    trigger      varchar(16)  NOT NULL,
    triggered_by varchar(200) NOT NULL,
    started_at   timestamptz  NOT NULL,
    ended_at     timestamptz,
    outcome      varchar(32)  NOT NULL,
    due          bigint       NOT NULL,
    charged      bigint       NOT NULL,
    declined     bigint       NOT NULL,
    unknown      bigint       NOT NULL,
    failed       bigint       NOT NULL,
    remaining    bigint       NOT NULL
);
CREATE INDEX renewal_runs_started ON renewal_runs (started_at DESC);
