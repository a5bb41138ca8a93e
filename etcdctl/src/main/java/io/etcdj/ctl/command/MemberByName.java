package io.etcdj.ctl.command;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.cli.CliException;
import java.util.List;

/**
 * Finds the one member a name stands for (etcd #2195: operators know their members by name, the
 * API by ID). Names are not unique in etcd and a member that has not started yet has none, so a
 * name that matches no member or several is refused rather than guessed.
 */
final class MemberByName {

    private MemberByName() {
    }

    /** The ID of the member named {@code name} in {@code list}, or a clear error naming the candidates. */
    static long id(MemberListResponse list, String name) {
        if (name.isEmpty()) {
            throw CliException.badArgs("member name is empty (a member that has not started yet has no name: remove it by ID)");
        }
        List<Member> named = list.getMembersList().stream().filter(m -> m.getName().equals(name)).toList();
        if (named.isEmpty()) {
            List<String> known = list.getMembersList().stream()
                    .map(m -> m.getName().isEmpty() ? String.format("%x (unstarted)", m.getID()) : m.getName()).toList();
            throw CliException.error("no member named \"" + name + "\" in the cluster (members: "
                    + String.join(", ", known) + ")");
        }
        if (named.size() > 1) {
            List<String> ids = named.stream().map(m -> String.format("%x", m.getID())).toList();
            throw CliException.error(named.size() + " members are named \"" + name + "\" (IDs " + String.join(", ", ids)
                    + "): remove one by ID");
        }
        return named.get(0).getID();
    }
}
