package dev.stsresize.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command keeps one contract: it is a {@link BaseCommand} (validate, then run; {@code --debug}), it reaches
 * no other command's members (what two commands share lives in a mixin, the base or a helper), and its {@code -o}
 * and {@code --color} are enums, so a word outside them is refused by the parser.
 */
class CommandContractTest {
    private static JavaClasses product;

    @BeforeAll
    static void importProduct() {
        product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.stsresize.cli");
    }

    /** The root only prints its usage: it has no flags to validate and nothing to run. */
    private static boolean isSubcommand(JavaClass c) {
        return c.isAnnotatedWith(Command.class) && !c.isEquivalentTo(RootCommand.class);
    }

    @Test
    void everySubcommandIsABaseCommand() {
        classes().that().areAnnotatedWith(Command.class).and().doNotHaveFullyQualifiedName(RootCommand.class.getName())
                .should().beAssignableTo(BaseCommand.class)
                .because("one contract for all: flags validated before any request, then the run; --debug everywhere")
                .check(product);
    }

    @Test
    void noCommandReachesAnotherCommandsMembers() {
        classes().that().areAnnotatedWith(Command.class)
                .should(new ArchCondition<JavaClass>("depend on no other command") {
                    @Override
                    public void check(JavaClass command, ConditionEvents events) {
                        for (Dependency d : command.getDirectDependenciesFromSelf()) {
                            JavaClass target = d.getTargetClass();
                            JavaClass outer = target.getEnclosingClass().orElse(target);
                            if (isSubcommand(outer) && !outer.isEquivalentTo(command.reflect())) {
                                events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                            }
                        }
                    }
                })
                .because("what two commands share belongs to a mixin, BaseCommand, ConvergingCommand or ResultPrinter")
                .check(product);
    }

    @Test
    void theContractCannotBeBypassed() throws NoSuchMethodException {
        assertThat(Modifier.isFinal(BaseCommand.class.getMethod("call").getModifiers()))
                .as("call() is validate() then run(), for every command").isTrue();
    }

    static CommandLine tree() {
        return new Cli(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                new ByteArrayInputStream(new byte[0]), Map.of(), false).commandLine();
    }

    @Test
    void everyCommandTakesDebug() {
        List<String> without = new ArrayList<>();
        tree().getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandSpec().findOption("--debug") == null) {
                without.add(name);
            }
        });
        assertThat(without).as("commands without --debug").isEmpty();
    }

    @Test
    void outputAndColorAreEnumsEverywhere() {
        List<String> strings = new ArrayList<>();
        tree().getSubcommands().forEach((name, sub) -> {
            for (String flag : List.of("--output", "--color")) {
                OptionSpec o = sub.getCommandSpec().findOption(flag);
                if (o != null && !o.type().isEnum()) {
                    strings.add(name + " " + flag + " (" + o.type().getSimpleName() + ")");
                }
            }
        });
        assertThat(strings).as("a free-text -o or --color accepts a typo and prints something else").isEmpty();
    }

    /**
     * One printer of results: only {@code ResultPrinter} turns decisions, usage and results into the table or
     * a stsresize/v1 document, so {@code -o} means the same in every command. Negative control: apply's plan
     * table rendered in ApplyCommand itself breaks it.
     */
    @Test
    void onlyTheResultPrinterPrintsResults() {
        noClasses().that().resideOutsideOfPackage("dev.stsresize.render..")
                .and().doNotHaveFullyQualifiedName(ResultPrinter.class.getName())
                .should().dependOnClassesThat().haveNameMatching(
                        "dev\\.stsresize\\.render\\.(TableRenderer|PlanDocument|ResultDocument|UsageTable|DocumentWriter)(\\$.*)?")
                .because("a second printer is a second meaning of -o")
                .check(product);
    }
}
