/**
 * The launcher's entry points and the one exception its commands report to the user; the work is
 * in the sub-packages: {@code spec} (the Procfile-style YAML), {@code process} (member processes),
 * {@code supervisor} (the background supervisor and its control protocol), {@code proxy} (fault
 * proxies on the peer links), {@code client}, {@code tls} and {@code cli}.
 */
package io.etcdj.launcher;
