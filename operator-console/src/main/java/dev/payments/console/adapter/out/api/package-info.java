/** Calls to the services' operator APIs as the signed-in operator; a refusal becomes an {@code ApiProblem}. */
package dev.payments.console.adapter.out.api;
