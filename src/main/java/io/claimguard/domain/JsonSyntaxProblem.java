package io.claimguard.domain;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Words a JSON parser's complaint for a person who wrote the input: what is wrong, in a plain sentence, without the
 * parser's internals (its feature flags, token enums, class names and its own location part). Jackson's messages
 * are written for Java developers; a rejection reason is read by an operator or a producer.
 *
 * <p>Each known message shape is rewritten by one rule; a message no rule knows keeps its first sentence, and is
 * replaced by a generic one if even that names an internal, so that no internal reaches a reason.
 */
final class JsonSyntaxProblem {

    /** What never belongs in a reason: Jackson's location part, feature and token names, Java class names. */
    static final Pattern INTERNALS = Pattern.compile(
            "Source:|REDACTED|#UNKNOWN|StreamReadFeature|JsonReadFeature|Feature|JsonToken|com\\.fasterxml|tools\\.jackson"
                    + "|`|\\bjava\\.|\\b[a-z][a-z0-9]*(?:\\.[a-z][a-z0-9]*)+\\.[A-Z]\\w*");

    private static final String GENERIC = "unexpected content";
    private static final String ANY_VALUE = "a JSON value (string, number, object, array, true, false or null)";
    private static final int MAX_LENGTH = 200;

    /** Jackson's description of one character: {@code 'x' (code 120)} or {@code (CTRL-CHAR, code 0)}. */
    private static final String CHARACTER = "('.' \\(code \\d+(?: / 0x\\p{XDigit}+)?\\)|\\(CTRL-CHAR, code \\d+\\))";
    private static final Pattern PRINTABLE_CHARACTER = Pattern.compile("'(.)' \\(code (\\d+)(?: / 0x\\p{XDigit}+)?\\)", Pattern.DOTALL);
    private static final Pattern CONTROL_CHARACTER = Pattern.compile("\\(CTRL-CHAR, code (\\d+)\\)");

    private record Rule(Pattern pattern, Function<Matcher, String> wording) {

        static Rule of(String regex, Function<Matcher, String> wording) {
            return new Rule(Pattern.compile(regex, Pattern.DOTALL), wording);
        }
    }

    private static final List<Rule> RULES = List.of(
            Rule.of("Unexpected end-of-input: expected close marker for (Object|Array).*",
                    m -> "unexpected end of input, expected a closing " + closer(m.group(1))),
            Rule.of("Unexpected end-of-input: was expecting closing quote for a string value.*",
                    m -> "unexpected end of input inside a string, expected a closing '\"'"),
            Rule.of("Unexpected end-of-input within/between (Object|Array) entries.*",
                    m -> "unexpected end of input inside " + article(m.group(1))),
            Rule.of("Unexpected end-of-input (?:in property name|.*for name).*",
                    m -> "unexpected end of input inside a property name"),
            Rule.of("Unexpected end-of-input.*", m -> "unexpected end of input"),
            Rule.of("Unexpected close marker '(.)': expected '(.)'.*",
                    m -> "unexpected '" + m.group(1) + "', expected a closing '" + m.group(2) + "'"),
            Rule.of("Unexpected close marker '(.)': no open (Object|Array) to close.*",
                    m -> "unexpected '" + m.group(1) + "' with no open " + m.group(2).toLowerCase(Locale.ROOT) + " to close"),
            Rule.of("Trailing token .*", m -> "more content after the end of the first JSON value"),
            Rule.of("Unrecognized token '(.*)': was expecting.*",
                    m -> "unrecognized token '" + m.group(1) + "', expected " + ANY_VALUE),
            Rule.of("Non-standard token '(.*)':.*",
                    m -> "'" + m.group(1) + "' is not a JSON number (JSON has no NaN or Infinity)"),
            Rule.of("Illegal unquoted character \\(" + CHARACTER + "\\).*",
                    m -> "control character " + character(m.group(1)) + " inside a string must be escaped with a backslash"),
            Rule.of("Illegal character \\(" + CHARACTER + "\\).*",
                    m -> "unexpected character " + character(m.group(1))
                            + " between tokens: only space, tab, line feed and carriage return may stand there"),
            Rule.of("Unrecognized character escape " + CHARACTER + ".*",
                    m -> "invalid escape: a backslash may not be followed by " + character(m.group(1))),
            Rule.of("Unexpected character \\(" + CHARACTER + "\\) in numeric value: (.*)",
                    m -> "unexpected character " + character(m.group(1)) + " in a number, " + detail(m.group(2))),
            Rule.of("Unexpected character \\(" + CHARACTER + "\\):? ?(.*)",
                    m -> "unexpected character " + character(m.group(1)) + (m.group(2).isEmpty() ? "" : ", " + detail(m.group(2)))),
            Rule.of("Invalid numeric value: (.*)", m -> "invalid number, " + detail(m.group(1))));

    /** Rewrites of the detail Jackson appends after the problem, in the order they are tried. */
    private static final List<Rule> DETAILS = List.of(
            Rule.of("expected a hex-digit for character escape sequence.*", m -> "expected a hex digit in a \\u escape"),
            Rule.of("was expecting comma to separate (Object|Array) entries.*",
                    m -> "expected a comma between the entries of " + article(m.group(1))),
            Rule.of("was expecting (?:double-quote|either valid name character.*) to start (?:property|field) name.*",
                    m -> "expected '\"' to start a property name"),
            Rule.of("was expecting a colon to separate (?:property|field) name and value.*",
                    m -> "expected ':' between a property name and its value"),
            Rule.of("expected a valid value.*|expected a value.*", m -> "expected " + ANY_VALUE),
            Rule.of("maybe a \\(non-standard\\) comment\\?.*", m -> "comments are not allowed in JSON"),
            Rule.of("Decimal point not followed by a digit.*", m -> "expected a digit after the decimal point"),
            Rule.of("Exponent indicator not followed by a digit.*|expected a digit for number exponent.*",
                    m -> "expected a digit in the exponent"),
            Rule.of("expected digit \\(0-9\\) to follow minus sign.*", m -> "expected a digit after the minus sign"),
            Rule.of("JSON spec does not allow numbers to have plus signs.*", m -> "a number must not start with a plus sign"),
            Rule.of("Leading zeroes not allowed.*", m -> "leading zeros are not allowed"),
            Rule.of("expected digit \\(0-9\\), decimal point \\(\\.\\) or exponent indicator \\(e/E\\) to follow '0'.*",
                    m -> "expected a digit, '.' or an exponent after '0'"),
            Rule.of("expected digit \\(0-9\\).*", m -> "expected a digit"));

    private JsonSyntaxProblem() {
    }

    /**
     * The problem Jackson reports in {@code parserMessage} (its message without location), as a sentence that starts
     * in lower case and names no parser internals; at most {@value #MAX_LENGTH} characters.
     */
    static String describe(String parserMessage) {
        String message = firstLine(String.valueOf(parserMessage));
        String described = rewrite(RULES, message).orElseGet(() -> lowerFirst(message));
        return clean(abbreviated(described));
    }

    private static java.util.Optional<String> rewrite(List<Rule> rules, String message) {
        for (Rule rule : rules) {
            Matcher matcher = rule.pattern().matcher(message);
            if (matcher.matches()) {
                return java.util.Optional.of(rule.wording().apply(matcher));
            }
        }
        return java.util.Optional.empty();
    }

    private static String detail(String detail) {
        return rewrite(DETAILS, detail).orElseGet(() -> lowerFirst(detail.replace("was expecting", "expected")));
    }

    /** The last guard: a wording that still names an internal (a message no rule knows) says only that much. */
    private static String clean(String described) {
        return INTERNALS.matcher(described).find() ? GENERIC : described;
    }

    /** {@code 'x'} for a printable character, {@code U+0000} for a control character. */
    private static String character(String jacksonDescription) {
        Matcher control = CONTROL_CHARACTER.matcher(jacksonDescription);
        if (control.matches()) {
            return String.format("U+%04X", Integer.parseInt(control.group(1)));
        }
        Matcher printable = PRINTABLE_CHARACTER.matcher(jacksonDescription);
        if (printable.matches()) {
            int code = Integer.parseInt(printable.group(2));
            return Character.isISOControl(code) || Character.isWhitespace(code) ? String.format("U+%04X", code)
                    : "'" + printable.group(1) + "'";
        }
        return jacksonDescription;
    }

    private static String closer(String container) {
        return "Object".equals(container) ? "'}'" : "']'";
    }

    private static String article(String container) {
        return "Object".equals(container) ? "an object" : "an array";
    }

    private static String firstLine(String message) {
        int lineBreak = message.indexOf('\n');
        return lineBreak < 0 ? message : message.substring(0, lineBreak);
    }

    static String abbreviated(String text) {
        return text.length() > MAX_LENGTH ? text.substring(0, MAX_LENGTH) + "..." : text;
    }

    private static String lowerFirst(String text) {
        return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }
}
