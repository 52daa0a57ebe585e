package io.claimguard.harness.bench;

import static io.claimguard.testkit.HarnessArguments.positive;
import static io.claimguard.testkit.HarnessArguments.value;
import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.ExplorerClient;
import io.claimguard.testkit.FreePort;
import io.claimguard.testkit.HarnessArguments;
import io.claimguard.testkit.LargeAudits;
import io.claimguard.testkit.ServiceProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the audit explorer costs on very large rows, measured on the service jar from outside: an audit of 20,000
 * claim checks (dropped as a file, with {@code claimguard.limits.max-bytes} raised to take it) and a 50 MB file
 * rejected as too large. Prints each page's size and answer time (the first answer, then the median of the next
 * ones), and the service's resident memory before and at its peak while four operators open the audit page at the
 * same time. A measurement, not a test: it fails only when the service does not do what is measured.
 *
 * <p>{@code ./mvnw -B -Pexplorer-pages -DskipTests package [-Dexplorer-pages.args="--claims 20000"]}
 */
public final class ExplorerPagesHarness {

    static final String USAGE = """
            usage: ExplorerPagesHarness [--claims N] [--huge-bytes N] [--views N] [--repeat N] [--xmx SIZE] [--jar JAR]
              defaults: 20000 claims, a file of 52428854 bytes, 4 concurrent views, 5 timed answers per page, -Xmx1g
            """;
    private static final Duration PATIENCE = Duration.ofMinutes(3);
    private static final Pattern METRIC_VALUE = Pattern.compile("\"value\"\\s*:\\s*([0-9.eE+-]+)");

    record Options(int claims, long hugeBytes, int views, int repeat, String xmx, Path jar) {

        static Options parse(String[] args) {
            int claims = 20_000;
            long hugeBytes = 52_428_854L;
            int views = 4;
            int repeat = 5;
            String xmx = "1g";
            Path jar = null;
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                switch (option) {
                    case "--claims" -> claims = positive(option, value(args, ++i, option, USAGE));
                    case "--huge-bytes" -> hugeBytes = Long.parseLong(value(args, ++i, option, USAGE));
                    case "--views" -> views = positive(option, value(args, ++i, option, USAGE));
                    case "--repeat" -> repeat = positive(option, value(args, ++i, option, USAGE));
                    case "--xmx" -> xmx = value(args, ++i, option, USAGE);
                    case "--jar" -> jar = Path.of(value(args, ++i, option, USAGE));
                    case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
                    default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
                }
            }
            return new Options(claims, hugeBytes, views, repeat, xmx, jar != null ? jar : ServiceProcess.findJar());
        }
    }

    private ExplorerPagesHarness() {
    }

    public static void main(String[] args) throws Exception {
        Options options = HarnessArguments.parseOrExit(args, Options::parse);
        Path work = Files.createTempDirectory("claimguard-explorer-pages-");
        Path inbox = Files.createDirectories(work.resolve("inbox"));
        int managementPort = FreePort.onLoopback();
        try (BenchDatabase database = BenchDatabase.empty()) {
            Map<String, String> properties = new LinkedHashMap<>();
            properties.put("spring.datasource.url", database.jdbcUrl());
            properties.put("spring.datasource.username", database.database().username());
            properties.put("spring.datasource.password", database.database().password());
            properties.put("claimguard.management.port", Integer.toString(managementPort));
            properties.put("claimguard.broker.acceptor-url", "tcp://127.0.0.1:" + FreePort.onLoopback());
            properties.put("claimguard.broker.data-directory", work.resolve("artemis").toString());
            properties.put("claimguard.file.inbox", inbox.toString());
            properties.put("claimguard.file.outbox", work.resolve("outbox").toString());
            properties.put("claimguard.explorer.enabled", "true");
            // an envelope of 20,000 claim checks is about 6 MB: the limit raised to take it, the dead letter's cap as it is
            properties.put("claimguard.limits.max-bytes", Integer.toString(8 * 1024 * 1024));
            try (ServiceProcess service = new ServiceProcess(options.jar(), List.of("-Xmx" + options.xmx()), properties,
                    Files.createDirectories(work.resolve("logs")), managementPort)) {
                service.start();
                service.awaitReady(PATIENCE);
                System.out.printf(Locale.ROOT, "service %s with -Xmx%s, pid %d%n", options.jar().getFileName(),
                        options.xmx(), service.pid());

                byte[] envelope = LargeAudits.envelopeWithClaims("explorer-pages-1", options.claims());
                drop(inbox, "large.json", envelope);
                Path huge = LargeAudits.hugeFile(work.resolve("huge.tmp"), options.hugeBytes());
                Files.move(huge, inbox.resolve("huge.json"), StandardCopyOption.ATOMIC_MOVE);
                long auditId = awaitId(database, "SELECT id FROM claimguard.verification_audit WHERE request_id = 'explorer-pages-1'");
                long deadLetterId = awaitId(database, "SELECT id FROM claimguard.dead_letter WHERE source_ref = 'huge.json'");
                System.out.printf(Locale.ROOT, "audit %d: %,d claim checks from an envelope of %,d bytes; dead letter %d:"
                        + " a file of %,d bytes, %s%n", auditId, options.claims(), envelope.length, deadLetterId,
                        options.hugeBytes(), storedBytes(database, deadLetterId));

                ExplorerClient explorer = ExplorerClient.logIn(managementPort);
                measure(explorer, "audit page", "/explorer/audits/" + auditId, options.repeat());
                measure(explorer, "its last claims", "/explorer/audits/" + auditId + "?claims_from=19900", options.repeat());
                measure(explorer, "seal verified", "/explorer/audits/" + auditId + "?verify_seal=true", options.repeat());
                measure(explorer, "envelope.json", "/explorer/audits/" + auditId + "/envelope.json", options.repeat());
                measure(explorer, "dead-letter page", "/explorer/dead-letters/" + deadLetterId, options.repeat());
                measure(explorer, "dead-letter list", "/explorer/dead-letters", options.repeat());
                concurrentViews(service, managementPort, "/explorer/audits/" + auditId, options.views());
                concurrentViews(service, managementPort, "/explorer/audits/" + auditId + "/envelope.json", options.views());
            }
        }
    }

    private static void drop(Path inbox, String name, byte[] content) throws Exception {
        Path temporary = inbox.resolve(name + ".tmp");
        Files.write(temporary, content);
        Files.move(temporary, inbox.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    private static long awaitId(BenchDatabase database, String query) {
        long[] id = {-1};
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
            try (Connection connection = database.connect(); PreparedStatement statement = connection.prepareStatement(query);
                    ResultSet row = statement.executeQuery()) {
                if (row.next()) {
                    id[0] = row.getLong(1);
                }
            }
            return id[0] > 0;
        });
        return id[0];
    }

    /** What the dead_letter row keeps, as the columns of the database it runs on tell. */
    private static String storedBytes(BenchDatabase database, long id) throws Exception {
        try (Connection connection = database.connect(); PreparedStatement statement = connection.prepareStatement(
                "SELECT octet_length(payload) FROM claimguard.dead_letter WHERE id = ?")) {
            statement.setLong(1, id);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return String.format(Locale.ROOT, "payload %,d bytes", row.getLong(1));
            }
        }
    }

    /** The first answer (cold), then the median of {@code repeat} more; a page that fails is said, not measured. */
    private static void measure(ExplorerClient explorer, String name, String path, int repeat) {
        ExplorerClient.Page first = explorer.get(path);
        if (first.status() != 200) {
            System.out.printf(Locale.ROOT, "%-17s %s: FAILED with status %d after %.0f ms%n", name, path, first.status(),
                    first.took().toNanos() / 1e6);
            return;
        }
        List<Double> millis = new ArrayList<>();
        int size = 0;
        for (int i = 0; i < repeat; i++) {
            ExplorerClient.Page page = expectOk(explorer.get(path), path);
            millis.add(page.took().toNanos() / 1e6);
            size = page.body().length;
        }
        millis.sort(Double::compare);
        System.out.printf(Locale.ROOT, "%-17s %s: %,d bytes; first answer %.0f ms, median of %d %.0f ms (min %.0f, max %.0f)%n",
                name, path, size, first.took().toNanos() / 1e6, repeat, millis.get(millis.size() / 2), millis.get(0),
                millis.get(millis.size() - 1));
    }

    /**
     * Several operators open the same page at once: the service's resident memory before and at its peak, and the most
     * heap in use while they wait (the actuator's {@code jvm.memory.used}, area heap, read every 50 ms).
     */
    private static void concurrentViews(ServiceProcess service, int managementPort, String path, int views)
            throws Exception {
        List<ExplorerClient> operators = new ArrayList<>();
        for (int i = 0; i < views; i++) {
            operators.add(ExplorerClient.logIn(managementPort));
        }
        long pid = service.pid();
        double heapBefore = heapUsedMib(service);
        double before = ProcessProbe.rssMib(pid);
        boolean peakReset = ProcessProbe.resetPeakRss(pid);
        ExecutorService pool = Executors.newFixedThreadPool(views + 1);
        AtomicBoolean viewing = new AtomicBoolean(true);
        long start = System.nanoTime();
        try {
            Future<Double> heapPeak = pool.submit(() -> {
                double peak = 0;
                while (viewing.get()) {
                    peak = Math.max(peak, heapUsedMib(service));
                    Thread.sleep(50);
                }
                return peak;
            });
            List<Future<ExplorerClient.Page>> pages = new ArrayList<>();
            for (ExplorerClient operator : operators) {
                pages.add(pool.submit(() -> operator.get(path)));
            }
            long bytes = 0;
            List<String> failed = new ArrayList<>();
            for (Future<ExplorerClient.Page> page : pages) {
                try {
                    ExplorerClient.Page answer = page.get();
                    bytes += answer.body().length;
                    if (answer.status() != 200) {
                        failed.add("status " + answer.status());
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    failed.add(e.getCause().toString());
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            viewing.set(false);
            System.out.printf(Locale.ROOT, "%d concurrent views of %s: %,d bytes in all, %.2f s%s; heap in use %.0f MiB"
                    + " before, at most %.0f MiB while viewing; resident memory %.0f MiB before, peak %.0f MiB%s%n", views,
                    path, bytes, seconds, failed.isEmpty() ? "" : ", FAILED: " + failed, heapBefore, heapPeak.get(),
                    before, ProcessProbe.peakRssMib(pid),
                    peakReset ? "" : " (peak over the process's whole life: the kernel refused to reset it)");
        } finally {
            viewing.set(false);
            pool.shutdownNow();
        }
    }

    /** The heap in use now, as the service's actuator reports it; NaN while it cannot answer. */
    private static double heapUsedMib(ServiceProcess service) {
        String body = service.body("/actuator/metrics/jvm.memory.used?tag=area:heap", Duration.ofSeconds(5));
        if (body == null) {
            return Double.NaN;
        }
        Matcher value = METRIC_VALUE.matcher(body);
        return value.find() ? Double.parseDouble(value.group(1)) / (1024 * 1024) : Double.NaN;
    }

    private static ExplorerClient.Page expectOk(ExplorerClient.Page page, String path) {
        if (page.status() != 200) {
            throw new IllegalStateException(path + " answered " + page.status());
        }
        return page;
    }
}
