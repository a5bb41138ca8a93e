package io.etcdj.embedded;

/** Where a cluster's members run. */
public enum Mode {
    /**
     * In the calling JVM: fastest to start (no JVM start-up per member). {@link EtcdMember#pause}
     * is not available (threads of a JVM cannot be stopped from outside as a process can).
     */
    IN_PROCESS,
    /** One child JVM per member ({@code io.etcdj.server.Main} on this JVM's class path): real kill, pause and resume. */
    CHILD_PROCESS
}
