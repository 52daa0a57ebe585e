package io.claimguard.testkit;

/** Reading a harness's command-line options: each failure names the option and, where it helps, the usage. */
public final class HarnessArguments {

    private HarnessArguments() {
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
