package io.etcdj.embedded;

import java.time.Duration;
import java.util.List;

/** Runs one member with given flags: in this JVM or as a child process. */
interface MemberRunner {
    /** Starts the member; returns once it serves clients, or throws with the reason. */
    void start(List<String> flags, Duration within);

    /** Stops the member as SIGTERM does: the member shuts down in order. */
    void stop();

    /** Stops the member at once, as SIGKILL does where the runner can. */
    void kill();

    void pause();

    void resume();

    boolean running();

    /** The member's recent output, for an error message. */
    String recentOutput();
}
