package dev.stsresize;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The layering docs/design.md asks for, kept by the build rather than by review. */
class ArchitectureTest {
    private static JavaClasses product;

    @BeforeAll
    static void importProduct() {
        product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.stsresize");
    }

    @Test
    void thePlanIsPureOfClientPicocliAndLanterna() {
        noClasses().that().resideInAPackage("dev.stsresize.plan..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kubernetes..", "picocli..", "com.googlecode.lanterna..",
                        "okhttp3..", "java.net..", "java.io.File", "java.nio.file..")
                .because("decide() is pure: trees in, a decision out, testable as plain data")
                .check(product);
    }

    @Test
    void picocliStaysInsideTheCli() {
        noClasses().that().resideOutsideOfPackage("dev.stsresize.cli..")
                .should().dependOnClassesThat().resideInAPackage("picocli..")
                .because("commands are one view; the core, the readers and the renderers must not know about them")
                .check(product);
    }

    /**
     * The simulated cluster (the kube-sim module) is reached only where {@code demo} and {@code simulate}
     * start it and where the start-up archive is trained on it, each in a nested class so that picocli's
     * reflection over the commands loads none of it ({@code StartupClassesIT}).
     */
    @Test
    void onlyDemoSimulateAndTrainingReachTheSimulatedCluster() {
        noClasses().that().resideOutsideOfPackage("dev.stsresize.sim..")
                .and().haveNameNotMatching("dev\\.stsresize\\.cli\\.(DemoCommand|SimulateCommand)(\\$.*)?")
                .and().haveNameNotMatching("dev\\.stsresize\\.dist\\.Training(\\$.*)?")
                .should().dependOnClassesThat().resideInAPackage("dev.stsresize.sim..")
                .because("the simulator is a module of its own; the product talks to clusters through the Cluster port only")
                .check(product);
    }

    @Test
    void renderersAndReadersDoNotTalkToAClusterOrATerminalUi() {
        noClasses().that().resideInAnyPackage("dev.stsresize.render..", "dev.stsresize.manifest..")
                .should().dependOnClassesThat().resideInAnyPackage("io.kubernetes..", "com.googlecode.lanterna..")
                .check(product);
    }

    /** Top-level packages: {@code tui} and its sub-packages count as one here, so this reads the big layers. */
    @Test
    void thePackagesDependOnEachOtherWithoutACycle() {
        slices().matching("dev.stsresize.(*)..").should().beFreeOfCycles()
                .because("each package can then be read, tested and replaced from the bottom up: plan, then converge, then the views")
                .check(product);
    }

    /**
     * Every package on its own, sub-packages included: {@code tui} must not reach back into {@code tui.terminal}
     * or {@code tui.source}, which use it. The simulated cluster is another module with rules of its own.
     */
    @Test
    void everyPackageIncludingSubPackagesIsFreeOfCycles() {
        slices().matching("dev.stsresize.(**)").should().beFreeOfCycles()
                .because("a sub-package is an edge of its parent (the terminal, the sources) and depends on it, never the reverse")
                .check(product.that(resideOutsideOfPackage("dev.stsresize.sim..")));
    }

    @Test
    void theDecisionPackageImportsNoOtherPackageOfTheProject() {
        noClasses().that().resideInAPackage("dev.stsresize.plan..")
                .should().dependOnClassesThat(resideInAPackage("dev.stsresize..").and(resideOutsideOfPackage("dev.stsresize.plan..")))
                .because("every other package may use the decision and its Metadata; the decision uses none of them")
                .check(product);
    }

    /**
     * The UI is pure but for its edges, which live in sub-packages: {@code tui.terminal} (painting, colours,
     * keys, the loop and the effect runner) and {@code tui.source} (where the decisions are read from).
     * A new class of {@code tui} itself is pure by where it is, not by a list of names.
     */
    @Test
    void theUiIsPureButForItsTerminalAndItsSources() {
        noClasses().that().resideInAPackage("dev.stsresize.tui")
                .should().dependOnClassesThat().resideInAnyPackage("com.googlecode.lanterna..", "java.io..", "java.nio..", "java.net..",
                        "dev.stsresize.tui.terminal..", "dev.stsresize.tui.source..")
                .because("state, events, effects, text and layout are plain data, tested without a terminal")
                .check(product);
    }

    /**
     * The wizard is an adapter of the converge's one machine: {@code tui} itself neither reaches the
     * cluster port nor handles concurrency, so a second converger cannot grow back inside it. Negative
     * control: a converger of the wizard's own in {@code tui} (one that reaches the port or starts a thread) breaks it.
     */
    @Test
    void theUiItselfHoldsNoClusterPortAndNoConcurrency() {
        noClasses().that().resideInAPackage("dev.stsresize.tui")
                .should().dependOnClassesThat().resideInAnyPackage("java.util.concurrent..", "dev.stsresize.cluster..")
                .orShould().dependOnClassesThat().areAssignableTo(Thread.class)
                .because("the wizard's runs are the converge's machine, driven by tui.source.ClusterSteps; the UI is plain data")
                .check(product);
    }

    /**
     * The procedure's phases are named once, in {@code converge.Phase}: the wizard neither switches over
     * them (a switch over an enum reads its {@code ordinal()}) nor keeps an enum of procedure states of its
     * own. Negative controls: a {@code switch} over the checklist's phase in {@code ClusterSteps.run} breaks
     * the first; an enum in {@code tui} with a constant {@code GROW} or {@code VERIFY}, the second.
     */
    @Test
    void theWizardSwitchesOverNoPhaseAndKeepsNoPhasesOfItsOwn() {
        noClasses().that().resideInAPackage("dev.stsresize.tui..")
                .should().callMethod(dev.stsresize.converge.Phase.class, "ordinal")
                .because("what a phase means is Phase's and Convergence's; a switch over it in the UI is a second procedure")
                .check(product);
        java.util.Set<String> phases = java.util.Arrays.stream(dev.stsresize.converge.Phase.values()).map(Enum::name)
                .collect(java.util.stream.Collectors.toSet());
        java.util.List<String> copies = product.stream().filter(c -> c.getPackageName().startsWith("dev.stsresize.tui") && c.isEnum())
                .filter(c -> c.getEnumConstants().stream().anyMatch(k -> phases.contains(k.name())))
                .map(com.tngtech.archunit.core.domain.JavaClass::getName).toList();
        org.assertj.core.api.Assertions.assertThat(copies).as("enums of the UI that name phases of the procedure").isEmpty();
    }

    /**
     * The wizard's adapter is a runner: it passes the operator's answers and puts the machine's turns in the wizard's
     * words. What the objects say after a run is read by {@code converge.ReadBack} (a claim's state by ClaimGrower,
     * quantities), whether a run may start is {@code converge.Recheck}'s, a checklist row is run by {@code
     * converge.ChecklistRow}, leaving and closing runs is {@code converge.OpenRuns}'. So the adapter reads no object
     * itself: a status it read and judged on its own could say what the objects do not.
     */
    @Test
    void theWizardsAdapterDecidesNothing() {
        String adapter = "dev\\.stsresize\\.tui\\.source\\.(ClusterSteps|WizardRun)(\\$.*)?";
        noClasses().that().haveNameMatching(adapter)
                .should().dependOnClassesThat().haveNameMatching("dev\\.stsresize\\.converge\\.ClaimGrower(\\$.*)?")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.stsresize.plan.Quantity")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.stsresize.tui.Texts")
                .orShould().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe("a method of the Cluster port",
                        c -> c.getTargetOwner().isAssignableTo(dev.stsresize.cluster.Cluster.class)))
                .because("a decision or a reading in the adapter is a second converger growing back; it belongs to the converge")
                .check(product);
    }

    /** Threads are the terminal edge's: the sources and the wizard's adapter run on the threads that call them. */
    @Test
    void onlyTheTerminalEdgeOfTheUiHasThreads() {
        noClasses().that().resideInAPackage("dev.stsresize.tui..").and().resideOutsideOfPackage("dev.stsresize.tui.terminal..")
                .should().dependOnClassesThat().areAssignableTo(Thread.class)
                .orShould().dependOnClassesThat().areAssignableTo(java.util.concurrent.Executor.class)
                .orShould().dependOnClassesThat().areAssignableTo(java.util.concurrent.Future.class)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.concurrent.Executors")
                .because("a step runs on the terminal's step thread; a wait ends by the converge's own signals, never an interrupt")
                .check(product);
    }

    /**
     * Requests sent at once go through the converge's one bounded pool ({@code Together}), whoever sends
     * them: a second pool beside it would put more requests on the connection than it serves at once.
     * The Events' writer and the Lease's renewer each keep one thread of their own, which sends one
     * request at a time.
     */
    @Test
    void requestsSentTogetherGoThroughTheOnePool() {
        noClasses().that().resideInAPackage("dev.stsresize.converge..")
                .and().doNotHaveFullyQualifiedName("dev.stsresize.converge.Together")
                .and().doNotHaveFullyQualifiedName("dev.stsresize.converge.Events")
                .and().doNotHaveFullyQualifiedName("dev.stsresize.converge.LeaseLock")
                .should().dependOnClassesThat().areAssignableTo(java.util.concurrent.Executor.class)
                .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.concurrent.Executors")
                .orShould().callConstructorWhere(com.tngtech.archunit.base.DescribedPredicate.describe("a Thread's constructor",
                        c -> c.getTargetOwner().isAssignableTo(Thread.class)))
                .because("Together bounds the requests in flight process-wide; a task sending its own requests together runs them in its lane")
                .check(product);
    }

    /** The commands and the client get the process's surroundings from {@code cli.Environment}, read once in Main, so tests pass their own. */
    @Test
    void onlyTheEnvironmentReadsTheProcessEnvironmentStdinAndConsole() {
        noClasses().that().resideInAnyPackage("dev.stsresize.cli..", "dev.stsresize.cluster..")
                .and().doNotHaveFullyQualifiedName("dev.stsresize.cli.Environment")
                .should().callMethod(System.class, "getenv").orShould().callMethod(System.class, "getenv", String.class)
                .orShould().callMethod(System.class, "console").orShould().accessField(System.class, "in")
                .because("Cli, the commands and the connection are given an Environment; only Main asks for the process's own")
                .check(product);
    }
}
