package dev.stsresize.sim.prometheus;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.request.ServiceBackend;
import dev.stsresize.sim.usage.Measurement;
import dev.stsresize.sim.usage.MountedVolumes;
import dev.stsresize.sim.usage.VolumeUsage;
import java.math.BigDecimal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Prometheus that has scraped the kubelets every 30 s, reduced to what the plugin asks of it:
 * {@code GET|POST /api/v1/query} (web/api/v1/api.go {@code query}) with the series
 * {@code kubelet_volume_stats_used_bytes}, {@code _capacity_bytes} and {@code _available_bytes} of every
 * claim a Running pod mounts and the kubelet measures (labels as kube-prometheus' kubelet ServiceMonitor gives
 * them), read from the same {@link VolumeUsage} as the summary API, so available is below capacity − used by the
 * reserved blocks and a directory of the node's disk reports the disk; an instant selector takes the last scrape at or before the
 * evaluation time, {@code deriv(…[range])} the least-squares slope of the scrapes in the range (as
 * promql/functions.go funcDeriv: no result with fewer than two), in bytes per second.
 * Any other query is HTTP 400 {@code {"status":"error","errorType":"bad_data","error":"invalid parameter
 * \"query\": …"}} (api.go invalidParamError); any other path the Go mux's {@code 404 page not found}.
 */
public final class Prometheus implements ServiceBackend {
    /** kube-prometheus' Service for Prometheus: where the plugin's in-cluster URL points. */
    public static final String NAMESPACE = "monitoring";
    public static final String SERVICE = "prometheus-k8s";
    public static final int PORT = 9090;

    static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(30);
    /** The lookback delta of an instant selector (--query.lookback-delta, 5m). */
    static final Duration LOOKBACK = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> METRICS = List.of("kubelet_volume_stats_used_bytes", "kubelet_volume_stats_capacity_bytes",
            "kubelet_volume_stats_available_bytes");

    private final MountedVolumes mounted;
    private final VolumeUsage usage;

    public Prometheus(MountedVolumes mounted, VolumeUsage usage) {
        this.mounted = mounted;
        this.usage = usage;
    }

    @Override
    public Answer serve(String method, String path, Map<String, String> query, byte[] body) {
        if (!path.equals("/api/v1/query") || !(method.equals("GET") || method.equals("POST"))) {
            return new Answer(404, "text/plain; charset=utf-8", "404 page not found\n".getBytes(StandardCharsets.UTF_8));
        }
        Map<String, String> form = new LinkedHashMap<>(query);
        if (method.equals("POST")) {
            form.putAll(formBody(body)); // r.FormValue: the body's values come first
        }
        Instant at;
        try {
            at = form.containsKey("time") ? time(form.get("time")) : usage.now();
        } catch (IllegalArgumentException e) {
            return error("invalid parameter \"time\": " + e.getMessage());
        }
        PromQuery q;
        try {
            q = PromQuery.parse(form.getOrDefault("query", ""));
        } catch (PromQuery.Unsupported e) {
            return error("invalid parameter \"query\": " + e.getMessage());
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("status", "success");
        ObjectNode data = out.putObject("data");
        data.put("resultType", "vector");
        ArrayNode result = data.putArray("result");
        for (Series s : series()) {
            if (!q.matches(s.labels())) {
                continue;
            }
            Double value = q.isDeriv() ? deriv(s, at, q.range()) : instant(s, at);
            if (value == null) {
                continue;
            }
            ObjectNode sample = result.addObject();
            ObjectNode metric = sample.putObject("metric");
            s.labels().forEach((k, v) -> {
                if (!(q.isDeriv() && k.equals("__name__"))) { // a function's result drops the metric name
                    metric.put(k, v);
                }
            });
            ArrayNode v = sample.putArray("value");
            v.add(timestamp(at));
            v.add(number(value));
        }
        return new Answer(200, "application/json", bytes(out));
    }

    /** One series: its labels (sorted, as labels.Labels) and how to read it at a time. */
    private record Series(Map<String, String> labels, MountedVolumes.Mounted volume, String metric) {}

    private List<Series> series() {
        List<Series> out = new ArrayList<>();
        for (MountedVolumes.Mounted m : mounted.claimVolumes()) {
            for (String metric : METRICS) {
                Map<String, String> l = new TreeMap<>();
                l.put("__name__", metric);
                l.put("endpoint", "https-metrics");
                l.put("instance", m.hostIP() + ":10250");
                l.put("job", "kubelet");
                l.put("metrics_path", "/metrics");
                l.put("namespace", m.namespace());
                l.put("node", m.node());
                l.put("persistentvolumeclaim", m.claim());
                l.put("service", "kubelet");
                out.add(new Series(l, m, metric));
            }
        }
        return out;
    }

    private double valueAt(Series s, Instant t) {
        Measurement m = measurement(s, t);
        return switch (s.metric()) {
            case "kubelet_volume_stats_used_bytes" -> m.usedBytes();
            case "kubelet_volume_stats_capacity_bytes" -> m.capacityBytes();
            default -> m.availableBytes();
        };
    }

    private Measurement measurement(Series s, Instant t) {
        MountedVolumes.Mounted v = s.volume();
        return usage.measureAt(v.usageNamespace(), v.usageKey(), v.measuredCapacityBytes(), t);
    }

    /** The last scrape at or before {@code at} (scrapes on the 30 s grid), within the lookback. */
    private Double instant(Series s, Instant at) {
        return valueAt(s, lastScrape(at));
    }

    /** funcDeriv: the slope of the least-squares line through the scrapes in (at − range, at]. */
    private Double deriv(Series s, Instant at, Duration range) {
        Instant from = at.minus(range);
        Instant last = lastScrape(at);
        Instant first = last.minus(SCRAPE_INTERVAL.multipliedBy((Duration.between(from, last).toMillis() - 1) / SCRAPE_INTERVAL.toMillis()));
        if (!first.isBefore(last)) {
            return null; // fewer than two scrapes in the range
        }
        if (s.metric().equals("kubelet_volume_stats_used_bytes")) {
            double low = valueAt(s, first);
            Measurement high = measurement(s, last);
            if (low > 0 && high.usedBytes() < high.capacityBytes() - high.reservedBytes()) {
                // neither end clamped, so none between (the model is monotone): the scrapes lie on its line
                MountedVolumes.Mounted v = s.volume();
                return usage.bytesPerSecond(v.usageNamespace(), v.usageKey(), v.measuredCapacityBytes());
            }
        }
        List<double[]> points = new ArrayList<>();
        for (Instant t = last; t.isAfter(from); t = t.minus(SCRAPE_INTERVAL)) {
            points.add(new double[] {(t.toEpochMilli() - at.toEpochMilli()) / 1000.0, valueAt(s, t)});
        }
        if (points.size() < 2) {
            return null;
        }
        // two passes around the means: exact for exact lines (the one-pass sums lose digits at 10^17)
        double meanX = points.stream().mapToDouble(p -> p[0]).average().orElseThrow();
        double meanY = points.stream().mapToDouble(p -> p[1]).average().orElseThrow();
        double covXY = 0;
        double varX = 0;
        for (double[] p : points) {
            covXY += (p[0] - meanX) * (p[1] - meanY);
            varX += (p[0] - meanX) * (p[0] - meanX);
        }
        return covXY / varX;
    }

    private static Instant lastScrape(Instant at) {
        long step = SCRAPE_INTERVAL.toMillis();
        return Instant.ofEpochMilli(Math.floorDiv(at.toEpochMilli(), step) * step);
    }

    /** jsonutil.MarshalTimestamp: seconds, and ".mmm" only when there are milliseconds. */
    static BigDecimal timestamp(Instant t) {
        long ms = t.toEpochMilli();
        return ms % 1000 == 0 ? BigDecimal.valueOf(ms / 1000) : BigDecimal.valueOf(ms, 3);
    }

    /** jsonutil.MarshalFloat: strconv.FormatFloat(f, 'f', -1, 64), as a string. */
    static String number(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }

    /** api.go parseTime: Unix seconds (with a fraction) or RFC 3339. */
    private static Instant time(String s) {
        try {
            BigDecimal seconds = new BigDecimal(s);
            return Instant.ofEpochMilli(seconds.movePointRight(3).longValue());
        } catch (NumberFormatException notANumber) {
            try {
                return Instant.parse(s);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("cannot parse \"" + s + "\" to a valid timestamp");
            }
        }
    }

    private static Answer error(String message) {
        ObjectNode e = JsonNodeFactory.instance.objectNode();
        e.put("status", "error");
        e.put("errorType", "bad_data");
        e.put("error", message);
        return new Answer(400, "application/json", bytes(e));
    }

    private static Map<String, String> formBody(byte[] body) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : new String(body, StandardCharsets.UTF_8).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            out.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    private static byte[] bytes(ObjectNode o) {
        try {
            return JSON.writeValueAsBytes(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
