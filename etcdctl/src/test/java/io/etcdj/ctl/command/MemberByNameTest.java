package io.etcdj.ctl.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.etcdj.api.etcdserverpb.Member;
import io.etcdj.api.etcdserverpb.MemberListResponse;
import io.etcdj.cli.CliException;
import io.etcdj.cli.ExitCodes;
import org.junit.jupiter.api.Test;

/** member remove --name: the one member a name stands for, or a refusal that says why. */
class MemberByNameTest {
    private static final MemberListResponse LIST = MemberListResponse.newBuilder()
            .addMembers(Member.newBuilder().setID(0x8e9e05c52164694dL).setName("infra1"))
            .addMembers(Member.newBuilder().setID(0x91bc3c398fb3c146L).setName("infra2"))
            .addMembers(Member.newBuilder().setID(0xfd422379fda50e48L).setName("infra2"))
            .addMembers(Member.newBuilder().setID(0x1a2bL))
            .build();

    @Test
    void aUniqueNameGivesItsMember() {
        assertEquals(0x8e9e05c52164694dL, MemberByName.id(LIST, "infra1"));
    }

    @Test
    void anAmbiguousNameIsRefusedWithTheIds() {
        CliException e = assertThrows(CliException.class, () -> MemberByName.id(LIST, "infra2"));
        assertEquals(ExitCodes.ERROR, e.exitCode());
        assertEquals("2 members are named \"infra2\" (IDs 91bc3c398fb3c146, fd422379fda50e48): remove one by ID",
                e.getMessage());
    }

    @Test
    void anUnknownNameIsRefusedWithTheNamesThereAre() {
        CliException e = assertThrows(CliException.class, () -> MemberByName.id(LIST, "infra3"));
        assertEquals(ExitCodes.ERROR, e.exitCode());
        assertEquals("no member named \"infra3\" in the cluster (members: infra1, infra2, infra2, 1a2b (unstarted))",
                e.getMessage());
    }

    @Test
    void theEmptyNameOfUnstartedMembersIsNoName() {
        CliException e = assertThrows(CliException.class, () -> MemberByName.id(LIST, ""));
        assertEquals(ExitCodes.BAD_ARGS, e.exitCode());
    }
}
