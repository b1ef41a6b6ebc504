/** The Toss-v1-shaped gateway API: confirm, query, cancel, transaction listing, with faults applied per request. */
package dev.payments.pgsim.api;
