/** Access tokens from the local issuer for people and scripts: the sign-in flow, a cache, the token command. */
package dev.payments.localstack.identity;
