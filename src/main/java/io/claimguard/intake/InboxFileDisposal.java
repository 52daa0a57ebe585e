package io.claimguard.intake;

import io.claimguard.pipeline.DeadLetter;
import io.claimguard.pipeline.InputExchange;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import org.apache.camel.Exchange;
import org.apache.camel.component.file.GenericFile;
import org.apache.camel.component.file.GenericFileEndpoint;
import org.apache.camel.component.file.GenericFileOperations;
import org.apache.camel.component.file.strategy.GenericFileProcessStrategySupport;

/**
 * What becomes of an inbox file once its exchange completes: forwarded, it moves to {@code .done/}; set aside
 * (rejected or failed, its dead_letter row committed), it moves to {@code .error/} with its reason beside it. Nothing
 * there is ever overwritten: a file keeps its own name unless that name is taken, then it gets the first free
 * {@link #storedName numbered name}. Camel calls {@link #commit} only when the exchange completed; on a failure the
 * file stays in the inbox and is tried again.
 *
 * <p>Written here because Camel's {@code move} option deletes a file already at the target.
 */
final class InboxFileDisposal extends GenericFileProcessStrategySupport<File> {

    static final String REASON_SUFFIX = ".reason";

    /**
     * A file a poll listed may be gone by the time it is taken: the exchange that had it before moved it in between.
     * Skipping it here is quiet (Camel logs that at DEBUG) and reads nothing that is not there.
     */
    @Override
    public boolean begin(GenericFileOperations<File> operations, GenericFileEndpoint<File> endpoint, Exchange exchange,
            GenericFile<File> file) throws Exception {
        return super.begin(operations, endpoint, exchange, file) && file.getFile().exists();
    }

    @Override
    public void commit(GenericFileOperations<File> operations, GenericFileEndpoint<File> endpoint, Exchange exchange,
            GenericFile<File> file) throws Exception {
        super.commit(operations, endpoint, exchange, file);
        Path input = file.getFile().toPath();
        if (InputExchange.FORWARDED.matches(exchange)) {
            moveUnderFreeName(input, input.resolveSibling(FileIntakeRoute.DONE), null);
        } else if (InputExchange.SET_ASIDE.matches(exchange)) {
            moveUnderFreeName(input, input.resolveSibling(FileIntakeRoute.ERROR), reasonText(exchange));
        } else {
            throw new IllegalStateException("exchange completed without an outcome, so the file stays: " + input);
        }
    }

    /**
     * Moves the input into the folder under the first name no file holds yet, its reason (if any) written first, so that
     * a file in {@code .error/} never lacks it. A reason file without its file is what a crash between the two writes
     * leaves: the same input, read again, takes that name and writes its reason anew. One move at a time: two inputs may want
     * the same free name ({@code x.json} taken, a second {@code x.json} and an {@code x.1.json} both want
     * {@code x.1.json}), and only one instance works the inbox at a time.
     */
    private synchronized void moveUnderFreeName(Path input, Path folder, String reason) throws IOException {
        Files.createDirectories(folder);
        String name = input.getFileName().toString();
        for (int clash = 0; ; clash++) {
            Path target = folder.resolve(storedName(name, clash));
            Path reasonFile = folder.resolve(target.getFileName() + REASON_SUFFIX);
            if (Files.exists(target)) {
                continue;
            }
            if (reason != null) {
                writeAtomically(reasonFile, reason);
            }
            try {
                // no REPLACE_EXISTING: fails rather than overwrite, should anything else have put a file there
                Files.move(input, target);
                return;
            } catch (IOException e) {
                // the reason goes with its file: none is left for a file that is not there
                if (reason != null) {
                    Files.deleteIfExists(reasonFile);
                }
                if (!(e instanceof FileAlreadyExistsException)) {
                    throw e;
                }
            }
        }
    }

    /**
     * The name a file is stored under after {@code clash} files of its name: its own name first, then a number before
     * the extension, {@code x.json}, {@code x.1.json}, {@code x.2.json}, so that they list side by side.
     */
    static String storedName(String name, int clash) {
        if (clash == 0) {
            return name;
        }
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? name + "." + clash : name.substring(0, dot) + "." + clash + name.substring(dot);
    }

    /**
     * The reason as dead_letter holds it ({@code <reason_code>: <reason>}, a failure's reason may span lines), then the
     * row's {@code source_ref} and {@code received_at} (in UTC), which find the row.
     */
    static String reasonText(Exchange exchange) {
        DeadLetter deadLetter = InputExchange.deadLetter(exchange);
        return deadLetter.describe() + "\n"
                + "source_ref: " + InputExchange.input(exchange).sourceRef() + "\n"
                + "received_at: " + InputExchange.input(exchange).receivedAt().withOffsetSameInstant(ZoneOffset.UTC) + "\n";
    }

    /** Written as a hidden temporary file and renamed into place: never seen half written. */
    private static void writeAtomically(Path file, String text) throws IOException {
        Path temporary = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
