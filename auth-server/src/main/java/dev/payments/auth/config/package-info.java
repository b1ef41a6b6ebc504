/** The issuer's wiring: its endpoints, clients, users, signing key and token contents. */
package dev.payments.auth.config;
