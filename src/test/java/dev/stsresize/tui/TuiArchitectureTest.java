package dev.stsresize.tui;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The UI's behaviour and its text stay free of the terminal, so that they are tested as plain data. */
class TuiArchitectureTest {
    @Test
    void theUpdateTheStateAndTheDiffTextDoNotKnowLanterna() {
        noClasses().that().haveNameMatching("dev\\.stsresize\\.tui\\.(Update|UiState|UiEvent|Effect|Transition|Wizard|WizardStep"
                        + "|StepStatus|DiffLines|Styled|Texts|Layout|SortOrder|Loaded|Key|KeyHelp|Flash|Dialog|ClaimProgress|Summary|InterruptedRun|SizeEdit|EditFlow|EditLines)(\\$.*)?")
                .should().dependOnClassesThat().resideInAnyPackage("com.googlecode.lanterna..", "java.io..", "java.nio..", "java.net..")
                .because("Update is pure: state and event in, state and effects out")
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.stsresize.tui"));
    }
}
