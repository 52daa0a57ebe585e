package io.claimguard.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A directory of append-only text files, one per UTC day ({@code checkpoints-2026-12-04.log}), one line per
 * checkpoint. Each append is written and forced to disk before it returns. Nothing is ever rewritten or removed, so
 * the files can be copied elsewhere as they grow (rsync, a WORM share, object storage) and compared later.
 */
public final class DirectoryCheckpointLog implements CheckpointLog {

    private static final String PREFIX = "checkpoints-";
    private static final String SUFFIX = ".log";

    private final Path directory;

    public DirectoryCheckpointLog(Path directory) {
        this.directory = directory;
    }

    /** Makes the directory if need be and checks that it is one. */
    public static DirectoryCheckpointLog create(Path directory) throws IOException {
        Files.createDirectories(directory);
        return new DirectoryCheckpointLog(directory);
    }

    @Override
    public synchronized void append(SignedCheckpoint checkpoint) throws IOException {
        Path file = directory.resolve(PREFIX + checkpoint.checkpoint().time().atOffset(ZoneOffset.UTC).toLocalDate() + SUFFIX);
        // a line cut short by a crash (power lost mid-write) stays a line of its own, which verify names
        String start = endsInNewline(file) ? "" : "\n";
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer buffer = ByteBuffer.wrap((start + checkpoint.line() + "\n").getBytes(StandardCharsets.US_ASCII));
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
    }

    private static boolean endsInNewline(Path file) throws IOException {
        if (!Files.exists(file)) {
            return true;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            ByteBuffer last = ByteBuffer.allocate(1);
            return size == 0 || channel.read(last, size - 1) == 1 && last.get(0) == '\n';
        }
    }

    @Override
    public List<LoggedCheckpoint> entries() throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new IOException("checkpoint directory " + directory + " does not exist");
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = listing.filter(f -> f.getFileName().toString().startsWith(PREFIX)
                    && f.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        }
        List<LoggedCheckpoint> entries = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
            for (int i = 0; i < lines.size(); i++) {
                String location = file + " line " + (i + 1);
                try {
                    entries.add(new LoggedCheckpoint(location, SignedCheckpoint.parse(lines.get(i)), null));
                } catch (IllegalArgumentException e) {
                    entries.add(new LoggedCheckpoint(location, null, e.getMessage()));
                }
            }
        }
        return entries;
    }

    @Override
    public String describe() {
        return directory.toString();
    }
}
