/** The operators' web console: pages over the services' operator APIs, called with the signed-in operator's token. */
package dev.payments.console;
