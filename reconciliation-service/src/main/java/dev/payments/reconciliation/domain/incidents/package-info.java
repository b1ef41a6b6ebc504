/** Incident records: money the system could not put right itself, one per subject, OPEN -> ACKNOWLEDGED -> RESOLVED. */
package dev.payments.reconciliation.domain.incidents;
