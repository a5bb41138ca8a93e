package io.etcdj.launcher.supervisor;

import io.etcdj.cli.ExitCodes;
import io.etcdj.launcher.LauncherException;
import io.etcdj.launcher.process.MemberProcess;
import io.etcdj.launcher.proxy.FaultRules;
import io.etcdj.launcher.spec.Urls;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Turns control requests (the words a launcher command sends) into supervisor operations. Runs
 * under the supervisor's lock, called from {@link Supervisor#handle}.
 */
final class ControlRequests {
    private final Supervisor supervisor;

    ControlRequests(Supervisor supervisor) {
        this.supervisor = supervisor;
    }

    int handle(List<String> request, ControlServer.Reply reply) {
        if (request.isEmpty()) {
            throw new LauncherException("empty control request", ExitCodes.USAGE);
        }
        List<String> args = request.subList(1, request.size());
        switch (request.get(0)) {
            case "stop" -> {
                if (args.isEmpty()) {
                    reply.out("stopping the cluster");
                    Thread t = new Thread(supervisor::shutdown, "shutdown");
                    t.start();
                } else {
                    forEach(args, mp -> { mp.stop(Supervisor.STOP_GRACE); reply.out("stopped " + mp.spec().process()); });
                }
            }
            case "start" -> forEach(args, mp -> start(mp, reply));
            case "restart" -> forEach(args, mp -> { mp.stop(Supervisor.STOP_GRACE); start(mp, reply); });
            case "kill" -> forEach(args, mp -> { mp.kill(); reply.out("killed " + mp.spec().process()); });
            case "pause" -> forEach(args, mp -> { mp.pause(); reply.out("paused " + mp.spec().process()); });
            case "resume" -> forEach(args, mp -> { mp.resume(); reply.out("resumed " + mp.spec().process()); });
            case "add-member" -> new MembershipChanges(supervisor).add(args.get(0), Boolean.parseBoolean(args.get(1)),
                    optionalUrl(args.get(2), "--client-url"), optionalUrl(args.get(3), "--peer-url"), reply);
            case "promote" -> new MembershipChanges(supervisor).promote(supervisor.find(args.get(0)), reply);
            case "remove-member" -> new MembershipChanges(supervisor).remove(supervisor.find(args.get(0)), reply);
            case "partition" -> {
                String name = supervisor.find(args.get(0)).spec().name();
                supervisor.changeFaults(rules -> rules.partition(name));
                reply.out("partitioned " + args.get(0));
            }
            case "delay" -> {
                String name = supervisor.find(args.get(0)).spec().name();
                supervisor.changeFaults(rules -> rules.delay(name, Integer.parseInt(args.get(1))));
                reply.out("peer traffic of " + args.get(0) + " delayed by " + args.get(1) + " ms");
            }
            case "heal" -> {
                if (args.isEmpty()) {
                    supervisor.changeFaults(FaultRules::heal);
                    reply.out("healed: no partitions or delays");
                } else {
                    List<String> names = args.stream().map(n -> supervisor.find(n).spec().name()).toList();
                    supervisor.changeFaults(rules -> names.forEach(rules::heal));
                    reply.out("healed " + String.join(", ", args) + ": no partition or delay");
                }
            }
            case "move-leader" -> new LeaderTransfer(supervisor).moveTo(supervisor.find(args.get(0)), reply);
            default -> throw new LauncherException("unknown control request " + request.get(0), ExitCodes.USAGE);
        }
        return ExitCodes.SUCCESS;
    }

    private void start(MemberProcess mp, ControlServer.Reply reply) {
        mp.start();
        reply.out("started " + mp.spec().process() + " (pid " + mp.pid().map(String::valueOf).orElse("?") + ")");
        supervisor.save();
        List<MemberProcess> late = supervisor.awaitReady(List.of(mp), false);
        if (!late.isEmpty()) {
            reply.out(mp.spec().process() + " is running but not serving clients yet (no quorum?)");
        }
    }

    private void forEach(List<String> names, Consumer<MemberProcess> action) {
        if (names.isEmpty()) {
            throw new LauncherException("name at least one member", ExitCodes.USAGE);
        }
        List<MemberProcess> targets = names.stream().map(supervisor::find).toList();
        targets.forEach(action);
    }

    private Optional<URI> optionalUrl(String text, String what) {
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Urls.member(text, what, supervisor.tlsEnabled()));
        } catch (IllegalArgumentException e) {
            throw new LauncherException(e.getMessage(), ExitCodes.USAGE);
        }
    }
}
