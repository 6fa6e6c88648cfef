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
        customSynopsis = {
            "kubectl stsresize COMMAND [OPTIONS]",
            "       kubectl stsresize -f MANIFEST [OPTIONS]   (the interactive UI, as 'ui')",
        },
        description = {
            "Grow the volumes of StatefulSets whose manifest raised a volumeClaimTemplate's size. Each claim is grown,"
                    + " the StatefulSet orphan-deleted (pods and claims stay) and re-applied, and its pods are verified"
                    + " to be adopted.",
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
            return new String[] {Version.line()};
        }
    }
}
