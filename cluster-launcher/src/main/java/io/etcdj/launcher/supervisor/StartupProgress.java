package io.etcdj.launcher.supervisor;

/**
 * How far bringing a cluster up has come, for {@code up}'s progress line at a terminal: members
 * whose process was started, then members serving clients, each of all the members being started.
 * Called on the thread that starts the cluster.
 */
public interface StartupProgress {

    /** Reports nothing. */
    StartupProgress NONE = new StartupProgress() {
        @Override
        public void started(int started, int total) {
        }

        @Override
        public void serving(int serving, int total) {
        }
    };

    /** {@code started} of {@code total} member processes have been started. */
    void started(int started, int total);

    /** {@code serving} of {@code total} members answer clients (see {@link ReadinessWait}). */
    void serving(int serving, int total);
}
