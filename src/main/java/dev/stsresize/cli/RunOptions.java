package dev.stsresize.cli;

import dev.stsresize.converge.ConvergeOptions;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The flags of a run that converges, shared by {@code apply} and {@code resume} ({@code @Mixin}). */
public final class RunOptions {
    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10m0s", converter = ConnectionOptions.DurationConverter.class,
            description = "How long to wait for the resizes and the adoption. Default: ${DEFAULT-VALUE}.")
    Duration timeout;

    @Option(names = "--take-over", description = "Take over the Lease of a run that stopped renewing it.")
    boolean takeOver;

    /** The defaults with these flags. */
    ConvergeOptions convergeOptions() {
        return ConvergeOptions.defaults().withTimeout(timeout).withTakeOver(takeOver);
    }
}
