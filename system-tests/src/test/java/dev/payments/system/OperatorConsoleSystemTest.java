package dev.payments.system;

import dev.payments.contracts.Topics;
import dev.payments.localstack.Component;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator console in a real headless Chromium (Debian's, driven by Debian's chromedriver: nothing downloads a
 * browser) against the whole system: a person signs in on the issuer's own login page, finds a payment a member just
 * made, opens it, asks the PG (Sync now) and sees its answer; a read-only operator sees no action and is refused by
 * payment-service when the action is sent anyway; a member sees nothing. Each page is saved as a screenshot under
 * {@code target/console-screenshots/} (docs/console/ keeps copies).
 */
class OperatorConsoleSystemTest {

    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static WebDriver browser;
    private static Path profile;

    @BeforeAll
    static void browser() throws IOException {
        profile = Files.createTempDirectory("console-chromium");
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1280,900",
                "--user-data-dir=" + profile);
        // The driver named, so Selenium Manager never looks for (or downloads) one.
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File("/usr/bin/chromedriver")).usingAnyFreePort().build();
        browser = new ChromeDriver(driver, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void closeBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (profile != null) {
            try (java.util.stream.Stream<Path> files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void anOperatorFindsAPaymentOpensItAndSyncsItWithThePg() throws IOException {
        Paid paid = aPaidPayment(12_000);
        String orderId = paid.orderId();
        String paymentId = paid.paymentId();

        signIn("operator-1", "local-operator-password");
        assertThat(text("operator")).isEqualTo("operator-1");
        assertThat(text("ledger")).contains("Ledger identity");
        assertThat(text("incidents")).contains("open").contains("waiting under 1 h");
        assertThat(text("approval-breaker")).as("payment-service's approval breaker").isEqualTo("CLOSED");
        assertThat(text("not-final-UNKNOWN")).startsWith("UNKNOWN");
        // Every service with an outbox, each measured in its own database; a number, not "unknown" or a refusal.
        assertThat(text("relay-payment-service")).contains("payment.events").matches("(?s).*payment\\.events \\d+ .*");
        assertThat(text("relay-order-service")).contains("order.events").matches("(?s).*order\\.events \\d+ .*");
        assertThat(text("renewal-runs")).matches("\\d+");
        screenshot("overview");

        // The identity over a window the operator names: reconciliation audits it against the PG's listing now.
        java.time.Instant now = java.time.Instant.now();
        open("/ledger?from=" + now.minus(Duration.ofHours(1)) + "&to=" + now.plus(Duration.ofMinutes(1)));
        assertThat(text("ledger-identity")).matches("[1-9]\\d* PG approvals = \\d+ PAID .*");
        assertThat(text("ledger-money")).isNotBlank();
        screenshot("ledger");

        // payment-service's own search: the payment is there as soon as the confirm answered.
        open("/payments");
        browser.findElement(By.id("orderId")).sendKeys(orderId);
        browser.findElement(By.cssSelector("#find-payment button")).click();
        waitFor(() -> browser.getCurrentUrl().contains("orderId=" + orderId));
        assertThat(text("result-" + paymentId)).contains(orderId).contains("APPROVED").contains(paid.memberId());

        browser.findElement(By.linkText(paymentId)).click();
        // The page reads reconciliation's projection, which follows the topics.
        waitFor(() -> {
            if (browser.findElements(By.id("sync")).isEmpty()) {
                open("/payments/" + paymentId);
                return false;
            }
            return true;
        });
        assertThat(text("payment-status")).isEqualTo("APPROVED");
        assertThat(text("canceled-at")).as("an empty time is a dash, not 'null'").isEqualTo("-");
        assertThat(text("timeline")).contains("PaymentApproved");
        // notification-service's operator read: what the customer was sent, as its delivery went.
        waitFor(() -> {
            if (browser.findElements(By.id("notification-list")).isEmpty()
                    || !browser.findElement(By.id("notification-list")).getText().contains("RECEIPT SENT")) {
                open("/payments/" + paymentId);
                return false;
            }
            return true;
        });
        assertThat(text("notification-list")).contains("PAYMENT_COMPLETED SENT").contains("RECEIPT SENT")
                .contains("12000 KRW").contains(paid.memberId());
        browser.findElement(By.cssSelector("#sync button")).click();
        assertThat(text("sync-answer")).as("the PG's answer, as payment-service reported it").contains("DONE")
                .contains("operator-1");
        assertThat(text("payment-audit")).as("payment-service's audit trail, written with the sync's transaction")
                .contains("operator-1").contains("POST /api/payments/{paymentId}/sync").contains("DONE");
        screenshot("payment");

        signOut();
    }

    @Test
    void anOperatorPagesAMembersPaymentsExportsThemAndRefundsOneInFullWithAReason() throws IOException {
        String memberId = "member-console-" + UUID.randomUUID().toString().substring(0, 8);
        Paid first = aPaidPayment(memberId, 14_000);
        Paid second = aPaidPayment(memberId, 14_100);
        Paid third = aPaidPayment(memberId, 14_200);

        signIn("operator-1", "local-operator-password");
        open("/payments?size=2&memberId=" + memberId);
        assertThat(text("result-list")).contains(third.paymentId()).contains(second.paymentId())
                .doesNotContain(first.paymentId());
        assertThat(browser.findElements(By.id("previous"))).as("the newest page has no previous").isEmpty();
        screenshot("payments");
        browser.findElement(By.id("next")).click();
        waitFor(() -> browser.getCurrentUrl().contains("after="));
        assertThat(text("result-list")).contains(first.paymentId()).doesNotContain(second.paymentId());
        assertThat(browser.findElements(By.id("next"))).as("the oldest page has no next").isEmpty();
        browser.findElement(By.id("previous")).click();
        waitFor(() -> browser.getCurrentUrl().contains("before="));
        assertThat(text("result-list")).contains(third.paymentId()).contains(second.paymentId());

        // The export link of this filter, fetched by the page itself with the operator's session.
        String csv = (String) ((org.openqa.selenium.JavascriptExecutor) browser).executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                fetch(document.getElementById('export').href).then(r => r.text()).then(done);""");
        assertThat(csv.lines().toList()).hasSize(4);
        assertThat(csv.lines().toList().get(0)).startsWith("paymentId,orderId,memberId,status");
        assertThat(csv.lines().toList().get(1)).startsWith(third.paymentId() + "," + third.orderId() + "," + memberId + ",APPROVED");
        open("/payments?status=NOPE");
        assertThat(text("problem")).contains("VALIDATION_FAILED").contains("Status must be one of");

        open("/payments/" + second.paymentId());
        waitFor(() -> {
            if (browser.findElements(By.id("refund")).isEmpty()) {
                open("/payments/" + second.paymentId());
                return false;
            }
            return true;
        });
        assertThat(text("record-status")).isEqualTo("APPROVED");
        browser.findElement(By.id("refund-reason")).sendKeys("customer called: ordered twice");
        browser.findElement(By.cssSelector("#refund button")).click();
        assertThat(text("refund-answer")).contains("CANCELED");
        assertThat(text("record-status")).isEqualTo("CANCELED");
        assertThat(text("payment-audit")).contains("operator-1").contains("POST /api/payments/{paymentId}/refund")
                .contains("customer called: ordered twice").contains("DONE");
        assertThat(browser.findElements(By.id("refund"))).as("nothing left to refund").isEmpty();
        screenshot("payment-refunded");

        // A partial refund of another: what is left is shown and offered; too much is refused with the service's code.
        open("/payments/" + third.paymentId());
        waitFor(() -> {
            if (browser.findElements(By.id("partial-refund")).isEmpty()) {
                open("/payments/" + third.paymentId());
                return false;
            }
            return true;
        });
        assertThat(text("refundable")).isEqualTo("14200");
        assertThat(browser.findElement(By.id("partial-refund-amount")).getAttribute("value")).isEqualTo("14200");
        refundPart("20000", "more than was paid");
        assertThat(text("problem")).contains("REFUND_EXCEEDS_REFUNDABLE").contains("409");
        assertThat(text("refundable")).as("a refusal changed nothing").isEqualTo("14200");

        String key = browser.findElement(By.cssSelector("#partial-refund input[name=idempotencyKey]")).getAttribute("value");
        refundPart("4000", "one item returned");
        assertThat(text("partial-refund-answer")).contains("SUCCEEDED").contains("4000 KRW").contains("left to refund: 10200");
        String refundId = browser.findElement(By.cssSelector("#partial-refund-answer code")).getText();
        assertThat(text("refund-list")).contains("4000 SUCCEEDED OPERATOR one item returned");
        assertThat(text("refunded")).isEqualTo("4000");
        assertThat(text("refundable")).isEqualTo("10200");
        screenshot("payment-partial-refund");

        // The same form sent again (a double click, the browser's resubmit): the same key, so the same refund.
        WebElement previousAnswer = browser.findElement(By.id("partial-refund-answer"));
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("""
                const form = document.getElementById('partial-refund');
                form.querySelector('input[name=idempotencyKey]').value = arguments[0];
                form.querySelector('input[name=amount]').value = '4000';
                form.querySelector('input[name=reason]').value = 'one item returned';
                form.submit();""", key);
        waitForNextPage(previousAnswer);
        assertThat(browser.findElement(By.cssSelector("#partial-refund-answer code")).getText()).isEqualTo(refundId);
        assertThat(text("refundable")).as("nothing refunded twice").isEqualTo("10200");
        assertThat(browser.findElements(By.cssSelector("#refund-list tr[id^=refund-]"))).hasSize(1);
        assertThat(text("payment-audit")).contains("POST /api/payments/{paymentId}/operator-refunds")
                .contains("one item returned");
        signOut();
    }

    private static void refundPart(String amount, String reason) {
        WebElement amountField = browser.findElement(By.id("partial-refund-amount"));
        amountField.clear();
        amountField.sendKeys(amount);
        browser.findElement(By.id("partial-refund-reason")).sendKeys(reason);
        WebElement form = browser.findElement(By.id("partial-refund"));
        form.findElement(By.tagName("button")).click();
        waitForNextPage(form);
    }

    /**
     * An action's answer is on the page after the redirect: wait until the one holding {@code element} is gone.
     * Chromedriver sometimes reports a node of the replaced document as an "unhandled inspector error" saying it does
     * not belong to the document rather than as a stale element (SeleniumHQ/selenium#15401); both mean the page moved on.
     */
    private static void waitForNextPage(WebElement element) {
        waitFor(() -> {
            try {
                element.isDisplayed();
                return false;
            } catch (org.openqa.selenium.StaleElementReferenceException replaced) {
                return true;
            } catch (org.openqa.selenium.WebDriverException e) {
                if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
                    return true;
                }
                throw e;
            }
        });
    }

    @Test
    void anOperatorRedrivesADeadLetterAndDryRunsTheOrdersReplayWithAReason() throws IOException {
        // An event of a type no consumer knows: each group reading payment.events parks it (a permanent failure).
        String orderId = UUID.randomUUID().toString();
        String eventId = UUID.randomUUID().toString();
        String payload = "{\"eventId\":\"" + eventId + "\",\"type\":\"PaymentTeleported\",\"aggregateType\":\"payment\","
                + "\"aggregateId\":\"" + UUID.randomUUID() + "\",\"occurredAt\":\"" + java.time.Instant.now() + "\","
                + "\"payload\":{\"orderId\":\"" + orderId + "\"}}";
        SystemStack.topic(Topics.PAYMENT_EVENTS).send(orderId, payload,
                java.util.Map.of(Topics.HEADER_EVENT_ID, eventId, Topics.HEADER_EVENT_TYPE, "PaymentTeleported"));

        signIn("operator-1", "local-operator-password");
        waitFor(() -> {
            open("/dead-letters?group=notification-service");
            return !browser.findElements(By.id("letter-" + eventId)).isEmpty();
        });
        WebElement letter = browser.findElement(By.id("letter-" + eventId));
        assertThat(letter.getText()).contains("PaymentTeleported").contains(orderId).contains("WAITING");
        screenshot("dead-letters");
        letter.findElement(By.cssSelector("form.redrive-one input[name=reason]")).sendKeys("checking the new consumer build");
        letter.findElement(By.cssSelector("form.redrive-one button")).click();
        assertThat(text("done")).contains("Re-driven to notification-service").contains(eventId);

        open("/replay?orderId=" + orderId);
        assertThat(text("replay-report")).contains("PaymentTeleported").contains("notification-service");
        new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("replay-group"))).selectByValue("order-service");
        browser.findElement(By.id("replay-reason")).sendKeys("what would order-service apply");
        browser.findElement(By.id("replay-dry-run")).click();
        assertThat(text("replay-result")).contains("Dry run for order-service").contains("operator-1");
        screenshot("replay");

        open("/audit");
        browser.findElement(By.id("audit-object")).sendKeys(orderId);
        browser.findElement(By.cssSelector("#audit-search button")).click();
        waitFor(() -> browser.getCurrentUrl().contains("objectId=" + orderId));
        assertThat(text("audit-list")).contains("POST /api/replay/orders/{orderId}")
                .contains("dry run: what would order-service apply");
        open("/audit?objectId=notification-service/" + eventId);
        assertThat(text("audit-list")).contains("POST /api/dead-letters/{group}/{eventId}/redrive")
                .contains("checking the new consumer build").contains("DONE");
        signOut();
    }

    @Test
    void anOperatorResolvesAnIncidentWithTheOutcomeAndACommentAndTheIncidentNamesThem() throws IOException {
        Paid paid = aPaidPayment(13_500);
        String memberId = paid.memberId();
        String paymentId = paid.paymentId();
        // The member's refund meets a PG whose every cancel fails: the settler's attempts run out and a person gets
        // an incident (COMPENSATION_FAILED), the case field report 000 ends with.
        SystemStack.admin("PUT", "/admin/faults", "{\"operation\":\"cancel\",\"errorRate\":1.0,\"errorStatus\":503}");
        String incidentId;
        try {
            SystemStack.Response refund = SystemStack.post(Component.PAYMENT_SERVICE, "/api/payments/" + paymentId + "/cancel",
                    SystemStack.asMember(memberId), "{\"reason\":\"changed my mind\"}");
            assertThat(refund.status()).as(refund.body().toString()).isEqualTo(202);
            incidentId = awaitIncident(paymentId);
        } finally {
            SystemStack.admin("DELETE", "/admin/faults", null);
        }

        signIn("operator-1", "local-operator-password");
        open("/incidents?state=OPEN");
        WebElement row = browser.findElement(By.id("incident-" + incidentId));
        assertThat(row.getText()).contains("COMPENSATION_FAILED").contains(paymentId);
        new org.openqa.selenium.support.ui.Select(row.findElement(By.cssSelector("form.resolve select")))
                .selectByValue("REFUNDED_AT_PG");
        row.findElement(By.cssSelector("form.resolve input[name=comment]")).sendKeys("refunded by hand in the PG's console");
        screenshot("incidents");
        row.findElement(By.cssSelector("form.resolve button")).click();

        assertThat(text("done")).isEqualTo("Resolved");
        open("/incidents?state=RESOLVED");
        assertThat(text("incident-" + incidentId)).contains("RESOLVED")
                .contains("resolved: operator-1 (REFUNDED_AT_PG: refunded by hand in the PG's console)");

        open("/audit");
        browser.findElement(By.id("audit-object")).sendKeys(incidentId);
        browser.findElement(By.cssSelector("#audit-search button")).click();
        waitFor(() -> browser.getCurrentUrl().contains("objectId=" + incidentId));
        assertThat(text("audit-list")).contains("operator-1").contains("reconciliation")
                .contains("POST /api/incidents/{id}/resolve")
                .contains("refunded by hand in the PG's console").contains("DONE (with the change)");
        screenshot("audit");
        signOut();
    }

    private record Paid(String memberId, String orderId, String paymentId) {
    }

    /** A new member's order, paid (APPROVED) through the real confirm. */
    private static Paid aPaidPayment(long amount) {
        return aPaidPayment("member-console-" + UUID.randomUUID().toString().substring(0, 8), amount);
    }

    private static Paid aPaidPayment(String memberId, long amount) {
        String orderId = SystemStack.createOrder(memberId, amount);
        SystemStack.Response paid = SystemStack.confirm(orderId, memberId, amount, "console-" + orderId);
        assertThat(paid.status()).as(paid.body().toString()).isEqualTo(200);
        return new Paid(memberId, orderId, paid.text("paymentId"));
    }

    private static String awaitIncident(String paymentId) {
        long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < until) {
            for (com.fasterxml.jackson.databind.JsonNode incident : SystemStack.get(Component.RECONCILIATION_SERVICE,
                    "/api/incidents?state=OPEN", SystemStack.asOperator()).body().path("incidents")) {
                if (paymentId.equals(incident.path("paymentId").asText())) {
                    return incident.path("id").asText();
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("No incident for payment " + paymentId + " within 90 s");
    }

    @Test
    void aReadOnlyOperatorSeesNoActionAndIsRefusedWhenSendingOneAnyway() throws IOException {
        Paid paid = aPaidPayment(11_000);
        String memberId = paid.memberId();
        String paymentId = paid.paymentId();

        signIn("viewer-1", "local-viewer-password");
        assertThat(text("scopes")).contains("reconciliation:read").contains("payments:read")
                .doesNotContain("payments:sync").doesNotContain("payments:refund");
        waitFor(() -> {
            open("/payments/" + paymentId);
            return browser.findElements(By.id("payment-status")).size() == 1;
        });
        assertThat(browser.findElements(By.id("sync"))).as("no Sync button without payments:sync").isEmpty();
        assertThat(browser.findElements(By.id("refund"))).as("no refund without payments:refund").isEmpty();
        assertThat(browser.findElements(By.id("partial-refund"))).as("no partial refund without payments:refund").isEmpty();
        assertThat(text("refundable")).as("what is left to refund is still shown").isEqualTo("11000");

        // The same form the operator would have had, posted with this session's CSRF token: payment-service refuses.
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("""
                const form = document.createElement('form');
                form.method = 'post';
                form.action = '/payments/' + arguments[0] + '/sync';
                const csrf = document.querySelector('input[name=_csrf]').cloneNode();
                form.appendChild(csrf);
                document.body.appendChild(form);
                form.submit();""", paymentId);
        waitFor(() -> browser.findElements(By.id("problem")).size() == 1);
        assertThat(text("problem")).contains("INSUFFICIENT_SCOPE").contains("403").doesNotContain("Exception");
        screenshot("refused");
        assertThat(text("payment-audit")).as("the refusal is on the record too")
                .contains("viewer-1").contains("POST /api/payments/{paymentId}/sync").contains("REFUSED 403");
        signOut();

        signIn(memberId, "local-member-password");
        assertThat(text("not-operator")).contains("no operator scope");
        assertThat(text("ledger")).contains("INSUFFICIENT_SCOPE");
        signOut();
    }

    private static void signIn(String username, String password) {
        // A fresh browser session: the console's and the issuer's cookies share the host 127.0.0.1.
        open("/");
        browser.manage().deleteAllCookies();
        open("/");
        // The issuer's own sign-in form (Spring Security's login page at auth-server), as a person sees it.
        assertThat(browser.getCurrentUrl()).startsWith(SystemStack.get().urlOf(Component.AUTH_SERVER) + "/login");
        browser.findElement(By.id("username")).sendKeys(username);
        browser.findElement(By.id("password")).sendKeys(password);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        waitFor(() -> browser.getCurrentUrl().startsWith(consoleUrl()) && !browser.findElements(By.id("operator")).isEmpty());
    }

    private static void signOut() {
        browser.findElement(By.cssSelector("nav form button")).click();
        browser.manage().deleteAllCookies();
    }

    private static void open(String path) {
        browser.get(consoleUrl() + path);
    }

    private static String consoleUrl() {
        return SystemStack.get().urlOf(Component.OPERATOR_CONSOLE);
    }

    /** The text of the element with this id, once the page that has it is shown (a click's navigation may lag). */
    private static String text(String id) {
        waitFor(() -> !browser.findElements(By.id(id)).isEmpty());
        WebElement element = browser.findElement(By.id(id));
        return element.getText();
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("Not shown within 30 s; the page was " + browser.getCurrentUrl() + ":\n"
                        + browser.findElement(By.tagName("body")).getText());
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static void screenshot(String page) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve("console-" + page + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
