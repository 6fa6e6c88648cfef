package dev.stsresize.dist;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** What keeps start-up fast, kept by the build: no code path may bring back a measured cost. */
class StartupArchitectureTest {
    private static final JavaClasses PRODUCT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.stsresize");

    @Test
    void nothingUsesClientJavasYamlWhichScansEveryModelClassOnFirstUse() {
        noClasses().should().dependOnClassesThat().haveFullyQualifiedName("io.kubernetes.client.util.Yaml")
                .because("its static initialiser scans client-java's ~1,000 model classes (0.35-0.55 s at start);"
                        + " documents are split by SnakeYAML and read as Jackson trees instead")
                .check(PRODUCT);
    }
}
