package io.etcdj.ctl;

import io.etcdj.client.EtcdClient;
import io.etcdj.client.NettyDefaults;
import io.etcdj.ctl.cli.EtcdctlApp;
import io.etcdj.ctl.cli.Interruption;

/** Entry point of bin/etcdctl. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        Interruption.holdUntilCommandKnown(); // first: a Ctrl-C from now on is the command's to answer
        NettyDefaults.apply();
        EtcdClient.useOwnEventLoops(); // this process exits after the command: see there
        int code = new EtcdctlApp(RootCommand::tree).run(args, System.out, System.err, System.in, System.getenv());
        System.out.flush();
        System.exit(code);
    }
}
