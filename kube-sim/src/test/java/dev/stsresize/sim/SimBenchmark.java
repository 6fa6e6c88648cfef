package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Not a timed test: prints how long the simulated server takes to LIST 2,000 StatefulSets and 6,000
 * claims through client-java's HTTP stack, and its GET throughput. Run with
 * {@code mvn -B test -Dsurefire.excludedGroups= -Dgroups=bench -Dtest=SimBenchmark}.
 */
@Tag("bench")
class SimBenchmark {
    @Test
    void list_and_get_figures() throws Exception {
        try (SimCluster sim = SimCluster.start()) {
            SimClient client = SimClient.admin(sim);
            List<ObjectNode> objects = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                ObjectNode sts = Fixtures.db();
                sts.withObject("/metadata").put("name", "db-" + i).put("namespace", "ns-" + (i % 20));
                objects.add(sts);
                for (int o = 0; o < 3; o++) {
                    ObjectNode pvc = Fixtures.boundClaim("data-db-" + i + "-" + o, "expandable", "1Gi", "1Gi");
                    pvc.withObject("/metadata").put("namespace", "ns-" + (i % 20));
                    objects.add(pvc);
                }
            }
            sim.load(objects.toArray(new ObjectNode[0]));
            report("LIST 2,000 StatefulSets", sim, client, "/apis/apps/v1/statefulsets", 2000);
            report("LIST 6,000 claims", sim, client, "/api/v1/persistentvolumeclaims", 6000);
            int gets = 5000;
            int threads = 4;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            long start = System.nanoTime();
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                fs.add(pool.submit(() -> {
                    for (int i = offset; i < gets; i += threads) {
                        int n = i % 2000;
                        assertThat(client.get("/apis/apps/v1/namespaces/ns-" + (n % 20) + "/statefulsets/db-" + n).code()).isEqualTo(200);
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            pool.shutdown();
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("GET throughput: %d GETs over %d client threads in %.2f s = %.0f requests/s%n", gets, threads, seconds, gets / seconds);
        }
    }

    private static void report(String what, SimCluster sim, SimClient client, String path, int expected) {
        long[] millis = new long[7];
        long[] server = new long[millis.length];
        int bytes = 0;
        for (int i = 0; i < millis.length; i++) {
            long start = System.nanoTime();
            SimClient.Answer a = client.get(path);
            millis[i] = (System.nanoTime() - start) / 1_000_000;
            List<dev.stsresize.sim.http.RecordedRequest> log = sim.requests();
            server[i] = log.get(log.size() - 1).durationMillis();
            assertThat(a.json().path("items").size()).isEqualTo(expected);
            bytes = a.body().length();
        }
        long[] sorted = millis.clone();
        Arrays.sort(sorted);
        long[] serverSorted = server.clone();
        Arrays.sort(serverSorted);
        System.out.printf("%s (%d kB): client-observed first %d ms, median %d ms, best %d ms; server-side median %d ms; over %d runs%n",
                what, bytes / 1024, millis[0], sorted[sorted.length / 2], sorted[0], serverSorted[serverSorted.length / 2], millis.length);
    }
}
