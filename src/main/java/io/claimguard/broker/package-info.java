/**
 * Who may log in to the broker and what each role may do there: the roles, logins, permissions and the credentials
 * file. Uses nothing of the service: {@code config} secures the embedded broker with it, and the command line's
 * tools log in by role with it.
 */
package io.claimguard.broker;
