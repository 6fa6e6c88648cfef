package dev.stsresize.cli;

import dev.stsresize.cluster.Cluster;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.plan.SizingPolicy;
import dev.stsresize.usage.PrometheusSource;
import dev.stsresize.usage.UsageReader;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Model.CommandSpec;

/** How full the claims are, and what size to suggest: the flags of {@code plan} and {@code usage} ({@code @Mixin}). */
public final class UsageOptions {
    @Option(names = "--headroom", paramLabel = "PERCENT", defaultValue = "30",
            description = "A suggested size leaves at least this percentage free. Default: ${DEFAULT-VALUE}.")
    int headroom;

    @Option(names = "--days", paramLabel = "N",
            description = "A suggested size also lasts N days at the measured growth (needs --prometheus, or the UI's samples).")
    Integer days;

    @Option(names = "--prometheus", paramLabel = "URL",
            description = {"Prometheus, for the growth and the time to full: its base URL, asked without credentials.",
                "Or one in the cluster, e.g. http://prometheus-k8s.monitoring.svc:9090, asked through the API server's",
                "service proxy with your kubeconfig (needs services/proxy get)."})
    String prometheus;

    @Option(names = "--usage-timeout", paramLabel = "DURATION", defaultValue = "5s", converter = ConnectionOptions.DurationConverter.class,
            description = "The longest the usage read may take (the kubelets' summaries, Prometheus). Default: ${DEFAULT-VALUE}.")
    Duration timeout;

    /** Checks the flags before anything is read: one sentence naming the flag and the fix. */
    SizingPolicy policy(CommandSpec spec) {
        try {
            return SizingPolicy.of(headroom, days);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage() + ".");
        }
    }

    void validate(CommandSpec spec) {
        policy(spec);
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--usage-timeout must be above zero, like 5s or 1m.");
        }
        if (prometheus != null) {
            try {
                PrometheusSource.of(prometheus, Optional.empty(), null, timeout);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage() + ".");
            }
        }
    }

    UsageReader reader(Cluster cluster, ClusterConnection conn) {
        Optional<URI> server = Optional.ofNullable(conn.server()).flatMap(UsageOptions::uri);
        Optional<PrometheusSource> source = Optional.ofNullable(prometheus).map(p -> PrometheusSource.of(p, server, cluster, timeout));
        return new UsageReader(cluster, timeout, source, Clock.systemUTC());
    }

    private static Optional<URI> uri(String s) {
        try {
            return Optional.of(URI.create(s));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
