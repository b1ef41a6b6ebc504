/** The signing key, persisted so tokens survive a restart of the issuer. */
package dev.payments.auth.keys;
