package io.etcdj.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.MessageOrBuilder;
import io.etcdj.api.etcdserverpb.ResponseHeader;
import io.etcdj.harness.EtcdMember;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Runs one scenario step against the real etcd and against ours and compares the normalised responses.
 * Errors are compared as gRPC status code plus description, which is what clients show users.
 */
final class Differential implements AutoCloseable {
    /** One server and how its responses are normalised. */
    record Side(String name, GrpcEndpoint grpc, ResponseNormalizer normalizer) {
    }

    /** A step against one server; it may throw StatusRuntimeException. */
    @FunctionalInterface
    interface Step<T> {
        T run(Side side) throws Exception;
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final Side real;
    final Side ours;
    private String prefix = "";

    private Differential(Side real, Side ours) {
        this.real = real;
        this.ours = ours;
    }

    static Differential connect(EtcdMember realEtcd, EtcdMember oursMember) {
        return new Differential(side("etcd 3.4", realEtcd), side("ours", oursMember));
    }

    private static Side side(String name, EtcdMember member) {
        GrpcEndpoint grpc = new GrpcEndpoint(member);
        ResponseHeader h = grpc.header();
        return new Side(name, grpc, new ResponseNormalizer(h.getClusterId(), h.getMemberId(), member.clientUrl()));
    }

    /** Begins a scenario: keys go under {@code prefix/}, revisions are relative to each server's current one. */
    void startScenario(String scenarioPrefix) {
        prefix = scenarioPrefix + "/";
        for (Side s : List.of(real, ours)) {
            s.normalizer().startScenario(s.grpc().revision());
        }
    }

    ByteString key(String name) {
        return ByteString.copyFromUtf8(prefix + name);
    }

    String prefix() {
        return prefix;
    }

    /** The revision {@code delta} after the scenario's start on that server. */
    static long rev(Side side, long delta) {
        return side.normalizer().base() + delta;
    }

    /** Runs the step on both servers (real first) and requires equal normalised outcomes; returns the outcome. */
    <T extends MessageOrBuilder> String same(String what, Step<T> step) {
        String expected = outcome(real, step);
        String actual = outcome(ours, step);
        assertEquals(expected, actual, what + ": ours differs from etcd 3.4");
        return expected;
    }

    /** Like {@link #same} and both must succeed. */
    <T extends MessageOrBuilder> String sameOk(String what, Step<T> step) {
        String outcome = same(what, step);
        assertFalse(outcome.startsWith("ERROR"), what + ": " + outcome);
        return outcome;
    }

    /** Like {@link #same} and both must fail. */
    <T extends MessageOrBuilder> String sameError(String what, Step<T> step) {
        String outcome = same(what, step);
        assertTrue(outcome.startsWith("ERROR"), what + " should fail: " + outcome);
        return outcome;
    }

    /** Like {@link #same} but only the gRPC status code is compared; both must fail. */
    <T extends MessageOrBuilder> String sameCode(String what, Step<T> step) {
        String expected = outcome(real, step);
        String actual = outcome(ours, step);
        assertTrue(expected.startsWith("ERROR"), what + " should fail: " + expected);
        assertEquals(expected.split(":")[0], actual.split(":")[0], what + ": ours differs from etcd 3.4: " + actual);
        return expected;
    }

    /** For steps returning several messages (watch responses). */
    <T extends MessageOrBuilder> String sameList(String what, Step<List<T>> step) {
        String expected = listOutcome(real, step);
        String actual = listOutcome(ours, step);
        assertEquals(expected, actual, what + ": ours differs from etcd 3.4");
        return expected;
    }

    private static <T extends MessageOrBuilder> String outcome(Side side, Step<T> step) {
        try {
            return side.normalizer().normalize(step.run(side));
        } catch (StatusRuntimeException e) {
            return error(e);
        } catch (Exception | AssertionError e) {
            throw new AssertionError(side.name() + ": " + e.getMessage(), e);
        }
    }

    private static <T extends MessageOrBuilder> String listOutcome(Side side, Step<List<T>> step) {
        try {
            return side.normalizer().normalize(step.run(side));
        } catch (StatusRuntimeException e) {
            return error(e);
        } catch (Exception | AssertionError e) {
            throw new AssertionError(side.name() + ": " + e.getMessage(), e);
        }
    }

    static String error(StatusRuntimeException e) {
        return "ERROR " + e.getStatus().getCode() + ": " + e.getStatus().getDescription();
    }

    /** POSTs {@code body} to the HTTP gateway path on both servers and compares status and normalised body. */
    String sameHttpPost(String path, String body) {
        return sameHttp(path, side -> body, "POST");
    }

    /** POSTs a body built for each server (e.g. holding a revision relative to the scenario start). */
    String sameHttpPost(String path, Function<Side, String> body) {
        return sameHttp(path, body, "POST");
    }

    String sameHttpGet(String path) {
        return sameHttp(path, null, "GET");
    }

    private String sameHttp(String path, Function<Side, String> body, String method) {
        String expected = http(real, path, body, method);
        String actual = http(ours, path, body, method);
        assertEquals(expected, actual, method + " " + path + ": ours differs from etcd 3.4");
        return expected;
    }

    private static String http(Side side, String path, Function<Side, String> body, String method) {
        HttpRequest req = HttpRequest.newBuilder(URI.create(side.grpc().member().clientUrl() + path))
                .timeout(Duration.ofSeconds(15))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body.apply(side)))
                .header("Content-Type", "application/json").build();
        try {
            HttpResponse<String> resp = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
            return "HTTP " + gatewayStatus(resp.statusCode()) + "\n" + side.normalizer().normalizeJson(resp.body());
        } catch (IOException e) {
            return "I/O error " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * grpc-gateway v1 (etcd 3.4/3.5) answers FAILED_PRECONDITION with 412, v2 (etcd 3.6, which the project
     * targets) with 400; both are shown as 400.
     */
    private static int gatewayStatus(int status) {
        return status == 412 ? 400 : status;
    }

    @Override
    public void close() throws InterruptedException {
        real.grpc().close();
        ours.grpc().close();
    }
}
