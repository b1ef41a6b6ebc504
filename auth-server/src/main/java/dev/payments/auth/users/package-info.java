/** Who may sign in, and which scopes each role may be granted. */
package dev.payments.auth.users;
