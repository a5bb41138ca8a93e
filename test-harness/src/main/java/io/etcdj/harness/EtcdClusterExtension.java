package io.etcdj.harness;

import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts the members of a test cluster before the tests and removes them afterwards, whatever happens.
 *
 * <p>Registered on a {@code static} field ({@code @RegisterExtension static final EtcdClusterExtension
 * CLUSTER = ...}) the members live for the whole class; registered on an instance field each test gets
 * fresh members. When a test fails, every member's log tail is attached to the failure as a suppressed
 * exception, so the report shows what the server said.
 */
public final class EtcdClusterExtension extends LogsOnFailure implements BeforeAllCallback, AfterAllCallback,
        BeforeEachCallback, AfterEachCallback {

    private final List<EtcdMember> members;
    private boolean classScoped;
    private boolean started;

    private EtcdClusterExtension(List<EtcdMember> members) {
        this.members = List.copyOf(members);
    }

    public static EtcdClusterExtension of(EtcdMember... members) {
        return new EtcdClusterExtension(List.of(members));
    }

    public EtcdMember member(int index) {
        return members.get(index);
    }

    /** The single member's endpoint, for the common one-member case. */
    public String endpoint() {
        return members.get(0).endpoint();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        classScoped = true;
        startAll();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (!started) {
            startAll();
        }
    }

    private void startAll() throws Exception {
        try {
            for (EtcdMember m : members) {
                m.start();
            }
            started = true;
        } catch (Exception | Error e) {
            closeAll();
            throw e;
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!classScoped) {
            closeAll();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        closeAll();
    }

    private void closeAll() {
        for (EtcdMember m : members) {
            m.close();
        }
        started = false;
    }

    @Override
    List<?> held() {
        return members;
    }
}
