package io.claimguard.cli;

import io.claimguard.archive.AuditArchive;
import io.claimguard.archive.Retention;
import io.claimguard.checkpoint.CheckpointOrigin;
import io.claimguard.checkpoint.Ed25519Keys;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Archives the monthly partitions older than the retention age to files and drops them, keeping the proof. */
@Command(name = "archive", mixinStandardHelpOptions = true,
        description = {
            "Archive the audit partitions older than --max-age to a file, verify it, then drop them.",
            "Every monthly partition that ends more than --max-age ago ($CLAIMGUARD_RETENTION_MAX_AGE; \"never\", the default,"
                + " archives nothing) is written with its claim checks, findings, seals and dead letters to one gzip JSON"
                + " lines file in --archive-dir, with the seal range it covers and a checkpoint over the chain up to its"
                + " last seal signed with --private-key (the service's checkpoint key). The file is read back and verified"
                + " (every hash recomputed from the archived rows, the checkpoint's root and signature) and only then are"
                + " the partitions detached and dropped. Run it with the owner's login (it drops tables), never the"
                + " service's runtime login. verify-chain and prove read the archives with --archives."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:archived and dropped, or nothing old enough", "1:an archive does not verify (nothing dropped)",
            "2:wrong arguments", "3:the database or a file unreachable (nothing dropped)"})
final class ArchiveCommand implements Callable<Integer> {

    private static final Pattern DAYS = Pattern.compile("(\\d+)d");

    @Option(names = "--max-age", paramLabel = "AGE", defaultValue = "${env:CLAIMGUARD_RETENTION_MAX_AGE:-never}",
            description = "archive the months older than this: 90d, an ISO-8601 duration (P90D), or never"
                + " (default: $CLAIMGUARD_RETENTION_MAX_AGE or ${DEFAULT-VALUE})")
    private String maxAge;

    @Option(names = "--archive-dir", paramLabel = "DIR", defaultValue = "${env:CLAIMGUARD_RETENTION_ARCHIVE_DIRECTORY}",
            description = "where the archives are kept, the earlier ones included (default: $CLAIMGUARD_RETENTION_ARCHIVE_DIRECTORY)")
    private Path archiveDirectory;

    @Option(names = "--private-key", paramLabel = "FILE", defaultValue = "${env:CLAIMGUARD_CHECKPOINT_PRIVATE_KEY}",
            description = "the checkpoint signing key (default: $CLAIMGUARD_CHECKPOINT_PRIVATE_KEY)")
    private Path privateKey;

    @Option(names = "--origin", paramLabel = "NAME", defaultValue = "${env:CLAIMGUARD_CHECKPOINT_ORIGIN}",
            description = "the checkpoint origin, as the service's claimguard.checkpoint.origin (default: named from --db-url)")
    private String origin;

    @Mixin
    private DatabaseOptions database;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Duration age = age();
        if (age == null) {
            out.println("archive: retention is \"never\": nothing archived");
            return ExitCodes.OK;
        }
        if (archiveDirectory == null || privateKey == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--archive-dir and --private-key are needed to archive");
        }
        Ed25519Keys.SigningKey key;
        try {
            key = Ed25519Keys.readSigningKey(privateKey);
        } catch (Ed25519Keys.KeyFileException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Retention.Outcome outcome;
        try (Connection connection = database.connect()) {
            outcome = Retention.archive(connection, age, archiveDirectory, key,
                    CheckpointOrigin.of(origin, database.url()), Instant.now());
        } catch (AuditArchive.ArchiveBroken e) {
            throw new ToolFailure("archive: " + e.getMessage() + "; nothing was dropped", null, ExitCodes.FINDINGS);
        } catch (SQLException e) {
            throw new ToolFailure("cannot archive at " + database.url() + " as " + database.user() + "; nothing was dropped", e);
        } catch (IOException e) {
            throw new ToolFailure("cannot write the archive in " + archiveDirectory + "; nothing was dropped", e);
        }
        if (outcome.nothing() != null) {
            out.println("archive: nothing archived: " + outcome.nothing());
        } else {
            out.printf("archive: %s: months %s, %d sealed audits (through seal seq %d) and %d dead letters archived,"
                    + " verified, and their partitions dropped%n", outcome.archive(), String.join(", ", outcome.months()),
                    outcome.seals(), outcome.lastSeq(), outcome.deadLetters());
        }
        return ExitCodes.OK;
    }

    private Duration age() {
        String value = maxAge == null ? "never" : maxAge.strip();
        if (value.equals("never")) {
            return null;
        }
        Matcher days = DAYS.matcher(value);
        try {
            Duration age = days.matches() ? Duration.ofDays(Long.parseLong(days.group(1))) : Duration.parse(value);
            if (age.isNegative()) {
                throw new IllegalArgumentException("negative");
            }
            return age;
        } catch (RuntimeException e) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--max-age '" + maxAge + "' is not an age (e.g. 90d, P90D, never)");
        }
    }
}
