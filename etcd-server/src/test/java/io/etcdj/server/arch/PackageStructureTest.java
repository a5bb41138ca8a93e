package io.etcdj.server.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The member's package graph as docs/server.md's package table states it: every row's "must not
 * touch" is a rule here ({@link PackageRules}), named after the row, and the table and the code
 * list the same packages; no cycles between the packages under io.etcdj.server; every package
 * says in a package-info what it owns. {@code mvn -pl etcd-server -am test
 * -Dtest=PackageStructureTest} is the command that proves it.
 */
class PackageStructureTest {
    private static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.etcdj.server", "io.etcdj.raft");
    private static final Path SERVER_MD = Path.of("../docs/server.md");
    /** A class named with its package (an import, a static import, a qualified name in code). */
    private static final Pattern QUALIFIED_NAME = Pattern.compile("io\\.etcdj\\.[a-z][a-z0-9.]*\\.[A-Z]\\w*");

    /** Each row of the table, checked by the rule of the same name. */
    @TestFactory
    Stream<DynamicTest> everyRowOfTheTableHoldsInTheCode() {
        return PackageTable.read(SERVER_MD).stream().map(row -> DynamicTest.dynamicTest(row.name(), () -> {
            ArchRule rule = PackageRules.ALL.get(row.name());
            if (rule == null) {
                fail("docs/server.md's package table has the row " + row.name() + " but PackageRules has no rule for it");
            }
            rule.as("docs/server.md, package table, row " + row.name() + ": must not touch " + row.mustNotTouch()).check(SERVER);
        }));
    }

    @Test
    void theTableAndTheRulesNameTheSameRows() {
        Set<String> rows = PackageTable.read(SERVER_MD).stream().map(PackageTable.Row::name)
                .collect(Collectors.toCollection(TreeSet::new));
        assertSameMembers("rows of docs/server.md's package table", rows, "rules of PackageRules", PackageRules.ALL.keySet());
    }

    @Test
    void theTableListsEveryPackageOfTheCodeAndNoOther() {
        Set<String> inCode = SERVER.stream().map(JavaClass::getPackageName)
                .map(PackageTable::topLevelPackage).collect(Collectors.toCollection(TreeSet::new));
        Set<String> inTable = PackageTable.read(SERVER_MD).stream().flatMap(r -> r.packages().stream())
                .collect(Collectors.toCollection(TreeSet::new));
        assertSameMembers("packages of the code (io.etcdj.server.*, module raft)", inCode, "packages of docs/server.md's table",
                inTable);
    }

    /**
     * The rows hold for the sources too: a class used only for a constant leaves no trace in the
     * bytecode (javac copies the value), so the sources are searched for the classes they name.
     */
    @Test
    void noSourceNamesAClassItsRowForbids() throws IOException {
        List<String> breaches = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java")).toList()) {
                String name = Path.of("src/main/java").relativize(file).toString().replace('/', '.').replaceAll("\\.java$", "");
                if (!SERVER.contain(name)) {
                    continue;
                }
                JavaClass origin = SERVER.get(name);
                Matcher named = QUALIFIED_NAME.matcher(Files.readString(file));
                while (named.find()) {
                    if (SERVER.contain(named.group())) {
                        for (String row : PackageRules.rowsBrokenBy(origin, SERVER.get(named.group()))) {
                            breaches.add(file + " names " + named.group() + ": row " + row);
                        }
                    }
                }
            }
        }
        assertTrue(breaches.isEmpty(), "sources that name what their row of docs/server.md's table forbids: " + breaches);
    }

    @Test
    void serverPackagesHaveNoCycles() {
        slices().matching("io.etcdj.server.(*)..").should().beFreeOfCycles().check(SERVER);
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

    /** Fails naming what only one side has. */
    private static void assertSameMembers(String aName, Set<String> a, String bName, Set<String> b) {
        Set<String> onlyA = new TreeSet<>(a);
        onlyA.removeAll(b);
        Set<String> onlyB = new TreeSet<>(b);
        onlyB.removeAll(a);
        assertTrue(onlyA.isEmpty() && onlyB.isEmpty(), aName + " but not " + bName + ": " + onlyA + "; " + bName + " but not "
                + aName + ": " + onlyB);
    }

    private static boolean hasJava(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".java"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
