package io.claimguard.explorer;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The audit explorer ({@code claimguard.explorer.*}): read-only pages over the audit tables, off by default, and the
 * operators who may log in to them and to the management port's detail.
 *
 * @param enabled whether the pages are served; when off, every path but the open actuator ones is refused
 * @param users the operators: a name and a password hash as Spring's {@code DelegatingPasswordEncoder} reads it,
 *     {@code {bcrypt}$2a$10$...} (make one with {@code claimguard hash-password}); the same logins open the actuator's
 *     detail whether the pages are on or not
 * @param databaseRole the role every connection of the explorer's own pool takes with {@code SET ROLE}
 *     (default {@code claimguard_reader}, which may only read)
 * @param pageSize rows on one page of a list
 * @param exportMaxRows rows an export of a list holds at most (then it says it was cut)
 */
@ConfigurationProperties("claimguard.explorer")
public record ExplorerProperties(boolean enabled, List<User> users, String databaseRole, int pageSize,
        int exportMaxRows) {

    public ExplorerProperties {
        users = users == null ? List.of() : List.copyOf(users);
        databaseRole = databaseRole == null || databaseRole.isBlank() ? "claimguard_reader" : databaseRole;
        pageSize = pageSize <= 0 ? 50 : Math.min(pageSize, 500);
        exportMaxRows = exportMaxRows <= 0 ? 100_000 : exportMaxRows;
    }

    /** One operator: a login name and its password hash ({@code {bcrypt}...}). */
    public record User(String name, String password) {
    }
}
