package io.etcdj.launcher.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.etcdj.api.etcdserverpb.StatusResponse;
import io.etcdj.harness.Command;
import io.etcdj.harness.Eventually;
import io.etcdj.harness.RunningCommand;
import io.etcdj.launcher.client.MemberClient;
import io.etcdj.launcher.supervisor.ClusterState;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard end to end: a real 3-member cluster started with {@code up -d --ui}, the printed
 * address opened in headless chromium, buttons clicked as a person would, and every effect
 * checked from outside the page (the members' own Status, the real etcdctl, the state file).
 * One cluster for the class; the harness kills every process it ever named and deletes the
 * directory, also when a test fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardIT {
    private static final Pattern ADDRESS = Pattern.compile("dashboard: open (http://127\\.0\\.0\\.1:\\d+/) in a browser");
    private static final Duration AGREE = Duration.ofSeconds(60);

    private LauncherHarness h;
    private Browser browser;
    private String address;

    @BeforeAll
    void startClusterAndBrowser() throws Exception {
        h = new LauncherHarness();
        try {
            h.write("cluster.yml", h.yaml(3, "faults: proxy"));
            String out = h.run("up", "-d", "--ui", "-f", "cluster.yml").expectOk().out();
            Matcher m = ADDRESS.matcher(out);
            assertTrue(m.find(), "up --ui prints the dashboard's address:\n" + out);
            address = m.group(1);
            assertEquals(address, h.state().dashboard(), "the state file records the address");
            browser = new Browser();
            browser.open(address);
        } catch (Exception | Error e) {
            stopEverything();
            throw e;
        }
    }

    @AfterAll
    void stopEverything() throws IOException {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            h.close();
        }
    }

    @Test
    @Order(1)
    void everyMemberIsDrawnWithTheLeaderTheMembersReport() throws Exception {
        browser.await("three members drawn", d -> d.findElements(By.cssSelector("#drawing .node")).size() == 3);
        String leader = agreedLeader();
        assertEquals(leader, drawnLeader(), "the node drawn as leader is the member whose Status says it leads");
        for (ClusterState.MemberState m : h.state().members()) {
            StatusResponse s = status(m).orElseThrow();
            String id = Long.toHexString(s.getHeader().getMemberId());
            browser.await(m.process() + "'s card shows its ID " + id, d -> cardField(m.process(), "ID").equals(id));
        }
    }

    @Test
    @Order(2)
    void killingTheLeaderDrawsTheNewLeader() throws Exception {
        String old = drawnLeader();
        browser.click(".card[data-member='" + old + "'] button[data-action='kill']");
        browser.await("the killed leader drawn as killed",
                d -> browser.find("#drawing .node.state-killed[data-member='" + old + "']").isPresent());
        String next = browser.await("a new leader drawn", d -> {
            String now = drawnLeaderOrNull();
            return now != null && !now.equals(old) ? now : null;
        });
        assertEquals(next, agreedLeader(), "the new leader drawn is the one the surviving members report");
        String election = browser.await("the election in the event log", d -> d.findElements(By.cssSelector("#events li.leader"))
                .stream().map(WebElement::getText).filter(t -> t.contains(next + " elected leader")).findFirst().orElse(null));
        assertTrue(election.contains("after " + old + " (the leader) was killed"), election);
        System.out.println("dashboard event: " + election);

        browser.click(".card[data-member='" + old + "'] button[data-action='start']");
        browser.await(old + " running and answering again",
                d -> browser.find("#drawing .node.role-follower[data-member='" + old + "']").isPresent());
    }

    @Test
    @Order(3)
    void aKeyPutInThePageIsReadByEtcdctlAndAPutByEtcdctlIsWatchedInThePage() throws Exception {
        browser.type("#watch-prefix", "/dash/");
        browser.click("#watch-button");
        browser.await("the watch started", d -> browser.find("#watch-state").map(WebElement::getText).orElse("").startsWith("watching"));

        browser.type("#put-key", "/dash/greeting");
        browser.type("#put-value", "hello from the browser");
        browser.click("#put-button");
        String url = h.state().member("m2").orElseThrow().clientUrls().get(0);
        // the page's put is asynchronous: until it lands, etcdctl prints nothing
        assertEquals("hello from the browser", Eventually.get("the key through etcdctl", AGREE, () -> {
            String value = etcdctl(url, "get", "/dash/greeting", "--print-value-only").strip();
            return value.isEmpty() ? null : value;
        }));
        browser.await("the page's put in the watch pane",
                d -> browser.find("#watch-events").map(WebElement::getText).orElse("")
                        .contains("PUT /dash/greeting = hello from the browser"));

        etcdctl(url, "put", "/dash/from-etcdctl", "written by etcdctl");
        browser.await("etcdctl's put in the watch pane",
                d -> browser.find("#watch-events").map(WebElement::getText).orElse("").contains("/dash/from-etcdctl = written by etcdctl"));
        browser.type("#prefix", "/dash/");
        browser.click("#list-form button");
        browser.await("both keys listed", d -> d.findElements(By.cssSelector("#key-rows tr")).size() == 2);
    }

    @Test
    @Order(4)
    void aPartitionedMemberIsMarkedUntilHealed() throws Exception {
        String leader = drawnLeader();
        String follower = h.state().members().stream().map(ClusterState.MemberState::process)
                .filter(p -> !p.equals(leader)).findFirst().orElseThrow();
        putSome(40); // something for the charts
        browser.click(".card[data-member='" + follower + "'] button[data-action='partition']");
        browser.await(follower + " drawn as partitioned",
                d -> browser.find("#drawing .node.partitioned[data-member='" + follower + "']").isPresent()
                        && browser.find(".card[data-member='" + follower + "'] [data-field='partitioned']").isPresent());
        assertTrue(h.state().member(follower).orElseThrow().partitioned(), "the supervisor partitioned it");
        browser.await("cut links drawn", d -> !d.findElements(By.cssSelector("#drawing .link.cut")).isEmpty());
        browser.await("the partition in the event log", d -> browser.find("#events").map(WebElement::getText).orElse("")
                .contains(follower + " partitioned from its peers"));
        browser.await("a put latency point", d -> !d.findElements(By.cssSelector("#chart-put circle")).isEmpty());
        browser.await("the action's toast gone", d -> browser.find("#toast.show").isEmpty());
        Path shot = browser.screenshot(Path.of(System.getProperty("dashboard.screenshots", "target/dashboard-screenshots"),
                "dashboard.png"));
        byte[] png = Files.readAllBytes(shot);
        assertTrue(png.length > 20_000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "a real screenshot: " + shot);

        browser.click(".card[data-member='" + follower + "'] button[data-action='heal']");
        browser.await(follower + " no longer drawn as partitioned",
                d -> browser.find("#drawing .node[data-member='" + follower + "']")
                        .map(e -> !e.getAttribute("class").contains("partitioned")).orElse(false));
        assertTrue(!h.state().member(follower).orElseThrow().partitioned(), "the supervisor healed it");
    }

    @Test
    @Order(5)
    void moveLeaderHandsLeadershipToTheChosenMember() throws Exception {
        String leader = drawnLeader();
        String target = h.state().members().stream().map(ClusterState.MemberState::process)
                .filter(p -> !p.equals(leader)).findFirst().orElseThrow();
        // etcd refuses a transfer to a member still catching up (it was partitioned a moment ago):
        // press again every few seconds, as a person would
        long[] pressed = {System.nanoTime() - TimeUnit.SECONDS.toNanos(10)};
        browser.await(target + " drawn as leader", d -> {
            if (target.equals(drawnLeaderOrNull())) {
                return true;
            }
            if (System.nanoTime() - pressed[0] > TimeUnit.SECONDS.toNanos(5)) {
                browser.find(".card[data-member='" + target + "'] button[data-action='move-leader']:not(.busy)")
                        .filter(WebElement::isEnabled).ifPresent(b -> {
                            b.click();
                            pressed[0] = System.nanoTime();
                        });
            }
            return false;
        });
        assertEquals(target, agreedLeader());
    }

    @Test
    @Order(6)
    void aLearnerAddedInThePageIsPromotedAndRemoved() throws Exception {
        browser.type("#new-member-name", "m4");
        browser.click("#add-learner button");
        browser.await("m4 drawn as a learner", d -> browser.find("#drawing .node.role-learner[data-member='m4']").isPresent());
        String voter = h.state().member("m1").orElseThrow().clientUrls().get(0);
        assertTrue(etcdctl(voter, "member", "list").lines().anyMatch(l -> l.contains("m4") && l.endsWith(", true")),
                "etcd lists m4 as a learner");
        // etcd refuses to promote a learner that has not caught up yet: press again, as a person would
        browser.await("m4 promoted", d -> {
            if (browser.find("#drawing .node.role-follower[data-member='m4']").isPresent()) {
                return true;
            }
            browser.find(".card[data-member='m4'] button[data-action='promote']").filter(WebElement::isEnabled)
                    .ifPresent(WebElement::click);
            return false;
        });
        browser.click(".card[data-member='m4'] button[data-action='remove-member']");
        browser.await("m4 gone from the drawing", d -> browser.find("#drawing .node[data-member='m4']").isEmpty());
        String list = etcdctl(voter, "member", "list");
        assertTrue(list.lines().noneMatch(l -> l.contains("m4")), list);
        assertTrue(browser.find("#events").map(WebElement::getText).orElse("").contains("m4 was removed from the cluster"));
    }

    @Test
    @Order(7)
    void theUiCommandServesARunningClusterAndMoveLeaderWorksFromTheCommandLine() throws Exception {
        // `ui` beside the running cluster, as a user would run it from another terminal
        // closing it sends SIGTERM, as Ctrl-C ends it
        try (RunningCommand ui = Command.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.etcdj.launcher.Main", "ui", "-f", "cluster.yml")
                .dir(h.dir).mergeStderr().start()) {
            Pattern printed = Pattern.compile("(?m)^dashboard: open (http://127\\.0\\.0\\.1:\\d+/) in a browser \\(Ctrl-C stops it\\)$");
            ui.requireStdout("its address", AGREE, out -> printed.matcher(out).find());
            Matcher m = printed.matcher(ui.stdout());
            assertTrue(m.find());
            assertNotEquals(address, m.group(1), "a second dashboard on a port of its own");
            browser.open(m.group(1));
            browser.await("three members drawn by the second dashboard",
                    d -> d.findElements(By.cssSelector("#drawing .node")).size() == 3 && drawnLeaderOrNull() != null);
            String leader = drawnLeader();
            String target = h.state().members().stream().map(ClusterState.MemberState::process)
                    .filter(p -> !p.equals(leader)).findFirst().orElseThrow();
            String moved = Eventually.get("move-leader " + target, AGREE, () -> {
                LauncherHarness.Result r = h.run("move-leader", target, "-f", "cluster.yml");
                return r.code() == 0 ? r.out() : null;
            });
            assertTrue(moved.startsWith("Leadership transferred from "), moved);
            browser.await(target + " drawn as leader by the second dashboard", d -> target.equals(drawnLeaderOrNull()));
        }
    }

    @Test
    @Order(8)
    void pauseResumeAndDelayAreDrawnAndRecorded() throws Exception {
        browser.open(address);
        String leader = drawnLeader();
        String follower = h.state().members().stream().map(ClusterState.MemberState::process)
                .filter(p -> !p.equals(leader)).findFirst().orElseThrow();
        browser.click(".card[data-member='" + follower + "'] button[data-action='pause']");
        browser.await(follower + " drawn paused",
                d -> browser.find("#drawing .node.state-paused[data-member='" + follower + "']").isPresent());
        assertEquals("paused", h.state().member(follower).orElseThrow().state());
        browser.click(".card[data-member='" + follower + "'] button[data-action='resume']");
        browser.await(follower + " answering again",
                d -> browser.find("#drawing .node.role-follower[data-member='" + follower + "']").isPresent());

        browser.type(".card[data-member='" + follower + "'] .delay-input", "150");
        browser.click(".card[data-member='" + follower + "'] button[data-action='delay']");
        browser.await("the delay on " + follower + "'s card", d -> browser.find(".card[data-member='" + follower + "'] .badge.delayed")
                .map(WebElement::getText).orElse("").equals("+150 ms"));
        assertEquals(150, h.state().member(follower).orElseThrow().delayMillis());
        browser.click("#heal-all");
        browser.await("no delay left", d -> browser.find(".badge.delayed").isEmpty());
        assertEquals(0, h.state().member(follower).orElseThrow().delayMillis());
    }

    // ---- helpers ----

    private String drawnLeader() {
        return browser.await("a leader drawn", d -> drawnLeaderOrNull());
    }

    private String drawnLeaderOrNull() {
        return browser.find("#drawing .node.role-leader").map(e -> e.getAttribute("data-member")).orElse(null);
    }

    private String cardField(String member, String label) {
        List<WebElement> dts = browser.driver.findElements(By.cssSelector(".card[data-member='" + member + "'] dt"));
        for (WebElement dt : dts) {
            if (dt.getText().equals(label)) {
                return dt.findElement(By.xpath("following-sibling::dd[1]")).getText();
            }
        }
        return "";
    }

    /** The member every answering member names as leader, once they agree. */
    private String agreedLeader() throws InterruptedException {
        return Eventually.get("the members agree on a leader", AGREE, () -> {
            List<Long> leaders = new ArrayList<>();
            ClusterState state = h.state();
            String leaderName = null;
            for (ClusterState.MemberState m : state.members()) {
                Optional<StatusResponse> s = status(m);
                if (s.isEmpty()) {
                    continue;
                }
                leaders.add(s.get().getLeader());
                if (s.get().getLeader() == s.get().getHeader().getMemberId()) {
                    leaderName = m.process();
                }
            }
            boolean agree = !leaders.isEmpty() && leaders.stream().distinct().count() == 1 && leaders.get(0) != 0;
            return agree ? leaderName : null;
        });
    }

    private static Optional<StatusResponse> status(ClusterState.MemberState m) {
        if (!"running".equals(m.state())) {
            return Optional.empty();
        }
        try (MemberClient c = new MemberClient(URI.create(m.clientUrls().get(0)), Optional.empty(), Duration.ofSeconds(2))) {
            return Optional.of(c.status());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private void putSome(int n) throws Exception {
        try (Kv kv = new Kv(h.state().member("m1").orElseThrow().clientUrls().get(0))) {
            for (int i = 0; i < n; i++) {
                kv.put("/load/" + (i % 8), "value " + i);
            }
        }
    }

    /** The real etcdctl (ETCDCTL_API=3), as a user would run it. */
    private static String etcdctl(String endpoint, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(System.getProperty("launcher.etcdctl", "/usr/bin/etcdctl"),
                "--endpoints=" + endpoint, "--command-timeout=5s"));
        cmd.addAll(List.of(args));
        Command.Result r = Command.of(cmd).env("ETCDCTL_API", "3").mergeStderr().timeout(Duration.ofSeconds(30)).run();
        if (r.exitCode() != 0) {
            throw new IOException("etcdctl " + String.join(" ", args) + " failed: " + r.stdout());
        }
        return r.stdout();
    }
}
