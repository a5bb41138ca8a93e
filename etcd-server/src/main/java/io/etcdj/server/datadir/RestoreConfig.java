package io.etcdj.server.datadir;

import java.nio.file.Path;

/**
 * What {@code snapshot restore} is asked to do; the flags of etcd's command.
 *
 * @param snapshot       the snapshot (or backend) file
 * @param layout         where the new member's files go (the data dir must be missing or empty)
 * @param cluster        the new cluster and this member's place in it
 * @param skipHashCheck  accept a file without (or with a wrong) SHA-256 trailer
 * @param bumpRevision   how much to raise the latest revision (0: unchanged)
 * @param markCompacted  mark the latest revision as compacted (etcd requires it with a bump)
 */
public record RestoreConfig(Path snapshot, DataDirLayout layout, InitialCluster cluster, boolean skipHashCheck,
                            long bumpRevision, boolean markCompacted) {
}
