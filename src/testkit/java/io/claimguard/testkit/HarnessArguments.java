package io.claimguard.testkit;

import java.util.function.Function;

/** Reading a harness's command-line options: each failure names the option and, where it helps, the usage. */
public final class HarnessArguments {

    private HarnessArguments() {
    }

    /** The options {@code parse} makes of a harness's arguments; for a bad one, its message and exit status 2. */
    public static <T> T parseOrExit(String[] args, Function<String[], T> parse) {
        try {
            return parse.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            throw e;
        }
    }

    /** The value after the option at {@code index - 1}. */
    public static String value(String[] args, int index, String option, String usage) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value\n" + usage);
        }
        return args[index];
    }

    public static int positive(String option, String value) {
        int number = Integer.parseInt(value);
        if (number <= 0) {
            throw new IllegalArgumentException(option + " must be positive, got " + value);
        }
        return number;
    }

    public static int notNegative(String option, String value) {
        int number = Integer.parseInt(value);
        if (number < 0) {
            throw new IllegalArgumentException(option + " must not be negative, got " + value);
        }
        return number;
    }
}
