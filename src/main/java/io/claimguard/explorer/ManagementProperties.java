package io.claimguard.explorer;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The management port ({@code claimguard.management.*}): ClaimGuard's one HTTP port, serving the actuator and, when
 * switched on, the audit explorer.
 *
 * @param port the port ({@code server.port} follows it)
 * @param address the interface it listens on ({@code server.address} follows it); blank for all interfaces
 * @param prometheusPublic whether {@code /actuator/prometheus} answers without a login, for scrapers
 */
@ConfigurationProperties("claimguard.management")
public record ManagementProperties(int port, String address, boolean prometheusPublic) {
}
