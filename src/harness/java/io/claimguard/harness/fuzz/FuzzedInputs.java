package io.claimguard.harness.fuzz;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Fuzzed inputs for tests outside this package (the service sample). */
public final class FuzzedInputs {

    private FuzzedInputs() {
    }

    public static List<byte[]> sample(int count, long seed) {
        EnvelopeMutator mutator = EnvelopeMutator.fromExamples(Path.of("examples"));
        SplittableRandom random = new SplittableRandom(seed);
        List<byte[]> inputs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            inputs.add(mutator.mutate(random));
        }
        return inputs;
    }
}
