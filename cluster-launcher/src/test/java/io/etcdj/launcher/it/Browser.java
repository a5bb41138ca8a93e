package io.etcdj.launcher.it;

import io.etcdj.harness.Prerequisites;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless chromium driven through its own chromedriver (no driver download: the
 * binaries are named, so Selenium Manager stays out of it). Closing it ends chromium and the
 * driver.
 */
final class Browser implements AutoCloseable {
    /** Generous: the machine is shared and a 2-core election with a browser beside it is slow. */
    static final Duration WAIT = Duration.ofSeconds(60);

    final ChromeDriver driver;

    Browser() {
        Path chromium = Path.of(System.getProperty("dashboard.chromium", "/usr/bin/chromium"));
        Path chromedriver = Path.of(System.getProperty("dashboard.chromedriver", "/usr/bin/chromedriver"));
        // others can be named with -Ddashboard.chromium= and -Ddashboard.chromedriver=
        Prerequisites.requireExecutable(chromium, "chromium");
        Prerequisites.requireExecutable(chromedriver, "chromium-driver");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        // root in a container: no sandbox; no GPU; /dev/shm may be small
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1600,1250", "--hide-scrollbars", "--lang=en-US");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile()).usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    void open(String url) {
        driver.get(url);
    }

    /**
     * Waits until {@code condition} gives a non-null, non-false value; elements redrawn meanwhile, or
     * not interactable for a moment (a card being redrawn after an action), are retried.
     */
    <T> T await(String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, WAIT).withMessage(() -> what + "; the page's events then: " + events())
                .ignoring(StaleElementReferenceException.class)
                .ignoring(ElementNotInteractableException.class)
                .until(condition);
    }

    /** The dashboard's event list as it reads, newest first: why a wait timed out, in the failure's message. */
    private String events() {
        try {
            return find("#events").map(WebElement::getText).orElse("(no event list)").replace('\n', '|');
        } catch (RuntimeException e) {
            return "(unreadable: " + e + ")";
        }
    }

    Optional<WebElement> find(String css) {
        List<WebElement> found = driver.findElements(By.cssSelector(css));
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /** Clicks the first element matching {@code css} once it is enabled (the page redraws twice a second). */
    void click(String css) {
        await("an enabled " + css, d -> {
            Optional<WebElement> e = find(css);
            if (e.isPresent() && e.get().isEnabled()) {
                e.get().click();
                return true;
            }
            return false;
        });
    }

    /** Replaces the text of the field {@code css}; a field redrawn meanwhile is found again. */
    void type(String css, String text) {
        await("typing into " + css, d -> {
            WebElement e = d.findElement(By.cssSelector(css));
            e.clear();
            e.sendKeys(text);
            return true;
        });
    }

    Path screenshot(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        return file;
    }

    @Override
    public void close() {
        driver.quit();
    }
}
