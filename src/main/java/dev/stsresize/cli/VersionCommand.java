package dev.stsresize.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code kubectl stsresize version}: the version alone, with nothing loaded that it does not need. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the version of kubectl-stsresize.")
public final class VersionCommand implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().getOut().println("kubectl-stsresize " + Version.get());
    }
}
