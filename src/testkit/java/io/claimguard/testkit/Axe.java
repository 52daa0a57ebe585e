package io.claimguard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openqa.selenium.JavascriptExecutor;

/**
 * The accessibility check of the explorer's browser tests: Deque's axe-core (MPL-2.0), taken from the npm registry with
 * {@code npm pack} the first time a build needs it (into {@code target/axe-core/}, so nothing is vendored), run inside
 * the page under test.
 *
 * <p>The pages' Content-Security-Policy allows no script at all. WebDriver's "execute script" is not a page script:
 * chromedriver has the browser evaluate it through the DevTools protocol, which CSP does not govern (CSP applies to
 * what the document loads or inlines). {@link #run} checks that {@code axe} is defined after the injection, so a
 * browser that did apply the policy would fail the test rather than pass it unchecked.
 */
public final class Axe {

    /** The axe-core release the tests run; a newer one may add rules (and so findings). */
    public static final String VERSION = "4.11.0";

    private static final Path HOME = Path.of("target", "axe-core");

    /** One rule's findings on a page: its id, impact, help text and the selectors of the nodes it failed. */
    public record Violation(String rule, String impact, String help, List<String> nodes) {

        public boolean seriousOrCritical() {
            return "serious".equals(impact) || "critical".equals(impact);
        }

        @Override
        public String toString() {
            return impact + " " + rule + " (" + help + "): " + nodes;
        }
    }

    private Axe() {
    }

    /** Runs axe-core's WCAG 2.x A/AA and best-practice rules on the page the browser shows. */
    @SuppressWarnings("unchecked")
    public static List<Violation> run(JavascriptExecutor browser) {
        browser.executeScript(source());
        if (!Boolean.TRUE.equals(browser.executeScript("return typeof window.axe === 'object'"))) {
            throw new AssertionError("axe-core was not injected into the page");
        }
        Object answer = browser.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']},
                                   resultTypes: ['violations']})
                   .then(r => done(r.violations.map(v => ({rule: v.id, impact: v.impact, help: v.help,
                                                           nodes: v.nodes.map(n => n.target.join(' '))}))))
                   .catch(e => done({error: String(e)}));
                """);
        if (answer instanceof Map<?, ?> error) {
            throw new AssertionError("axe-core failed: " + error.get("error"));
        }
        List<Violation> violations = new ArrayList<>();
        for (Map<String, Object> v : (List<Map<String, Object>>) answer) {
            violations.add(new Violation((String) v.get("rule"), (String) v.get("impact"), (String) v.get("help"),
                    ((List<Object>) v.get("nodes")).stream().map(String::valueOf).toList()));
        }
        return violations;
    }

    private static String source;

    private static synchronized String source() {
        if (source == null) {
            try {
                source = Files.readString(fetched());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return source;
    }

    /** axe.min.js of {@link #VERSION}, packed from the npm registry once per build directory. */
    private static Path fetched() throws IOException {
        Path folder = HOME.resolve(VERSION);
        Path script = folder.resolve("package").resolve("axe.min.js");
        if (Files.isRegularFile(script)) {
            return script;
        }
        Files.createDirectories(folder);
        run(folder, "npm", "pack", "--silent", "axe-core@" + VERSION);
        run(folder, "tar", "-xzf", "axe-core-" + VERSION + ".tgz", "package/axe.min.js", "package/LICENSE");
        if (!Files.isRegularFile(script)) {
            throw new AssertionError("npm pack axe-core@" + VERSION + " left no " + script);
        }
        return script;
    }

    private static void run(Path folder, String... command) throws IOException {
        Process process = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true)
                .redirectOutput(folder.resolve("fetch.log").toFile()).start();
        try {
            if (!process.waitFor(180, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " failed (npm is needed for the accessibility check; "
                        + ".ci/run installs it): " + Files.readString(folder.resolve("fetch.log")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
