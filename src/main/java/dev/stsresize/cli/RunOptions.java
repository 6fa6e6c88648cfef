package dev.stsresize.cli;

import dev.stsresize.converge.ConvergeOptions;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The flags of a run that converges, shared by {@code apply} and {@code resume} ({@code @Mixin}). */
public final class RunOptions {
    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10m0s", converter = ConnectionOptions.DurationConverter.class,
            description = "How long to wait for the resizes and the adoption. Default: ${DEFAULT-VALUE}.")
    Duration timeout;

    @Option(names = "--take-over", description = "Take over the Lease of a run that stopped renewing it.")
    boolean takeOver;

    /** The validate step: a run needs time to wait in. */
    void validate(CommandSpec spec) {
        if (timeout.isZero() || timeout.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--timeout must be above zero, like 10m0s or 30m0s: it bounds the wait"
                    + " for the resizes and the adoption.");
        }
    }

    /** The defaults with these flags. */
    ConvergeOptions convergeOptions() {
        return ConvergeOptions.defaults().withTimeout(timeout).withTakeOver(takeOver);
    }
}
