-- What the person who closed an incident established about its money, as a column rather than a prefix of the
-- resolution text. Incidents resolved before it: the console wrote "OUTCOME: comment", the settler "Settled
-- automatically: ..."; anything else was free text (OTHER).
ALTER TABLE incident ADD COLUMN outcome varchar(32)
    CHECK (outcome IN ('REFUNDED_AT_PG', 'CHARGE_CONFIRMED', 'NO_MONEY_MOVED', 'SETTLED_AUTOMATICALLY', 'OTHER'));
UPDATE incident SET outcome = split_part(resolution, ':', 1),
                    resolution = btrim(substr(resolution, length(split_part(resolution, ':', 1)) + 2))
WHERE state = 'RESOLVED'
  AND split_part(resolution, ':', 1) IN ('REFUNDED_AT_PG', 'CHARGE_CONFIRMED', 'NO_MONEY_MOVED', 'OTHER');
UPDATE incident SET outcome = 'SETTLED_AUTOMATICALLY' WHERE state = 'RESOLVED' AND outcome IS NULL
    AND resolved_by = 'reconciliation-service';
UPDATE incident SET outcome = 'OTHER' WHERE state = 'RESOLVED' AND outcome IS NULL;
ALTER TABLE incident ADD CHECK ((state = 'RESOLVED') = (outcome IS NOT NULL));
