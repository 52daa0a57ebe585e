package io.claimguard.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A small, seeded runner for property tests in plain JUnit Jupiter: each case gets its own generator, split from
 * one stream seeded by the base seed and the property's name, so a base seed reproduces every case of every
 * property. The base seed is fixed ({@link #DEFAULT_SEED}); {@code -Dclaimguard.property.seed=N} overrides it, and
 * a failure names the seed, the case and the generated value. Public, so that the property tests of other packages
 * ({@code merkle}) draw their cases the same way and reproduce with the same property.
 */
public final class SeededCases {

    public static final String SEED_PROPERTY = "claimguard.property.seed";
    public static final long DEFAULT_SEED = 20261202L;

    private SeededCases() {
    }

    public static long baseSeed() {
        String seed = System.getProperty(SEED_PROPERTY);
        return seed == null || seed.isBlank() ? DEFAULT_SEED : Long.parseLong(seed.strip());
    }

    /** The generated values of one property, in case order: the same base seed and name give the same values. */
    public static <T> List<T> generate(String property, int tries, Function<Gen, T> generator) {
        SplittableRandom cases = new SplittableRandom(baseSeed() ^ (property.hashCode() * 0x9E3779B97F4A7C15L));
        List<T> values = new ArrayList<>(tries);
        for (int i = 0; i < tries; i++) {
            values.add(generator.apply(new Gen(cases.split())));
        }
        return values;
    }

    /**
     * Checks {@code property} on {@code tries} generated values; the first failing case fails the test with the
     * seed to reproduce it.
     */
    public static <T> void forAll(String property, int tries, Function<Gen, T> generator, Function<T, String> describe,
            Consumer<T> check) {
        forAll(property, List.of(), tries, generator, describe, check);
    }

    /** As above, but first checks the named {@code edgeCases}, which do not count toward {@code tries}. */
    public static <T> void forAll(String property, List<T> edgeCases, int tries, Function<Gen, T> generator,
            Function<T, String> describe, Consumer<T> check) {
        for (int i = 0; i < edgeCases.size(); i++) {
            check(property, "edge case " + (i + 1) + " of " + edgeCases.size(), edgeCases.get(i), describe, check);
        }
        List<T> values = generate(property, tries, generator);
        for (int i = 0; i < values.size(); i++) {
            check(property, "case " + (i + 1) + " of " + tries + " with base seed " + baseSeed() + " (reproduce with -D"
                    + SEED_PROPERTY + "=" + baseSeed() + ")", values.get(i), describe, check);
        }
    }

    private static <T> void check(String property, String which, T value, Function<T, String> describe, Consumer<T> check) {
        try {
            check.accept(value);
        } catch (Throwable failure) {
            throw new AssertionError("property \"" + property + "\" failed on " + which + ": " + failure
                    + "\ngenerated: " + describe.apply(value), failure);
        }
    }

    /** One case's source of random values. */
    public static final class Gen {

        private final SplittableRandom random;

        Gen(SplittableRandom random) {
            this.random = random;
        }

        /** An int from {@code min} to {@code max}, both included. */
        public int between(int min, int max) {
            return random.nextInt(min, max + 1);
        }

        /** A double from 0 (included) to 1 (excluded). */
        public double fraction() {
            return random.nextDouble();
        }

        public byte anyByte() {
            return (byte) random.nextInt(256);
        }

        public boolean chance(double probability) {
            return random.nextDouble() < probability;
        }

        @SafeVarargs
        public final <T> T pick(T... values) {
            return values[random.nextInt(values.length)];
        }

        public <T> T pick(List<T> values) {
            return values.get(random.nextInt(values.size()));
        }

        /** Present with {@code presence} probability. */
        public <T> Optional<T> optional(double presence, Supplier<T> value) {
            return chance(presence) ? Optional.of(value.get()) : Optional.empty();
        }

        /** One of the weighted choices, each as likely as its weight says. */
        @SafeVarargs
        public final <T> T frequency(Weighted<T>... choices) {
            int total = 0;
            for (Weighted<T> choice : choices) {
                total += choice.weight();
            }
            int roll = random.nextInt(total);
            for (Weighted<T> choice : choices) {
                roll -= choice.weight();
                if (roll < 0) {
                    return choice.value().get();
                }
            }
            throw new AssertionError("unreachable");
        }

        /**
         * A size from {@code min} to {@code max}: the smallest size one time in eight, as often as the edge case
         * deserves, otherwise uniformly.
         */
        public int size(int min, int max) {
            return chance(0.125) ? min : between(min, max);
        }

        public <T> List<T> list(int minSize, int maxSize, Supplier<T> element) {
            int size = size(minSize, maxSize);
            List<T> list = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                list.add(element.get());
            }
            return list;
        }

        /** A string of {@code minLength} to {@code maxLength} characters, each from {@code character}. */
        public String string(int minLength, int maxLength, Supplier<Character> character) {
            int length = size(minLength, maxLength);
            StringBuilder text = new StringBuilder(length);
            for (int i = 0; i < length; i++) {
                text.append(character.get().charValue());
            }
            return text.toString();
        }

        public char charIn(char first, char last) {
            return (char) between(first, last);
        }

        public char charOf(String characters) {
            return characters.charAt(random.nextInt(characters.length()));
        }
    }

    public record Weighted<T>(int weight, Supplier<T> value) {

        public static <T> Weighted<T> weight(int weight, Supplier<T> value) {
            return new Weighted<>(weight, value);
        }
    }
}
