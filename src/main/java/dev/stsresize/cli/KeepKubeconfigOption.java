package dev.stsresize.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --keep-kubeconfig}, as every command that serves a simulated cluster takes it ({@code @Mixin}): the
 * kubeconfig it writes holds the cluster's admin credentials, so it goes with the command unless kept.
 */
public final class KeepKubeconfigOption {
    @Option(names = "--keep-kubeconfig", description = "Leave the kubeconfig in place when the command ends (it is removed by "
            + "default: it holds the simulated cluster's admin credentials).")
    boolean keep;

    /** The kubeconfig's removal when the command ends, or null when it is kept. */
    RemovedWhenDone removalOf(Path kubeconfig, PrintWriter err) {
        return keep ? null : new RemovedWhenDone(kubeconfig, err);
    }
}
