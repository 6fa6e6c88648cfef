package dev.stsresize.sim;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The module's shape, kept by the build: a package root of its own, no cycles, general code free of the demo. */
class ModuleArchitectureTest {
    private static final JavaClasses SIM = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.stsresize.sim");

    @Test
    void theSimulatorKnowsNothingOfThePlugin() {
        noClasses().should().dependOnClassesThat(resideInAPackage("dev.stsresize..").and(not(resideInAPackage("dev.stsresize.sim.."))))
                .because("the simulated cluster is the plugin's oracle: it must not borrow the plugin's code (its Quantity, its errors)")
                .check(SIM);
    }

    @Test
    void itsPackagesHaveNoCycles() {
        slices().matching("dev.stsresize.sim.(*)..").should().beFreeOfCycles().check(SIM);
    }

    /** A String constant is inlined where it is read, out of ArchUnit's sight: the demo keeps none that others could use. */
    @Test
    void controllersNeverReadTheDemosNames() {
        noClasses().that().resideOutsideOfPackage("dev.stsresize.sim.demo..")
                .should().dependOnClassesThat().resideInAPackage("dev.stsresize.sim.demo..")
                .because("the demo is one scenario of the simulated cluster, not part of how it behaves")
                .check(SIM);
    }
}
