package io.claimguard.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real browser for the explorer's tests: Debian's {@code chromium}, headless, driven through Debian's
 * {@code chromium-driver} by Selenium. Nothing is downloaded (both binaries are named, so Selenium Manager never runs)
 * and the browser is kept off the network but for the service under test: a fresh profile, no background
 * networking, component updates, sync or QUIC. When either binary is missing it fails, never skips: {@code .ci/run}
 * installs them.
 */
public final class HeadlessChromium {

    public static final Path CHROMIUM = Path.of(System.getProperty("claimguard.test.chromium", "/usr/bin/chromium"));
    public static final Path CHROMEDRIVER = Path.of(System.getProperty("claimguard.test.chromedriver", "/usr/bin/chromedriver"));

    private HeadlessChromium() {
    }

    /** A new headless browser with a profile of its own (deleted with the JVM's temporary files by the caller). */
    public static ChromeDriver start(Path profile) {
        for (Path binary : new Path[] {CHROMIUM, CHROMEDRIVER}) {
            if (!Files.isExecutable(binary)) {
                throw new AssertionError(binary + " is missing: the browser tests need Debian's chromium and chromium-driver "
                        + "(apt-get install -y chromium chromium-driver; .ci/run installs them when missing)");
            }
        }
        try {
            Files.createDirectories(profile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return driver;
    }
}
