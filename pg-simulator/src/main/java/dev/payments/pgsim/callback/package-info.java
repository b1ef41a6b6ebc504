/** Asynchronous results: signed callbacks with bounded retries, and the verifier receivers use. */
package dev.payments.pgsim.callback;
