-- ShedLock's lock rows: a scheduled job runs on one replica per cycle (docs/decisions/scheduled-jobs.md).
-- Plain timestamps, because the provider computes them with the database's clock in UTC (usingDbTime), so replicas
-- whose clocks drift apart still agree on when a lock ends.
CREATE TABLE shedlock (
    name       varchar(64)  PRIMARY KEY,
    lock_until timestamp    NOT NULL,
    locked_at  timestamp    NOT NULL,
    locked_by  varchar(255) NOT NULL
);
