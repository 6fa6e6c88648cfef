package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.AwaitObject;
import dev.stsresize.cluster.Cluster;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The kubelet refreshes its volume stats once per its volumeStatsAggPeriod (1m by default): following the file systems reads each
 * node's summary once per wait stretch, not once per claim (nor again at each change of a claim).
 */
class SummaryOncePerNodeTest {
    private static final String NS = "shop";

    private static ObjectNode claim(String name) {
        ObjectNode c = Objects.MAPPER.createObjectNode();
        c.putObject("metadata").put("name", name).put("namespace", NS).put("resourceVersion", "7");
        c.putObject("spec").putObject("resources").putObject("requests").put("storage", "20Gi");
        c.putObject("status").putObject("capacity").put("storage", "20Gi");
        return c;
    }

    private static ObjectNode pod(String name, String claim) {
        ObjectNode p = Objects.MAPPER.createObjectNode();
        p.putObject("metadata").put("name", name).put("namespace", NS);
        ObjectNode spec = p.putObject("spec").put("nodeName", "node-a");
        spec.putArray("volumes").addObject().put("name", "data").putObject("persistentVolumeClaim").put("claimName", claim);
        p.putObject("status").put("phase", "Running");
        return p;
    }

    private static ObjectNode summary(List<String> claims) {
        ObjectNode s = Objects.MAPPER.createObjectNode();
        s.putObject("node").put("nodeName", "node-a");
        ArrayNode pods = s.putArray("pods");
        for (String c : claims) {
            pods.addObject().putArray("volume").addObject().put("capacityBytes", 21_000_000_000L).putObject("pvcRef")
                    .put("name", c).put("namespace", NS);
        }
        return s;
    }

    @Test
    void three_claims_on_one_node_cost_one_summary() {
        List<String> names = List.of("data-db-0", "data-db-1", "data-db-2");
        List<String> summaries = new CopyOnWriteArrayList<>();
        Cluster cluster = (Cluster) Proxy.newProxyInstance(Cluster.class.getClassLoader(), new Class<?>[] {Cluster.class},
                (p, m, args) -> switch (m.getName()) {
                    case "getClaim" -> Optional.of(claim((String) args[1]));
                    case "getPod" -> Optional.of(pod((String) args[1], "data-" + args[1]));
                    case "nodeSummary" -> {
                        summaries.add((String) args[0]);
                        yield summary(names);
                    }
                    default -> throw new UnsupportedOperationException(m.getName());
                });
        Clock clock = Clock.systemUTC();
        Waiter waiter = new Waiter(new AwaitObject(cluster, clock), clock, Progress.NONE, new StopRequest());
        FileSystems fs = new FileSystems(cluster, waiter, clock);
        Map<String, String> targets = new LinkedHashMap<>();
        names.forEach(n -> targets.put(n, "20Gi"));

        Map<String, FileSystems.Checked> checked = fs.follow(NS, "db", targets, clock.instant().plus(Duration.ofSeconds(5)),
                new StopRequest(), List::of);

        assertThat(checked.values()).extracting(FileSystems.Checked::state).containsOnly(FileSystem.GROWN);
        assertThat(summaries).as("summaries read").containsExactly("node-a");
    }
}
