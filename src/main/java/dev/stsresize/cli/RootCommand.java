package dev.stsresize.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code kubectl stsresize}: the root command. Subcommands are registered in {@link Cli#commandLine}.
 */
@Command(
        name = "kubectl stsresize",
        mixinStandardHelpOptions = true,
        versionProvider = RootCommand.VersionProvider.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Grow the volumes of a StatefulSet whose manifest raised a volumeClaimTemplate's size:",
            "grow each claim, orphan-delete the StatefulSet, re-apply it, verify the pods were adopted.",
        })
public final class RootCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code --version}: the line {@code version} prints. */
    public static final class VersionProvider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"kubectl-stsresize " + Version.get()};
        }
    }
}
