package dev.stsresize.cluster;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The invariants of the cluster layer, over all product classes. */
class ClusterArchitectureTest {
    static JavaClasses product;

    @BeforeAll
    static void importProduct() {
        product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.stsresize");
    }

    @Test
    void noProductCodeReadsOrWritesThroughClientJavaModels() {
        // the models reject fields they do not know and drop them on a round-trip: objects stay raw trees
        noClasses().should().dependOnClassesThat().resideInAPackage("io.kubernetes.client.openapi.models..")
                .check(product);
    }

    @Test
    void onlyTheClusterPackageTalksToTheApiServer() {
        noClasses().that().resideOutsideOfPackage("dev.stsresize.cluster..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kubernetes.client..", "okhttp3..")
                .check(product);
    }

    @Test
    void theClusterPackageKnowsNothingOfTheCommandLine() {
        noClasses().that().resideInAPackage("dev.stsresize.cluster..")
                .should().dependOnClassesThat().resideInAnyPackage("picocli..", "dev.stsresize.cli..")
                .check(product);
    }

    @Test
    void nothingInTheProductHandRollsHttp() {
        // requests go through client-java's ApiClient.buildCall (its base path, TLS, credentials and
        // User-Agent); reconfiguring the client it made (timeouts, interceptors) is allowed, and
        // LeanApiClient, being the ApiClient, makes ApiClient's own OkHttpClient; PlainHttp asks a server that is
        // not the API server (a Prometheus given by URL) and must NOT carry the ApiClient's credentials
        noClasses().that().doNotHaveFullyQualifiedName(LeanApiClient.class.getName())
                .and().doNotHaveFullyQualifiedName(PlainHttp.class.getName()).should().dependOnClassesThat().haveFullyQualifiedName("java.net.HttpURLConnection")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.net.http.HttpClient")
                .orShould().callConstructor(okhttp3.OkHttpClient.class)
                .orShould().callConstructor(okhttp3.OkHttpClient.Builder.class)
                .orShould().callMethod(okhttp3.OkHttpClient.class, "newCall", okhttp3.Request.class)
                .check(product);
    }
}
