/** The operators' tools over every service's consumer groups: replay from a timestamp, one order's replay, dead letters. */
package dev.payments.reconciliation.application.operations;
