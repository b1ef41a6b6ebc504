/** Tokens for the services' integration tests: an issuer stand-in in the test JVM, and forged tokens no issuer gives. */
package dev.payments.testsupport.identity;
