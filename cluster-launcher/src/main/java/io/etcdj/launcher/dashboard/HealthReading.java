package io.etcdj.launcher.dashboard;

/** A member's answer to GET /health: {@code {"health":"true"}} or false with a reason. */
record HealthReading(long at, boolean healthy, String reason) {}
