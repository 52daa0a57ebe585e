package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.testkit.Envelopes;
import io.claimguard.testkit.HeadlessChromium;
import io.claimguard.testkit.TestOperator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The audit explorer in a real browser (headless Chromium through Selenium) against the running test service: log
 * in, find an input, read its claims and reasons, filter and page the list, see the plots, read dead letters; a claim
 * that carries a script shows as text. Screenshots of each page go to {@code docs/explorer/} for the README.
 */
class ExplorerBrowserIT extends ServiceTestSupport {

    private static final Path SCREENSHOTS = Path.of("docs", "explorer");
    private static final String SCRIPT_CLAIM = "<script>alert(1)</script>";
    private static final String TEXT_DEAD_LETTER = "not json <img src=x onerror=alert(2)>";

    private static ChromeDriver browser;
    private static Inputs inputs;

    /** What the tests put through the service, once for the class. */
    private record Inputs(String downgraded, long downgradedAuditId, String reason, String script, long scriptAuditId,
            long binaryDeadLetter, long textDeadLetter) {
    }

    @BeforeAll
    static void startBrowser() {
        browser = HeadlessChromium.start(temporaryFolder("claimguard-chromium-").resolve("profile"));
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @BeforeEach
    void sendInputsOnce() {
        if (inputs != null) {
            return;
        }
        String downgraded = uniqueId("explorer-downgraded");
        sendText(Envelopes.gatekeeperFailedV2(downgraded), "explorer");
        String script = uniqueId("explorer-script");
        sendText(new String(Envelopes.clean().set("request_id", "'" + script + "'")
                .claimChecks("{'claim_id': 'claim-1', 'claim_text': '" + SCRIPT_CLAIM + "', 'claim_type': 'symptom', "
                        + "'verification': 'direct_observation', 'detail': '<b>bold</b> & <i>more</i>'}")
                .bytes(), java.nio.charset.StandardCharsets.UTF_8), "explorer");
        // enough downgraded rows for a second page of the filtered list (page size 10 in the tests)
        for (int i = 0; i < 11; i++) {
            sendText(Envelopes.gatekeeperFailedV2(uniqueId("explorer-page")), "explorer");
        }
        byte[] binary = concat(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, '<', 's', '>', (byte) 0x80},
                Envelopes.utf8(uniqueId(" explorer-binary")));
        sendBytes(binary, "explorer");
        byte[] text = Envelopes.utf8(TEXT_DEAD_LETTER + uniqueId(" explorer-text"));
        sendBytes(text, "explorer");

        Map<String, Object> downgradedRow = awaitAuditRow(downgraded);
        Map<String, Object> scriptRow = awaitAuditRow(script);
        await().atMost(PATIENCE).until(() -> sealed(downgraded) && sealed(script));
        long binaryId = awaitDeadLetterOf(binary);
        long textId = awaitDeadLetterOf(text);
        String reason = ((String[]) toArray(downgradedRow.get("guard_reasons")))[0];
        inputs = new Inputs(downgraded, (Long) downgradedRow.get("id"), reason, script, (Long) scriptRow.get("id"), binaryId,
                textId);
    }

    @Test
    @DisplayName("Scenario: Without a login a page shows the login form and no data")
    void loginFirst() {
        browser.manage().deleteAllCookies();
        browser.get(url("/explorer/audits/" + inputs.downgradedAuditId()));

        assertThat(browser.getCurrentUrl()).endsWith("/login");
        assertThat(browser.findElement(By.id("username")).isDisplayed()).isTrue();
        assertThat(browser.getPageSource()).doesNotContain(inputs.downgraded()).doesNotContain("claim-1");
        screenshot("login");

        browser.findElement(By.id("username")).sendKeys(TestOperator.NAME);
        browser.findElement(By.id("password")).sendKeys("not the password");
        browser.findElement(By.id("login")).click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("login-error")));
        assertThat(browser.getPageSource()).doesNotContain(inputs.downgraded());

        // logged in, then out: the session is gone
        logIn();
        browser.findElement(By.id("logout")).click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("logged-out")));
        browser.get(url("/explorer/audits/" + inputs.downgradedAuditId()));
        assertThat(browser.getCurrentUrl()).endsWith("/login");
    }

    @Test
    @DisplayName("Scenario: A throttled login says how long to wait")
    void throttledLoginSaysToWait() {
        browser.manage().deleteAllCookies();
        // a name no other test uses: five wrong passwords throttle it from this browser's address (127.0.0.1)
        String intruder = uniqueId("intruder");
        for (int attempt = 1; attempt <= 10 && browser.findElements(By.id("login-throttled")).isEmpty(); attempt++) {
            browser.get(url("/login"));
            browser.findElement(By.id("username")).sendKeys(intruder);
            browser.findElement(By.id("password")).sendKeys("not the password " + attempt);
            browser.findElement(By.id("login")).click();
            waitFor(ExpectedConditions.or(ExpectedConditions.presenceOfElementLocated(By.id("login-error")),
                    ExpectedConditions.presenceOfElementLocated(By.id("login-throttled"))));
            if (attempt < 5) {
                assertThat(browser.findElements(By.id("login-throttled"))).as("attempt %d", attempt).isEmpty();
            }
        }
        assertThat(browser.getCurrentUrl()).contains("/login?throttled=");
        assertThat(text("login-throttled")).matches("Too many failed logins for this name or from this address: "
                + "wait ([1-9]|10) seconds, then try again\\.");
        assertThat(browser.findElement(By.id("username")).isDisplayed()).as("the form is still there").isTrue();
        screenshot("login-throttled");
    }

    @Test
    @DisplayName("Scenario: An operator logs in and finds an input by its request id")
    void findByRequestId() {
        logIn();
        browser.findElement(By.id("find-q")).sendKeys(inputs.downgraded());
        browser.findElement(By.id("find-go")).click();
        waitFor(ExpectedConditions.urlContains("/explorer/audits/" + inputs.downgradedAuditId()));

        assertThat(text("request-id")).isEqualTo(inputs.downgraded());
        assertThat(text("effective-verdict")).isEqualTo("REJECT");
        assertThat(text("model-verdict")).isEqualTo("PASS");
        assertThat(text("downgraded")).isEqualTo("yes");
        assertThat(text("projection-mode")).isEqualTo("claim_checks");
        List<WebElement> reasons = browser.findElements(By.cssSelector("#reasons tr.reason"));
        assertThat(reasons).isNotEmpty();
        assertThat(reasons.get(0).getText()).contains(inputs.reason(), "REJECT", "invocation 395 is not in the trace");
        List<WebElement> claims = browser.findElements(By.cssSelector("#claims tr.claim"));
        assertThat(claims).hasSize(2);
        assertThat(claims.get(0).getText()).contains("claim-1", "payment-service CPU usage is high", "direct_observation",
                "direct_evidence", "yes", "query_metrics");
        assertThat(claims.get(1).getText()).contains("claim-2", "external_unknown", "no_evidence");
        assertThat(text("effective-result")).contains("\"audit_id\": " + inputs.downgradedAuditId(), "\"verdict_guard\"");
        assertThat(text("envelope")).contains("\"producer\": \"verifier-v2\"").doesNotContain("\"verdict_guard\"");
        assertThat(text("seal")).contains("verifies").doesNotContain("does not verify");
        screenshot("audit");

        // an audit id finds the same row
        browser.findElement(By.id("find-q")).sendKeys(Long.toString(inputs.downgradedAuditId()));
        browser.findElement(By.id("find-go")).click();
        waitFor(ExpectedConditions.textToBe(By.id("request-id"), inputs.downgraded()));
    }

    @Test
    @DisplayName("Scenario: Claim text with HTML and script shows as text")
    void scriptShowsAsText() {
        logIn();
        browser.get(url("/explorer/audits/" + inputs.scriptAuditId()));

        WebElement claimText = browser.findElement(By.cssSelector("#claims tr.claim td.claim-text"));
        assertThat(claimText.getText()).isEqualTo(SCRIPT_CLAIM);
        assertThat(claimText.findElements(By.xpath("./*"))).as("no element made of the claim").isEmpty();
        assertThat(browser.findElements(By.tagName("script"))).isEmpty();
        assertThat(browser.findElements(By.tagName("b"))).isEmpty();
        assertThat(browser.getPageSource()).contains("&lt;script&gt;alert(1)&lt;/script&gt;");
        assertThat(browser.findElement(By.cssSelector("#claims tr.claim")).getText()).contains("<b>bold</b> & <i>more</i>");
        assertThat(text("envelope")).contains(SCRIPT_CLAIM);
    }

    @Test
    @DisplayName("Scenario: The list filters by verdict, downgrade and reason and pages by keyset")
    void filterAndPage() {
        logIn();
        browser.get(url("/explorer/audits"));
        new Select(browser.findElement(By.id("filter-verdict"))).selectByValue("REJECT");
        new Select(browser.findElement(By.id("filter-downgraded"))).selectByValue("true");
        browser.findElement(By.id("filter-reason")).sendKeys(inputs.reason());
        browser.findElement(By.id("filter-apply")).click();
        waitFor(ExpectedConditions.urlContains("verdict=REJECT"));

        List<List<String>> first = rows();
        assertThat(first).hasSize(10);
        assertThat(first).allSatisfy(row -> {
            assertThat(row.get(5)).isEqualTo("REJECT");
            assertThat(row.get(6)).isEqualTo("yes");
            assertThat(row.get(7)).contains(inputs.reason());
        });
        screenshot("audits");

        browser.findElement(By.id("next-page")).click();
        waitFor(ExpectedConditions.urlContains("before_id="));
        List<List<String>> second = rows();
        assertThat(second).isNotEmpty().allSatisfy(row -> assertThat(row.get(5)).isEqualTo("REJECT"));
        List<String> firstIds = first.stream().map(row -> row.get(0)).toList();
        assertThat(second).allSatisfy(row -> {
            assertThat(firstIds).doesNotContain(row.get(0));
            assertThat(Instant.parse(row.get(1))).isBeforeOrEqualTo(Instant.parse(first.get(first.size() - 1).get(1)));
        });
        // the filter stays as it was on the next page
        assertThat(new Select(browser.findElement(By.id("filter-verdict"))).getFirstSelectedOption().getText())
                .isEqualTo("REJECT");
    }

    @Test
    @DisplayName("Scenario: The overview plots inputs, downgrades, labels and verifier versions")
    void overviewPlots() {
        logIn();
        browser.get(url("/explorer"));

        for (String chart : List.of("inputs-per-hour", "downgrades-per-hour", "labels", "version-share")) {
            WebElement svg = browser.findElement(By.cssSelector("#" + chart + " svg"));
            assertThat(svg.getSize().getHeight()).as(chart).isGreaterThan(100);
            assertThat(browser.findElements(By.cssSelector("#" + chart + " svg rect.bar"))).as(chart).isNotEmpty();
        }
        WebElement bar = browser.findElements(By.cssSelector("#inputs-per-hour svg rect.bar")).get(0);
        assertThat(bar.getSize().getHeight()).isGreaterThan(0);
        assertThat(bar.getCssValue("fill")).as("colour from the stylesheet").isNotIn("", "none", "rgb(0, 0, 0)");
        assertThat(browser.findElement(By.cssSelector("#labels")).getText()).contains("direct_evidence");
        screenshot("overview");
    }

    @Test
    @DisplayName("Scenario: Dead letters show their bytes as text when they are text and as hex otherwise")
    void deadLetters() {
        logIn();
        browser.get(url("/explorer/dead-letters"));
        assertThat(browser.findElements(By.cssSelector("#dead-letter-rows tr.dead-letter-row"))).isNotEmpty();
        assertThat(browser.findElement(By.id("dead-letter-rows")).getText()).contains("not_json");
        screenshot("dead-letters");

        browser.get(url("/explorer/dead-letters/" + inputs.textDeadLetter()));
        assertThat(text("payload")).startsWith(TEXT_DEAD_LETTER);
        assertThat(browser.findElements(By.tagName("img"))).isEmpty();
        assertThat(text("payload-kind")).contains("text");

        browser.get(url("/explorer/dead-letters/" + inputs.binaryDeadLetter()));
        assertThat(text("payload-kind")).contains("hex");
        assertThat(text("payload")).contains("ff fe 00 01 3c 73 3e 80").contains("|....<s>. explore|");
        assertThat(text("reason-code")).isEqualTo("not_utf8");
        screenshot("dead-letter");
    }

    @Test
    @DisplayName("Scenario: A row changed after it was sealed does not verify")
    void tamperedRowDoesNotVerify() {
        logIn();
        SQL.update("UPDATE claimguard.claim_check SET claim_text = 'changed' WHERE audit_id = ? AND ordinal = 0",
                inputs.scriptAuditId());
        try {
            browser.get(url("/explorer/audits/" + inputs.scriptAuditId()));
            assertThat(text("seal")).contains("does not verify");
        } finally {
            SQL.update("UPDATE claimguard.claim_check SET claim_text = ? WHERE audit_id = ? AND ordinal = 0", SCRIPT_CLAIM,
                    inputs.scriptAuditId());
        }
        browser.navigate().refresh();
        assertThat(text("seal")).contains("verifies").doesNotContain("does not");
    }

    // ---- helpers

    private void logIn() {
        browser.get(url("/explorer"));
        if (browser.getCurrentUrl().endsWith("/login")) {
            browser.findElement(By.id("username")).sendKeys(TestOperator.NAME);
            browser.findElement(By.id("password")).sendKeys(TestOperator.PASSWORD);
            browser.findElement(By.id("login")).click();
            waitFor(ExpectedConditions.presenceOfElementLocated(By.id("logout")));
        }
        assertThat(browser.findElements(By.id("logout"))).isNotEmpty();
    }

    private List<List<String>> rows() {
        List<List<String>> rows = new ArrayList<>();
        for (WebElement row : browser.findElements(By.cssSelector("#audit-rows tr.audit-row"))) {
            rows.add(row.findElements(By.tagName("td")).stream().map(WebElement::getText).toList());
        }
        return rows;
    }

    private String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + managementPort + path;
    }

    private static void waitFor(org.openqa.selenium.support.ui.ExpectedCondition<?> condition) {
        new WebDriverWait(browser, Duration.ofSeconds(15)).until(condition);
    }

    /** The whole page, as tall as it is, to docs/explorer/NAME.png. */
    private static void screenshot(String name) {
        Dimension before = browser.manage().window().getSize();
        long height = ((Number) browser.executeScript("return document.documentElement.scrollHeight")).longValue();
        browser.manage().window().setSize(new Dimension(before.getWidth(), (int) Math.min(4000, Math.max(600, height + 140))));
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            browser.manage().window().setSize(before);
        }
    }

    /** The id of the dead_letter row holding exactly these bytes, once it is there. */
    private static long awaitDeadLetterOf(byte[] payload) {
        String query = "SELECT id FROM claimguard.dead_letter WHERE payload = ?";
        await().atMost(PATIENCE).until(() -> !SQL.queryForList(query, Long.class, (Object) payload).isEmpty());
        return SQL.queryForList(query, Long.class, (Object) payload).get(0);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static Object toArray(Object sqlArray) {
        try {
            return ((java.sql.Array) sqlArray).getArray();
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
