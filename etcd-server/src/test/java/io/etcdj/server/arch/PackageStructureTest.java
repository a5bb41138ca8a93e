package io.etcdj.server.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The member's package graph: no cycles between the packages under io.etcdj.server, and every
 * package says in a package-info what it owns. {@code mvn -pl etcd-server -am test
 * -Dtest=PackageStructureTest} is the command that proves it.
 */
class PackageStructureTest {
    private static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.etcdj.server", "io.etcdj.raft");

    @Test
    void serverPackagesHaveNoCycles() {
        slices().matching("io.etcdj.server.(*)..").should().beFreeOfCycles().check(SERVER);
    }

    @Test
    void theGrpcServicesReachTheMemberOnlyThroughTheirOwnInterfaces() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses().that().resideInAPackage("io.etcdj.server.api..")
                .should().dependOnClassesThat().resideInAnyPackage("io.etcdj.server.etcdserver..", "io.etcdj.server.backend..",
                        "io.etcdj.server.mvcc..", "io.etcdj.raft..", "io.etcdj.server.wal..")
                .check(SERVER);
    }

    @Test
    void theRaftCoreDependsOnNothingOfTheServer() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses().that().resideInAPackage("io.etcdj.raft..")
                .should().dependOnClassesThat().resideInAnyPackage("io.etcdj.server..", "io.grpc..", "io.netty..", "java.nio.file..",
                        "java.net..", "java.util.concurrent..")
                .check(SERVER);
    }

    @Test
    void everyPackageHasAPackageInfo() throws IOException {
        Path root = Path.of("src/main/java/io/etcdj/server");
        try (Stream<Path> dirs = Files.walk(root)) {
            List<Path> missing = dirs.filter(Files::isDirectory)
                    .filter(d -> hasJava(d) && !Files.exists(d.resolve("package-info.java"))).toList();
            assertTrue(missing.isEmpty(), "packages without package-info: " + missing);
        }
    }

    private static boolean hasJava(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".java"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
