/**
 * What a drill's observations mean, without I/O: the ledger audit, the numbers of the field reports, the alert
 * rule's replay and the checks that decide the exit status; {@link dev.payments.drills.analysis.DrillResult} holds them.
 */
package dev.payments.drills.analysis;
