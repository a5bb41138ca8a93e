package io.etcdj.ctl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TabWriterTest {

    @Test
    void padsColumnsWithTabsToMultiplesOfEight() {
        TabWriter t = new TabWriter();
        t.row("", "grant", "Creates leases");
        t.row("", "keep-alive", "Keeps leases alive (renew)");
        assertEquals("\tgrant\t\tCreates leases\n\tkeep-alive\tKeeps leases alive (renew)\n", t.render());
    }
}
