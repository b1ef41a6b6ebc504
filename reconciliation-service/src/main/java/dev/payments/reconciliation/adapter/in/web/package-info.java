/** The HTTP API: projection reads, settler, incidents, ledger, operations; refusals mapped once by {@link Answers}. */
package dev.payments.reconciliation.adapter.in.web;
