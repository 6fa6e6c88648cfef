package dev.stsresize.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code kubectl stsresize completion bash|zsh|fish}: the completion script for calling
 * {@code kubectl-stsresize} directly. {@code kubectl stsresize <TAB>} needs no script: kubectl's own
 * completion runs {@code kubectl_complete-stsresize}, which asks {@code __complete} the same way.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print the shell completion script for kubectl-stsresize (bash, zsh or fish).",
            "For 'kubectl stsresize <TAB>', link kubectl_complete-stsresize onto PATH instead (see README)."},
        footer = {"", "Example:", "  source <(kubectl stsresize completion bash)"})
public final class CompletionCommand extends BaseCommand {
    enum Shell { bash, zsh, fish }

    @Parameters(paramLabel = "SHELL", description = "bash, zsh or fish.")
    Shell shell;

    /** SHELL is an enum: picocli has refused any other word. */
    @Override
    protected void validate() {}

    @Override
    protected int run() {
        String name = "/dev/stsresize/completion/kubectl-stsresize." + shell;
        try (InputStream in = CompletionCommand.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + name);
            }
            spec.commandLine().getOut().print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            spec.commandLine().getOut().flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ExitCodes.OK;
    }
}
