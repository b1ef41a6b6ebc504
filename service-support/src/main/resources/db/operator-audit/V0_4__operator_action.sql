-- Every operator action on this service, done or refused, from any client (console, operator-cli, curl): who (the
-- token's subject), what (method and route), on which object (the route's ids), why (the reason, resolution or note
-- sent), when, and how it ended. A change's row is written in the change's own transaction (service-support's
-- OperatorAudit), so nothing is changed without one; a refusal changed nothing and gets its own.
-- Kept: a few rows per operator action, never pruned (an audit trail outlives the incidents it explains).
CREATE TABLE operator_action (
    id             uuid          PRIMARY KEY,
    at             timestamptz   NOT NULL,
    subject        varchar(128)  NOT NULL,
    action         varchar(200)  NOT NULL,
    object_id      varchar(400),
    reason         varchar(2000),
    result         varchar(16)   NOT NULL CHECK (result IN ('DONE', 'REFUSED', 'FAILED')),
    status         integer,
    in_transaction boolean       NOT NULL
);

CREATE INDEX operator_action_at_idx ON operator_action (at DESC);
CREATE INDEX operator_action_subject_idx ON operator_action (subject, at DESC);
