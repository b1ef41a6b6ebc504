/** Where the issuer keeps the authorizations it has started and the tokens it issued. */
package dev.payments.auth.grants;
