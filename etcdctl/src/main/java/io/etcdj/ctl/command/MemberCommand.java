package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberAddRequest;
import io.etcdj.api.etcdserverpb.MemberAddResponse;
import io.etcdj.api.etcdserverpb.MemberListRequest;
import io.etcdj.api.etcdserverpb.MemberPromoteRequest;
import io.etcdj.api.etcdserverpb.MemberRemoveRequest;
import io.etcdj.api.etcdserverpb.MemberUpdateRequest;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import io.etcdj.ctl.cli.CtlCommand;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code member add|remove|update|list|promote}. */
@Command(name = "member", description = "Membership related commands",
        customSynopsis = "etcdctl member <subcommand> [flags]",
        subcommands = {MemberCommand.Add.class, MemberCommand.Remove.class, MemberCommand.Update.class,
            MemberCommand.ListMembers.class, MemberCommand.Promote.class})
public final class MemberCommand {

    private static List<String> urls(String csv) {
        List<String> out = new ArrayList<>();
        for (String u : csv.split(",")) {
            out.add(u.trim());
        }
        return out;
    }

    /** {@code member add name --peer-urls=... [--learner]}. */
    @Command(name = "add", description = "Adds a member into the cluster",
            customSynopsis = "etcdctl member add <memberName> [options] [flags]")
    public static final class Add extends CtlCommand {
        @Option(names = "--learner", arity = "0..1", description = "indicates if the new member is raft learner")
        boolean learner;

        @Option(names = "--peer-urls", defaultValue = "", description = "comma separated peer URLs for the new member.")
        String peerUrls;

        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "member name not provided");
            if (peerUrls.isEmpty()) {
                throw CliException.badArgs("member peer urls not provided");
            }
            String name = arg;
            List<String> peers = urls(peerUrls);
            PeerUrls.check(peers);
            ctx.checkFormat();
            MemberAddRequest req = MemberAddRequest.newBuilder().addAllPeerURLs(peers).setIsLearner(learner).build();
            MemberAddResponse resp = ctx.client().cluster(s -> s.memberAdd(req));
            ctx.printer().memberAdd(resp);
            if (!"simple".equals(ctx.options().writeOut())) {
                return;
            }
            long newId = resp.getMember().getID();
            List<String> conf = new ArrayList<>();
            for (Member m : resp.getMembersList()) {
                for (String u : m.getPeerURLsList()) {
                    String n = m.getID() == newId ? name : m.getName();
                    conf.add(n + "=" + u);
                }
            }
            ctx.out().println();
            ctx.out().println("ETCD_NAME=\"" + name + "\"");
            ctx.out().println("ETCD_INITIAL_CLUSTER=\"" + String.join(",", conf) + "\"");
            ctx.out().println("ETCD_INITIAL_ADVERTISE_PEER_URLS=\"" + String.join(",", peers) + "\"");
            ctx.out().println("ETCD_INITIAL_CLUSTER_STATE=\"existing\"");
        }
    }

    /**
     * {@code member remove id}, or (beyond etcd, its #2195) {@code member remove --name name}: the
     * member is looked up in a linearizable member list; an unknown or ambiguous name is refused.
     */
    @Command(name = "remove", description = "Removes a member from the cluster",
            customSynopsis = "etcdctl member remove <memberID> [flags]")
    public static final class Remove extends CtlCommand {
        @Option(names = "--name", description = "remove the member with this name instead of an ID (refused when no member "
                + "or several have it)")
        String name;

        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            long id;
            if (name == null) {
                id = Args.memberId(onlyArg(args, "member ID is not provided"));
            } else if (!orEmpty(args).isEmpty()) {
                throw CliException.badArgs("give either a member ID or --name, not both");
            } else {
                ctx.checkFormat();
                id = MemberByName.id(ctx.client().cluster(s -> s.memberList(
                        MemberListRequest.newBuilder().setLinearizable(true).build())), name);
            }
            ctx.checkFormat();
            var resp = ctx.client().cluster(s -> s.memberRemove(MemberRemoveRequest.newBuilder().setID(id).build()));
            ctx.printer().memberRemove(id, resp);
        }
    }

    /** {@code member update id --peer-urls=...}. */
    @Command(name = "update", description = "Updates a member in the cluster",
            customSynopsis = "etcdctl member update <memberID> [options] [flags]")
    public static final class Update extends CtlCommand {
        @Option(names = "--peer-urls", defaultValue = "", description = "comma separated peer URLs for the updated member.")
        String peerUrls;

        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "member ID is not provided");
            long id = Args.memberId(arg);
            if (peerUrls.isEmpty()) {
                throw CliException.badArgs("member peer urls not provided");
            }
            ctx.checkFormat();
            PeerUrls.check(urls(peerUrls));
            MemberUpdateRequest req = MemberUpdateRequest.newBuilder().setID(id).addAllPeerURLs(urls(peerUrls)).build();
            var resp = ctx.client().cluster(s -> s.memberUpdate(req));
            ctx.printer().memberUpdate(id, resp);
        }
    }

    /** {@code member list}. */
    @Command(name = "list", description = "Lists all members in the cluster",
            customSynopsis = "etcdctl member list [flags]",
            header = {"When --write-out is set to simple, this command prints out comma-separated member lists for each endpoint.",
                "The items in the lists are ID, Status, Name, Peer Addrs, Client Addrs, Is Learner."})
    public static final class ListMembers extends CtlCommand {
        @Option(names = "--consistency", defaultValue = "l", description = "Linearizable(l) or Serializable(s)")
        String consistency;

        @Parameters(arity = "0..*", hidden = true)
        List<String> ignored;

        @Override
        protected void run() {
            MemberListRequest req = request();
            ctx.checkFormat();
            var resp = ctx.client().cluster(s -> s.memberList(req));
            ctx.printer().memberList(resp);
        }

        /** etcdctl 3.6's --consistency; servers before 3.5 ignore the field and answer from their own state. */
        MemberListRequest request() {
            return switch (consistency) {
                case "l" -> MemberListRequest.newBuilder().setLinearizable(true).build();
                case "s" -> MemberListRequest.newBuilder().setLinearizable(false).build();
                default -> throw new CliException(ExitCodes.BAD_FEATURE, "unknown consistency flag \"" + consistency + "\"");
            };
        }
    }

    /** {@code member promote id}. */
    @Command(name = "promote", description = "Promotes a non-voting member in the cluster",
            customSynopsis = "etcdctl member promote <memberID> [flags]",
            header = {"Promotes a non-voting learner member to a voting one in the cluster."})
    public static final class Promote extends CtlCommand {
        @Parameters(arity = "0..*")
        List<String> args;

        @Override
        protected void run() {
            String arg = onlyArg(args, "member ID is not provided");
            long id = Args.memberId(arg);
            ctx.checkFormat();
            var resp = ctx.client().cluster(s -> s.memberPromote(MemberPromoteRequest.newBuilder().setID(id).build()));
            ctx.printer().memberPromote(id, resp);
        }
    }
}
