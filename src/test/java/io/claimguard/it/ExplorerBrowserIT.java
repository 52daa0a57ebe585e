package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.explorer.WebSecurity;
import io.claimguard.pipeline.Redrive;
import io.claimguard.testkit.Axe;
import io.claimguard.testkit.Envelopes;
import io.claimguard.testkit.HeadlessChromium;
import io.claimguard.testkit.TestOperator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The audit explorer in a real browser (headless Chromium through Selenium) against the running test service: log
 * in, find an input, read its claims and reasons, filter and page the list, see the plots, read dead letters; a claim
 * that carries a script shows as text. Screenshots of each page go to {@code docs/explorer/} for the README.
 */
@ExtendWith(OutputCaptureExtension.class)
class ExplorerBrowserIT extends ServiceTestSupport {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final Path SCREENSHOTS = Path.of("docs", "explorer");
    private static final String SCRIPT_CLAIM = "<script>alert(1)</script>";
    private static final String TEXT_DEAD_LETTER = "not json <img src=x onerror=alert(2)>";

    private static ChromeDriver browser;
    private static Inputs inputs;
    private static Long replayRun;

    /**
     * What the tests put through the service, once for the class; {@code storied} was dead-lettered, re-driven into an
     * audit, delivered again with other bytes, and its dead letter re-driven once more and dead-lettered again.
     */
    private record Inputs(String downgraded, long downgradedAuditId, String reason, String script, long scriptAuditId,
            String scriptFinding, long binaryDeadLetter, long textDeadLetter, String storied, long storyDeadLetter,
            long storyRedrivenAudit, long storyRedeliveredAudit, long storyDeadLetterAgain) {
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
        String scriptFinding = SQL.queryForObject("SELECT min(code) FROM claimguard.finding WHERE audit_id = ?",
                String.class, scriptRow.get("id"));

        String storied = uniqueId("explorer-story");
        byte[] broken = Envelopes.utf8("{\"request_id\": \"" + storied + "\", ");
        sendBytes(broken, "explorer");
        long storyDeadLetter = awaitDeadLetterOf(broken);
        send(session -> redriveMessage(session, Envelopes.utf8(Envelopes.passingV1(storied)), storyDeadLetter), "explorer");
        long redriven = (Long) awaitAuditRow(storied).get("id");
        sendText(Envelopes.gatekeeperFailedV2(storied), "explorer");
        await().atMost(PATIENCE).until(() -> SQL.queryForList("SELECT id FROM claimguard.verification_audit WHERE request_id = ?",
                Long.class, storied).size() == 2);
        long redelivered = SQL.queryForObject("SELECT max(id) FROM claimguard.verification_audit WHERE request_id = ?",
                Long.class, storied);
        byte[] stillBroken = Envelopes.utf8("{\"request_id\": \"" + storied + "\", \"again\": ");
        send(session -> redriveMessage(session, stillBroken, storyDeadLetter), "explorer");
        long deadLetterAgain = awaitDeadLetterOf(stillBroken);
        inputs = new Inputs(downgraded, (Long) downgradedRow.get("id"), reason, script, (Long) scriptRow.get("id"),
                scriptFinding, binaryId, textId, storied, storyDeadLetter, redriven, redelivered, deadLetterAgain);
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

        for (String chart : List.of("inputs", "downgrades", "label-inputs", "label-claims", "version-share")) {
            WebElement svg = browser.findElement(By.cssSelector("#" + chart + " svg"));
            assertThat(svg.getSize().getHeight()).as(chart).isGreaterThan(100);
            assertThat(browser.findElements(By.cssSelector("#" + chart + " svg rect.bar"))).as(chart).isNotEmpty();
            // the plot fills its panel (less the panel's padding), not a fixed 760 px of it
            WebElement panel = browser.findElement(By.id(chart));
            assertThat(svg.getSize().getWidth()).as(chart).isGreaterThan(panel.getSize().getWidth() * 9 / 10);
        }
        WebElement bar = browser.findElements(By.cssSelector("#inputs svg rect.bar")).get(0);
        assertThat(bar.getSize().getHeight()).isGreaterThan(0);
        assertThat(bar.getCssValue("fill")).as("colour from the stylesheet").isNotIn("", "none", "rgb(0, 0, 0)");
        assertThat(browser.findElement(By.cssSelector("#label-claims")).getText()).contains("direct_evidence");
        screenshot("overview");
    }

    @Test
    @DisplayName("Scenario: The overview counts inputs and claim checks per label apart")
    void inputsAndClaimsApart() {
        // one input of 40 claim checks, all labelled unsupported
        String many = uniqueId("explorer-many-claims");
        StringBuilder claims = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            claims.append(i == 0 ? "" : ", ").append("{'claim_id': 'claim-").append(i)
                    .append("', 'claim_text': 'claim ").append(i).append("', 'claim_type': 'symptom', 'verification': 'unsupported'}");
        }
        sendText(new String(Envelopes.clean().set("request_id", "'" + many + "'").claimChecks(claims.toString()).bytes(),
                java.nio.charset.StandardCharsets.UTF_8), "explorer");
        awaitAuditRow(many);
        long inputs = SQL.queryForObject("""
                SELECT count(DISTINCT c.audit_id) FROM claimguard.claim_check AS c
                JOIN claimguard.verification_audit AS a ON a.id = c.audit_id
                WHERE c.verification = 'unsupported' AND a.received_at >= now() - interval '23 hours'""", Long.class);
        long claimChecks = SQL.queryForObject("""
                SELECT count(*) FROM claimguard.claim_check AS c JOIN claimguard.verification_audit AS a ON a.id = c.audit_id
                WHERE c.verification = 'unsupported' AND a.received_at >= now() - interval '23 hours'""", Long.class);
        assertThat(claimChecks).isGreaterThanOrEqualTo(inputs + 39);
        logIn();
        browser.get(url("/explorer?period=day"));

        assertThat(columnTooltip("label-inputs", "inputs labelled unsupported")).startsWith("inputs labelled unsupported: "
                + inputs + " ");
        assertThat(columnTooltip("label-claims", "claim checks labelled unsupported"))
                .startsWith("claim checks labelled unsupported: " + claimChecks + " ");
        assertThat(text("total-claim-checks").replace(",", "")).satisfies(total ->
                assertThat(Long.parseLong(total)).isGreaterThanOrEqualTo(claimChecks));
    }

    @Test
    @DisplayName("Scenario: The overview's period is chosen among a day, a week and 30 days and kept in the URL")
    void overviewPeriods() {
        logIn();
        browser.get(url("/explorer"));
        assertThat(browser.findElement(By.id("period-day")).getAttribute("aria-current")).isEqualTo("page");
        assertThat(browser.findElements(By.cssSelector("#inputs svg rect.hit"))).hasSize(24);

        browser.findElement(By.id("period-week")).click();
        waitFor(ExpectedConditions.urlContains("period=week"));
        assertThat(browser.findElement(By.id("period-week")).getAttribute("aria-current")).isEqualTo("page");
        assertThat(browser.findElements(By.cssSelector("#inputs svg rect.hit"))).hasSize(7);
        assertThat(browser.findElement(By.cssSelector("#inputs h2")).getText()).contains("per day, last 7 days");
        // today's column: its tooltip says so, and it has its axis label though it is still filling
        String today = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString();
        List<WebElement> hits = browser.findElements(By.cssSelector("#inputs svg rect.hit"));
        assertThat(tooltipOf(hits.get(hits.size() - 1))).startsWith(today + " (UTC), so far: ");
        List<WebElement> labels = browser.findElements(By.cssSelector("#inputs svg text.label"));
        assertThat(labels.get(labels.size() - 1).getText()).isEqualTo(today.substring(5));
        screenshot("overview-week");

        browser.findElement(By.id("period-30d")).click();
        waitFor(ExpectedConditions.urlContains("period=30d"));
        assertThat(browser.findElements(By.cssSelector("#version-share svg rect.hit"))).hasSize(30);
        browser.navigate().refresh();
        assertThat(browser.findElement(By.id("period-30d")).getAttribute("aria-current")).isEqualTo("page");

        browser.get(url("/explorer?period=fortnight"));
        assertThat(text("error-status")).as("a period the overview does not offer").isEqualTo("400");
    }

    /** The SVG title of the column whose title starts with this text. */
    private String columnTooltip(String chart, String start) {
        return browser.findElements(By.cssSelector("#" + chart + " svg rect.hit")).stream().map(ExplorerBrowserIT::tooltipOf)
                .filter(title -> title.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no column of " + chart + " titled " + start));
    }

    private static String tooltipOf(WebElement rect) {
        return rect.findElement(By.tagName("title")).getAttribute("textContent");
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

    @Test
    @DisplayName("Scenario: The list filters by the start of a reason code, by a finding code and by having findings, and its link keeps the filter")
    void filterByFindingsAndPrefixes() {
        assertThat(inputs.scriptFinding()).as("the script input has a finding").isNotNull();
        logIn();
        browser.get(url("/explorer/audits"));
        browser.findElement(By.id("filter-reason")).sendKeys("gatekeeper");
        browser.findElement(By.id("filter-apply")).click();
        waitFor(ExpectedConditions.urlContains("reason=gatekeeper"));
        assertThat(rows()).isNotEmpty().allSatisfy(row -> assertThat(row.get(7)).contains("gatekeeper."));
        assertThat(text("reasons-matched")).contains("gatekeeper.fail", "gatekeeper.missing");

        String prefix = inputs.scriptFinding().substring(0, inputs.scriptFinding().indexOf('.') + 1);
        browser.get(url("/explorer/audits"));
        new Select(browser.findElement(By.id("filter-verdict"))).selectByValue("PASS");
        browser.findElement(By.id("filter-finding")).sendKeys(prefix);
        new Select(browser.findElement(By.id("filter-has-findings"))).selectByValue("true");
        browser.findElement(By.id("filter-apply")).click();
        waitFor(ExpectedConditions.urlContains("has_findings=true"));
        List<List<String>> found = rows();
        assertThat(found).isNotEmpty().allSatisfy(row -> {
            assertThat(row.get(5)).isEqualTo("PASS");
            assertThat(row.get(8)).contains(prefix);
        });
        assertThat(found).anySatisfy(row -> {
            assertThat(row.get(0)).isEqualTo(Long.toString(inputs.scriptAuditId()));
            assertThat(row.get(8)).contains(inputs.scriptFinding());
        });
        screenshot("audits-findings");

        // the link alone brings the same list back, its form filled in as it was
        String permalink = browser.findElement(By.id("permalink")).getAttribute("href");
        assertThat(permalink).contains("verdict=PASS", "finding=" + prefix, "has_findings=true");
        browser.get(url("/explorer"));
        browser.get(permalink);
        assertThat(rows()).isEqualTo(found);
        assertThat(browser.findElement(By.id("filter-finding")).getAttribute("value")).isEqualTo(prefix);

        browser.get(url("/explorer/audits?has_findings=false"));
        assertThat(rows()).isNotEmpty().allSatisfy(row -> assertThat(row.get(8)).isEmpty());
    }

    @Test
    @DisplayName("Scenario: A search finds audits by a word of a claim's text, of the rationale and of a tool name")
    void search() {
        String marker = uniqueId("searched").replace("-", "");
        String rationaleWord = "zebra" + marker;
        String claimWord = "okapi" + marker;
        String toolWord = "tapir" + marker;
        String requestId = uniqueId("explorer-search");
        sendText(new String(Envelopes.clean().set("request_id", "'" + requestId + "'")
                .output("rationale", "'the " + rationaleWord + " is grounded'")
                .claimChecks("{'claim_id': 'claim-1', 'claim_text': 'an " + claimWord + " was seen', 'claim_type': 'symptom', "
                        + "'verification': 'direct_observation', 'evidence_refs': [{'trace_ref': 'trace-1', 'tool_name': '"
                        + toolWord + "'}]}")
                .bytes(), java.nio.charset.StandardCharsets.UTF_8), "explorer");
        String auditId = awaitAuditRow(requestId).get("id").toString();
        logIn();

        for (String word : List.of(rationaleWord, claimWord, toolWord, "grounded " + rationaleWord)) {
            browser.get(url("/explorer/audits"));
            browser.findElement(By.id("filter-text")).sendKeys(word);
            browser.findElement(By.id("filter-apply")).click();
            waitFor(ExpectedConditions.urlContains("text="));
            assertThat(rows()).as(word).singleElement().satisfies(row -> assertThat(row.get(0)).isEqualTo(auditId));
        }
        screenshot("audits-search");
        assertThat(browser.findElement(By.id("permalink")).getAttribute("href")).contains("text=grounded");

        browser.get(url("/explorer/audits?verdict=REJECT&text=" + claimWord));
        assertThat(browser.findElements(By.id("no-audits"))).as("the search combines with the other filters").isNotEmpty();
        browser.get(url("/explorer/audits?text=" + claimWord + "+nowhere" + marker));
        assertThat(browser.findElements(By.id("no-audits"))).as("every word must occur").isNotEmpty();
        browser.get(url("/explorer/audits?text=" + claimWord + "+" + rationaleWord));
        assertThat(browser.findElements(By.id("no-audits"))).as("in one claim, or in the rationale and tool names")
                .isNotEmpty();
    }

    @Test
    @DisplayName("Scenario: A request id's story shows every audit, dead letter and re-drive in time order, linked both ways")
    void requestStory() {
        logIn();
        browser.get(url("/explorer/audits/" + inputs.storyRedrivenAudit()));
        assertThat(browser.findElement(By.cssSelector("#summary")).getText()).contains("dead letter " + inputs.storyDeadLetter());
        browser.findElement(By.id("story-link")).click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("story")));

        assertThat(text("story-request-id")).isEqualTo(inputs.storied());
        List<String> order = browser.findElements(By.cssSelector("#story li.event > a:first-of-type")).stream()
                .map(WebElement::getText).toList();
        assertThat(order).containsExactly("dead letter " + inputs.storyDeadLetter(), "audit " + inputs.storyRedrivenAudit(),
                "audit " + inputs.storyRedeliveredAudit(), "dead letter " + inputs.storyDeadLetterAgain());
        List<WebElement> events = browser.findElements(By.cssSelector("#story li.event"));
        assertThat(events.get(0).getText()).contains("re-driven into", "audit " + inputs.storyRedrivenAudit(),
                "dead letter " + inputs.storyDeadLetterAgain());
        assertThat(events.get(1).getText()).contains("re-driven from dead letter " + inputs.storyDeadLetter());
        assertThat(events.get(2).getText()).contains("audit 2 of this request id", "REJECT");
        assertThat(events.get(3).getText()).contains("re-driven from dead letter " + inputs.storyDeadLetter());
        screenshot("story");

        // the dead letter links to the audit its re-drive produced, and that audit back to it
        events.get(0).findElement(By.cssSelector("a.story-dead-letter")).click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("redriven-into")));
        assertThat(text("redriven-into")).contains("audit " + inputs.storyRedrivenAudit(),
                "dead letter " + inputs.storyDeadLetterAgain() + " (dead-lettered again)");
        browser.findElement(By.cssSelector("#redriven-into a.redriven-audit")).click();
        waitFor(ExpectedConditions.textToBe(By.id("audit-id"), Long.toString(inputs.storyRedrivenAudit())));
        assertThat(browser.findElement(By.id("permalink")).getAttribute("href"))
                .endsWith("/explorer/audits/" + inputs.storyRedrivenAudit());
    }

    @Test
    @DisplayName("Scenario: A missing page, a refused address and a failure answer a page in the explorer's style")
    void errorPages() throws Exception {
        logIn();
        browser.get(url("/explorer/audits/987654321987"));
        assertThat(text("error-status")).isEqualTo("404");
        assertThat(text("error-path")).isEqualTo("/explorer/audits/987654321987");
        assertThat(browser.findElements(By.id("logout"))).as("the explorer's navigation").isNotEmpty();
        assertThat(browser.getPageSource()).doesNotContain("\"status\"");
        screenshot("error-404");

        browser.get(url("/explorer-nothing-here/<b>x</b>"));
        assertThat(text("error-status")).isEqualTo("403");
        assertThat(browser.findElements(By.tagName("b"))).isEmpty();

        // a NUL in a value is refused by PostgreSQL: the page says something went wrong, and nothing of why
        browser.get(url("/explorer/story?request_id=a%00b"));
        assertThat(text("error-status")).isEqualTo("500");
        assertThat(browser.getPageSource()).doesNotContain("PSQL").doesNotContain("Exception").doesNotContain("0x00");

        HttpResponse<String> missing = asOperator("/explorer/dead-letters/987654321987", "text/html");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(missing.headers().firstValue("Content-Security-Policy")).contains(WebSecurity.CONTENT_SECURITY_POLICY);
        assertThat(missing.body()).contains("id=\"error-status\">404<");
    }

    @Test
    @DisplayName("Scenario: A filtered list is exported as CSV and as JSON lines with its filter at the top, and the export is logged with the operator's name")
    void export(CapturedOutput output) throws Exception {
        logIn();
        String filter = "verdict=REJECT&downgraded=true&reason=" + inputs.reason();
        browser.get(url("/explorer/audits?" + filter));
        assertThat(browser.findElement(By.id("export-csv")).getAttribute("href")).contains("/explorer/export/audits.csv?")
                .contains("verdict=REJECT", "downgraded=true", "reason=" + inputs.reason());

        HttpResponse<String> csv = asOperator("/explorer/export/audits.csv?" + filter, "*/*");
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/csv"));
        assertThat(csv.headers().firstValue("Content-Disposition")).hasValueSatisfying(d -> assertThat(d).startsWith("attachment"));
        List<String> lines = csv.body().lines().toList();
        assertThat(lines.get(0)).startsWith("# ClaimGuard audits exported ").contains("by " + TestOperator.NAME,
                "filter: verdict=REJECT downgraded=true reason=" + inputs.reason());
        assertThat(lines.get(1)).isEqualTo("id,received_at,request_id,source,model_verdict,effective_verdict,downgraded,"
                + "guard_reasons,findings,projection_mode");
        List<String> rows = lines.subList(2, lines.size());
        assertThat(rows).hasSizeGreaterThanOrEqualTo(12).allSatisfy(row -> assertThat(row).contains(",REJECT,true,"));
        assertThat(rows).anySatisfy(row -> assertThat(row).startsWith(inputs.downgradedAuditId() + ",")
                .contains(inputs.downgraded()));

        HttpResponse<String> jsonLines = asOperator("/explorer/export/audits.jsonl?" + filter, "*/*");
        assertThat(jsonLines.statusCode()).isEqualTo(200);
        List<JsonNode> objects = jsonLines.body().lines().map(JSON::readTree).toList();
        assertThat(objects.get(0).path("operator").asString()).isEqualTo(TestOperator.NAME);
        assertThat(objects.get(0).path("filter").path("verdict").asString()).isEqualTo("REJECT");
        assertThat(objects.get(0).path("filter").path("reason").asString()).isEqualTo(inputs.reason());
        assertThat(objects.subList(1, objects.size())).hasSize(rows.size()).allSatisfy(row -> {
            assertThat(row.path("effective_verdict").asString()).isEqualTo("REJECT");
            assertThat(row.path("downgraded").asBoolean()).isTrue();
        });

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(output.getOut())
                .contains("explorer export operator=" + TestOperator.NAME + " format=csv rows=" + rows.size())
                .contains("explorer export operator=" + TestOperator.NAME + " format=jsonl rows=" + rows.size()));
    }

    @Test
    @DisplayName("Scenario: The replay runs are listed, and a run shows the audits whose verdict it would change beside the stored one")
    void replayRun() {
        long run = replayRunOnce();
        logIn();
        browser.findElement(By.id("nav-replays")).click();
        waitFor(ExpectedConditions.presenceOfElementLocated(By.id("replay-rows")));
        WebElement listed = browser.findElements(By.cssSelector("#replay-rows tr.replay-row")).stream()
                .filter(row -> row.getText().startsWith(run + " ")).findFirst().orElseThrow();
        assertThat(listed.getText()).contains("strict@2", "gatekeeper.fail=REJECT", "--all");
        listed.findElement(By.cssSelector("a.replay-link")).click();
        waitFor(ExpectedConditions.textToBe(By.id("replay-id"), Long.toString(run)));

        assertThat(text("replay-audits")).isEqualTo("2");
        assertThat(text("replay-changed")).isEqualTo("1");
        List<WebElement> changed = browser.findElements(By.cssSelector("#changed-rows tr.changed-row"));
        assertThat(changed).singleElement().satisfies(row -> assertThat(row.getText()).startsWith(inputs.scriptAuditId() + " ")
                .contains(inputs.script(), "PASS (default@1)", "LOW_CONFID (stricter)", "evidence.none_for_direct_observation"));
        assertThat(browser.findElement(By.id("changed-rows")).getText()).doesNotContain(inputs.downgraded());
        screenshot("replay");
    }

    /** A recorded replay run of two audits, one of whose verdicts it changes, as {@code claimguard replay} records it. */
    private long replayRunOnce() {
        synchronized (ExplorerBrowserIT.class) {
            if (replayRun == null) {
                replayRun = SQL.queryForObject("""
                        INSERT INTO claimguard.replay_run (policy, policy_caps, selection, started_at, audits, changed)
                        VALUES ('strict@2', 'rule-caps gatekeeper.fail=REJECT; finding-caps none', '--all', now(), 2, 1)
                        RETURNING id""", Long.class);
                SQL.update("""
                        INSERT INTO claimguard.replay_outcome (run_id, audit_id, recorded_policy, recorded_verdict,
                            replayed_verdict, replayed_reasons)
                        VALUES (?, ?, 'default@1', 'PASS', 'LOW_CONFID', ARRAY['evidence.none_for_direct_observation']),
                               (?, ?, 'default@1', 'REJECT', 'REJECT', ARRAY['gatekeeper.invocation_ref'])""",
                        replayRun, inputs.scriptAuditId(), replayRun, inputs.downgradedAuditId());
            }
            return replayRun;
        }
    }

    @Test
    @DisplayName("Scenario: Every page is usable 1,280 px and 400 px wide")
    void narrowAndWide() {
        logIn();
        Dimension before = browser.manage().window().getSize();
        try {
            for (int width : List.of(1280, 400)) {
                browser.manage().window().setSize(new Dimension(width, 900));
                for (Map.Entry<String, String> page : pages().entrySet()) {
                    browser.get(url(page.getValue()));
                    long inner = ((Number) browser.executeScript("return window.innerWidth")).longValue();
                    long wide = ((Number) browser.executeScript("return document.documentElement.scrollWidth")).longValue();
                    assertThat(inner).as(page.getKey()).isLessThanOrEqualTo(width);
                    assertThat(wide).as(page.getKey() + " at " + width + " px: nothing wider than the window")
                            .isLessThanOrEqualTo(inner);
                    assertThat(browser.findElement(By.tagName("h1")).isDisplayed()).isTrue();
                    screenshot("width-" + width + "/" + page.getKey());
                }
            }
        } finally {
            browser.manage().window().setSize(before);
        }
    }

    @Test
    @DisplayName("Scenario: Every explorer page passes axe-core without a serious or critical violation at 1,280 px and 400 px")
    void accessibility() {
        Map<String, String> pages = new java.util.LinkedHashMap<>();
        pages.put("login", "/login");
        pages.putAll(pages());
        List<String> found = new ArrayList<>();
        Dimension before = browser.manage().window().getSize();
        try {
            for (int width : List.of(1280, 400)) {
                browser.manage().window().setSize(new Dimension(width, 900));
                for (Map.Entry<String, String> page : pages.entrySet()) {
                    if (page.getKey().equals("login")) {
                        browser.manage().deleteAllCookies();
                    } else {
                        logIn();
                    }
                    browser.get(url(page.getValue()));
                    assertThat(browser.findElement(By.tagName("h1")).isDisplayed()).as(page.getKey()).isTrue();
                    for (Axe.Violation violation : Axe.run(browser)) {
                        if (violation.seriousOrCritical()) {
                            found.add(page.getKey() + " at " + width + " px: " + violation);
                        }
                    }
                }
            }
        } finally {
            browser.manage().window().setSize(before);
        }
        assertThat(found).as("axe-core %s: serious and critical violations", Axe.VERSION).isEmpty();
    }

    /** Every page of the explorer an operator sees once logged in, by a name for its screenshot. */
    private Map<String, String> pages() {
        Map<String, String> pages = new java.util.LinkedHashMap<>();
        pages.put("overview", "/explorer");
        pages.put("overview-week", "/explorer?period=week");
        pages.put("audits", "/explorer/audits?reason=gatekeeper");
        pages.put("audit", "/explorer/audits/" + inputs.downgradedAuditId());
        pages.put("story", "/explorer/story?request_id=" + inputs.storied());
        pages.put("dead-letters", "/explorer/dead-letters");
        pages.put("dead-letter", "/explorer/dead-letters/" + inputs.storyDeadLetter());
        pages.put("replays", "/explorer/replays");
        pages.put("replay", "/explorer/replays/" + replayRunOnce());
        pages.put("error-404", "/explorer/audits/987654321987");
        return pages;
    }

    // ---- helpers

    /** A GET with the browser's session (the operator logged in), asking for this media type. */
    private HttpResponse<String> asOperator(String path, String accept) throws IOException, InterruptedException {
        String session = browser.manage().getCookieNamed("JSESSIONID").getValue();
        return HTTP.send(HttpRequest.newBuilder(URI.create(url(path))).header("Cookie", "JSESSIONID=" + session)
                .header("Accept", accept).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static BytesMessage redriveMessage(Session session, byte[] payload, long redriveOf) {
        try {
            BytesMessage message = session.createBytesMessage();
            message.writeBytes(payload);
            message.setObjectProperty(Redrive.PROPERTY, redriveOf);
            return message;
        } catch (JMSException e) {
            throw new IllegalStateException(e);
        }
    }

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
            Path file = SCREENSHOTS.resolve(name + ".png");
            Files.createDirectories(file.getParent());
            Files.write(file, browser.getScreenshotAs(OutputType.BYTES));
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
