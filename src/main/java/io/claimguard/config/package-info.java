/**
 * The service's settings and start-up: {@code claimguard.*} properties, the embedded broker and its security, the
 * runtime database login and role, the start-up report. May use {@code broker} and {@code domain}.
 */
package io.claimguard.config;
