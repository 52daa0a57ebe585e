package io.claimguard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The sample envelopes of {@code examples/}, one per projection mode and guard rule: the seeds every harness builds
 * its workload from.
 */
public final class ExampleEnvelopes {

    /** @param name the file name without {@code .json} */
    public record Example(String name, String json) {
    }

    private ExampleEnvelopes() {
    }

    /** Every {@code *.json} file of the folder, by name; fails when there is none. */
    public static List<Example> load(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            List<Example> examples = files.filter(file -> file.getFileName().toString().endsWith(".json")).sorted()
                    .map(ExampleEnvelopes::read)
                    .toList();
            if (examples.isEmpty()) {
                throw new IllegalStateException("no example envelopes in " + folder.toAbsolutePath());
            }
            return examples;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the example envelopes in " + folder.toAbsolutePath(), e);
        }
    }

    private static Example read(Path file) {
        try {
            return new Example(file.getFileName().toString().replaceFirst("\\.json$", ""), Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }
}
