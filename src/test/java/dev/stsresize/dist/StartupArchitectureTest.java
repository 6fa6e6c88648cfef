package dev.stsresize.dist;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
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

    @Test
    void everyApiClientIsTheLeanOneWhichSkipsClientJavasGsonSetUpAndExtraTlsContexts() {
        noClasses().that().doNotHaveFullyQualifiedName("dev.stsresize.cluster.LeanApiClient")
                .and().doNotHaveFullyQualifiedName("dev.stsresize.cluster.LeanApiClient$Builder")
                .should().callConstructor(ApiClient.class)
                .orShould().callConstructor(ClientBuilder.class)
                .orShould().callMethodWhere(target(owner(type(ClientBuilder.class)))
                        .and(target(nameMatching("standard|defaultClient|kubeconfig|cluster|oldCluster"))))
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.kubernetes.client.util.Config")
                .because("a plain ApiClient registers a Gson adapter for each of client-java's ~770 models (~900 classes)"
                        + " and builds up to four TLS contexts, reading the JDK's cacerts even for a plain-http server"
                        + " (about half a second of a cold live plan); LeanApiClient.Builder does neither")
                .check(PRODUCT);
    }
}
