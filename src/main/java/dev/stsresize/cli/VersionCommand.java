package dev.stsresize.cli;

import picocli.CommandLine.Command;

/** {@code kubectl stsresize version}: the version alone, with nothing loaded that it does not need. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the version of kubectl-stsresize.")
public final class VersionCommand extends BaseCommand {
    /** No flags of its own. */
    @Override
    protected void validate() {}

    @Override
    protected int run() {
        spec.commandLine().getOut().println("kubectl-stsresize " + Version.get());
        return ExitCodes.OK;
    }
}
