package io.claimguard.explorer;

import io.claimguard.support.LogValue;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * A filtered list of audits taken away whole, as CSV or JSON lines: the list's own query (the same filter, newest
 * first), read through a cursor and written as it is read, so that neither the service nor the browser holds the list;
 * no more than {@code claimguard.explorer.export-max-rows} rows. The filter, the time and the operator head the file;
 * a cut list ends saying so. Every export is logged with the operator's name, the filter and the rows written.
 */
@Component
@ConditionalOnProperty(name = "claimguard.explorer.enabled", havingValue = "true")
class AuditExport {

    private static final Logger LOG = LoggerFactory.getLogger(AuditExport.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int FETCH_SIZE = 500;
    static final List<String> COLUMNS = List.of("id", "received_at", "request_id", "source", "model_verdict",
            "effective_verdict", "downgraded", "guard_reasons", "findings", "projection_mode");

    enum Format {
        CSV("text/csv;charset=UTF-8", "csv"), JSON_LINES("application/x-ndjson;charset=UTF-8", "jsonl");

        final String contentType;
        final String extension;

        Format(String contentType, String extension) {
            this.contentType = contentType;
            this.extension = extension;
        }
    }

    private final JdbcTemplate sql;
    private final int maxRows;

    AuditExport(ExplorerDatabase database, ExplorerProperties explorer) {
        this.sql = database.sql();
        this.maxRows = explorer.exportMaxRows();
    }

    /** Writes the list this request asks for to {@code out}, as it is read; returns the rows written. */
    long write(AuditListRequest request, AuditFilter filter, Format format, String operator, OutputStream out) {
        Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        Instant now = Instant.now();
        List<Object> parameters = new ArrayList<>(filter.where().parameters());
        parameters.add(maxRows + 1);
        long written = sql.execute((ConnectionCallback<Long>) connection -> {
            try {
                head(writer, format, request, operator, now);
                long rows = stream(connection, AuditReader.listQuery(filter), parameters, writer, format);
                if (rows > maxRows) {
                    tail(writer, format);
                }
                writer.flush();
                return Math.min(rows, maxRows);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        LOG.info("explorer export operator={} format={} rows={} filter={}", LogValue.of(operator), format.extension,
                written, LogValue.of(request.describe()));
        return written;
    }

    String fileName(Format format, Instant now) {
        return "audits-" + now.toString().replace(":", "") + "." + format.extension;
    }

    /**
     * The rows through a cursor (PostgreSQL keeps a result set in memory unless it is read in a transaction with a fetch
     * size); the transaction is read-only like every one of the explorer's.
     */
    private long stream(Connection connection, String query, List<Object> parameters, Writer writer, Format format)
            throws SQLException, IOException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        long rows = 0;
        try (PreparedStatement statement = connection.prepareStatement(query)) {
            statement.setFetchSize(FETCH_SIZE);
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    if (rows > maxRows) {
                        break;
                    }
                    row(writer, format, AuditReader.AUDIT_ROW.mapRow(rs, (int) rows));
                }
            }
        } finally {
            connection.rollback();
            connection.setAutoCommit(autoCommit);
        }
        return rows;
    }

    private void head(Writer writer, Format format, AuditListRequest request, String operator, Instant now)
            throws IOException {
        if (format == Format.CSV) {
            // one line whatever the filter holds: LogValue escapes line breaks and control characters
            writer.write("# ClaimGuard audits exported " + now + " by " + LogValue.of(operator) + "; filter: "
                    + LogValue.text(request.describe()) + "; at most " + maxRows + " rows, newest first\n");
            writer.write(String.join(",", COLUMNS) + "\n");
        } else {
            Map<String, Object> head = new LinkedHashMap<>();
            head.put("export", "claimguard audits");
            head.put("exported_at", now.toString());
            head.put("operator", operator);
            head.put("filter", request.parameters());
            head.put("max_rows", maxRows);
            head.put("order", "newest first");
            writer.write(JSON.writeValueAsString(head) + "\n");
        }
    }

    private static void row(Writer writer, Format format, AuditReader.AuditRow row) throws IOException {
        List<String> findings = row.findings().stream().map(AuditReader.FindingCount::toString).toList();
        if (format == Format.CSV) {
            writer.write(String.join(",", List.of(Long.toString(row.id()), row.receivedAt().toString(),
                    csv(row.requestId()), csv(row.source()), csv(row.modelVerdict()), row.effectiveVerdict(),
                    Boolean.toString(row.downgraded()), csv(String.join(" ", row.guardReasons())),
                    csv(String.join(" ", findings)), csv(row.projectionMode()))) + "\n");
        } else {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("id", row.id());
            line.put("received_at", row.receivedAt().toString());
            line.put("request_id", row.requestId());
            line.put("source", row.source());
            line.put("model_verdict", row.modelVerdict());
            line.put("effective_verdict", row.effectiveVerdict());
            line.put("downgraded", row.downgraded());
            line.put("guard_reasons", row.guardReasons());
            Map<String, Long> counts = new LinkedHashMap<>();
            row.findings().forEach(found -> counts.put(found.code(), found.count()));
            line.put("findings", counts);
            line.put("projection_mode", row.projectionMode());
            writer.write(JSON.writeValueAsString(line) + "\n");
        }
    }

    private void tail(Writer writer, Format format) throws IOException {
        if (format == Format.CSV) {
            writer.write("# cut at " + maxRows + " rows: narrow the filter (a time range) for the rest\n");
        } else {
            writer.write(JSON.writeValueAsString(Map.of("cut_at_rows", maxRows)) + "\n");
        }
    }

    /**
     * A CSV field: quoted when it holds a comma, a quote or a line break (quotes doubled); a value that a spreadsheet
     * would take for a formula ({@code = + - @}, tab, carriage return first) is kept as text by a leading apostrophe.
     */
    static String csv(String value) {
        if (value == null) {
            return "";
        }
        String text = !value.isEmpty() && "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        boolean quote = text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r");
        return quote ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }
}
