/** The token issuer: Spring Authorization Server for the local stack and the tests (docs/security.md). */
package dev.payments.auth;
