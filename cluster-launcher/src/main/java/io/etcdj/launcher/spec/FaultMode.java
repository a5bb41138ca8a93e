package io.etcdj.launcher.spec;

/** Whether peer traffic runs through the launcher's fault-injecting proxy. */
public enum FaultMode {
    NONE,
    PROXY
}
