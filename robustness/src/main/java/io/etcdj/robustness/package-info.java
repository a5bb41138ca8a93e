/**
 * A fault-injection suite that judges member processes as black boxes, by their clients' view:
 * clients record every operation (invocation, completion, outcome), faults are injected into the
 * processes and their peer links, and the recorded history is checked for linearizability
 * ({@link io.etcdj.robustness.Linearizability}, Wing-Gong-Lowe with the porcupine improvements)
 * and for lost writes, diverging members, revisions going backwards and two leaders in one term.
 * Runs against our server and against the real etcd (the control). Must not use any server class.
 */
package io.etcdj.robustness;
