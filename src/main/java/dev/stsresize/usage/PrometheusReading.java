package dev.stsresize.usage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stsresize.cluster.HttpAnswer;
import dev.stsresize.plan.Metadata;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.Map;
import java.util.Optional;

/**
 * The kubelet volume series from Prometheus (kube-prometheus' kubelet ServiceMonitor labels: {@code namespace},
 * {@code persistentvolumeclaim}): used, capacity and available bytes, and {@code deriv} of used over
 * {@link #WINDOW} for the rate — the signal {@code KubePersistentVolumeFillingUp} predicts from.
 * Whatever goes wrong is ONE note, and the reading is empty: the summaries stand alone.
 */
final class PrometheusReading {
    /** The range of the rate: as long as the standard alert's, so a burst does not decide. */
    static final String WINDOW = "6h";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One claim's series; NaN where Prometheus had none. */
    record Series(double used, double capacity, double available, double rate) {}

    private final Map<String, Series> byClaim;
    private final Optional<String> note;

    private PrometheusReading(Map<String, Series> byClaim, Optional<String> note) {
        this.byClaim = byClaim;
        this.note = note;
    }

    static PrometheusReading none() {
        return new PrometheusReading(Map.of(), Optional.empty());
    }

    static PrometheusReading failed(PrometheusSource source, String why) {
        return new PrometheusReading(Map.of(), Optional.of(noteFor(source, why)));
    }

    private static String noteFor(PrometheusSource source, String why) {
        return "Prometheus at " + source.shown() + " not used (" + why + "); growth unknown, usage from the kubelets' summaries";
    }

    /** Series by {@code namespace/claim}. */
    Map<String, Series> byClaim() {
        return byClaim;
    }

    Optional<String> note() {
        return note;
    }

    /** Reads the four series of the claims of {@code namespaces} (all when empty). */
    static PrometheusReading read(PrometheusSource source, Collection<String> namespaces, Executor executor) {
        String selector = namespaces.isEmpty() ? "" : "{namespace=~\"" + String.join("|", namespaces.stream().sorted().toList()) + "\"}";
        try {
            // the four queries at once: the reading takes one round trip, not four
            List<CompletableFuture<Map<String, Double>>> answers = List.of(
                    "kubelet_volume_stats_used_bytes" + selector, "kubelet_volume_stats_capacity_bytes" + selector,
                    "kubelet_volume_stats_available_bytes" + selector,
                    "deriv(kubelet_volume_stats_used_bytes" + selector + "[" + WINDOW + "])").stream()
                    .map(q -> CompletableFuture.supplyAsync(() -> {
                        try {
                            return query(source, q);
                        } catch (Unusable e) {
                            throw new CompletionException(e);
                        }
                    }, executor)).toList();
            Map<String, Double> used = join(answers.get(0));
            Map<String, Double> capacity = join(answers.get(1));
            Map<String, Double> available = join(answers.get(2));
            Map<String, Double> rate = join(answers.get(3));
            Map<String, Series> out = new HashMap<>();
            for (String key : used.keySet()) {
                out.put(key, new Series(used.get(key), capacity.getOrDefault(key, Double.NaN),
                        available.getOrDefault(key, Double.NaN), rate.getOrDefault(key, Double.NaN)));
            }
            return new PrometheusReading(out, Optional.empty());
        } catch (Unusable e) {
            return failed(source, e.getMessage());
        }
    }

    private static Map<String, Double> join(CompletableFuture<Map<String, Double>> f) throws Unusable {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Unusable u) {
                throw u;
            }
            throw new Unusable(String.valueOf(e.getCause().getMessage()));
        }
    }

    private static final class Unusable extends Exception {
        Unusable(String why) {
            super(why, null, false, false);
        }
    }

    private static Map<String, Double> query(PrometheusSource source, String promql) throws Unusable {
        HttpAnswer a;
        try {
            a = source.get("/api/v1/query", Map.of("query", promql));
        } catch (IOException e) {
            throw new Unusable(e.getMessage() == null ? "no answer" : e.getMessage());
        }
        JsonNode body;
        try {
            body = JSON.readTree(a.body());
        } catch (IOException e) {
            body = null;
        }
        if (body != null && "Status".equals(body.path("kind").asText()) && body.has("code")) {
            // the API server's own answer (services/proxy forbidden, no such service, no endpoints)
            throw new Unusable(body.path("code").asInt() + " " + body.path("message").asText());
        }
        if (body == null || !body.isObject() || !body.has("status")) {
            throw new Unusable("HTTP " + a.code() + ", not Prometheus' JSON API: is it the base URL of Prometheus?");
        }
        if (!"success".equals(body.path("status").asText())) {
            throw new Unusable("HTTP " + a.code() + " " + body.path("errorType").asText("error") + ": "
                    + shorten(body.path("error").asText()));
        }
        JsonNode result = body.path("data").path("result");
        if (!"vector".equals(body.path("data").path("resultType").asText()) || !result.isArray()) {
            throw new Unusable("an answer that is not an instant vector");
        }
        Map<String, Double> out = new HashMap<>();
        for (JsonNode s : result) {
            String ns = s.path("metric").path("namespace").asText("");
            String claim = s.path("metric").path("persistentvolumeclaim").asText("");
            double v = parse(s.path("value").path(1).asText(""));
            if (!ns.isEmpty() && !claim.isEmpty() && !Double.isNaN(v)) {
                out.merge(Metadata.key(ns, claim), v, Math::max); // two kubelets briefly: the larger
            }
        }
        return out;
    }

    private static double parse(String text) {
        try {
            double v = Double.parseDouble(text);
            return Double.isInfinite(v) ? Double.NaN : v;
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static String shorten(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }

    static Optional<Duration> fillsIn(double available, double rate) {
        if (!(rate > 0) || Double.isNaN(available)) {
            return Optional.empty();
        }
        double seconds = Math.max(0, available) / rate;
        return seconds > 1e12 ? Optional.empty() : Optional.of(Duration.ofSeconds((long) Math.ceil(seconds)));
    }
}
