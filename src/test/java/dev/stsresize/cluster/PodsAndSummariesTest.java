package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The pods and the kubelets' summaries that usage reads, through the port: only the fields read are kept, and each body is read to its end. */
class PodsAndSummariesTest extends OnAFakeServer {
    PodsAndSummariesTest() {
        super("s3cret");
    }

    static final String POD_LIST = """
            {"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"42"},"items":[
             {"metadata":{"name":"db-0","namespace":"shop","uid":"u1","labels":{"app":"db"},
               "ownerReferences":[{"kind":"StatefulSet","name":"db","controller":true}],
               "managedFields":[{"manager":"x","fieldsV1":{"f:spec":{}}}],"annotations":{"nodeName":"not this"}},
              "spec":{"nodeName":"node-1","containers":[{"name":"c","env":[{"name":"nodeName","value":"not this"}]}],"volumes":[]},
              "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]},"futureField":{"x":[1,2]}},
             {"metadata":{"name":"web-0","namespace":"shop","deletionTimestamp":"2026-01-01T00:00:00Z"},"spec":{},"status":{"phase":"Pending"}}
            ]}""";

    @Test
    void aPodListOfAScopeKeepsOnlyWhereEachPodRunsAndWhoOwnsIt() throws IOException {
        server.on("GET", "/api/v1/pods", Answer.json(200, POD_LIST));
        ObjectList list = cluster.listPods(NamespaceScope.all());
        // only the StatefulSets' pods: the controller labels each one it creates (or adopts) with its name
        assertThat(server.last().query()).isEqualTo("labelSelector=statefulset.kubernetes.io%2Fpod-name");
        assertThat(list.resourceVersion()).isEqualTo("42");
        assertThat(list.items()).containsExactly(
                (ObjectNode) KubeClusterTest.tree("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"db-0\",\"namespace\":\"shop\","
                        + "\"ownerReferences\":[{\"kind\":\"StatefulSet\","
                        + "\"name\":\"db\",\"controller\":true}]},\"spec\":{\"nodeName\":\"node-1\"},\"status\":{\"phase\":\"Running\"}}"),
                (ObjectNode) KubeClusterTest.tree("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web-0\",\"namespace\":\"shop\","
                        + "\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"},\"spec\":{},\"status\":{\"phase\":\"Pending\"}}"));
    }

    @Test
    void aPodListBySelectorKeepsWholePods() throws IOException {
        // the negative control: the StatefulSet's own pods (Dependents) are read whole, every field kept
        server.on("GET", "/api/v1/namespaces/shop/pods", Answer.json(200, POD_LIST));
        ObjectList list = cluster.listPods("shop", "app=db");
        assertThat(list.items().get(0).at("/spec/containers/0/name").asText()).isEqualTo("c");
        assertThat(list.items().get(0).at("/futureField/x/1").asInt()).isEqualTo(2);
    }

    @Test
    void aPodListThatIsNotAnObjectIsEmptyAndAFailedOneThrowsAsAnyList() {
        server.on("GET", "/api/v1/pods", Answer.json(200, "[]"));
        assertThat(cluster.listPods(NamespaceScope.all()).items()).isEmpty();
        server.on("GET", "/api/v1/namespaces/shop/pods", Answer.json(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                + "\"message\":\"pods is forbidden\",\"reason\":\"Forbidden\",\"code\":403}"));
        assertThatThrownBy(() -> cluster.listPods(NamespaceScope.of("shop"))).isInstanceOf(ClusterException.class)
                .satisfies(e -> assertThat(((ClusterException) e).code()).isEqualTo(403));
    }

    /** A kubelet summary as pkg/kubelet/apis/stats/v1alpha1 has it, with the stats usage does not read. */
    static final String SUMMARY = """
            {"node":{"nodeName":"node-1","cpu":{"usageNanoCores":1},"memory":{"workingSetBytes":2},"fs":{"usedBytes":3},
              "network":{"interfaces":[{"name":"eth0","rxBytes":4}]}},
             "pods":[{"podRef":{"name":"db-0","namespace":"shop","uid":"u1"},"startTime":"2026-01-01T00:00:00Z",
               "containers":[{"name":"c","cpu":{"usageNanoCores":5},"rootfs":{"usedBytes":6}}],"cpu":{"usageNanoCores":7},
               "volume":[{"time":"2026-01-01T00:00:00Z","availableBytes":10,"capacityBytes":100,"usedBytes":90,"inodesFree":1,
                 "inodes":2,"inodesUsed":1,"name":"data","pvcRef":{"name":"data-db-0","namespace":"shop"}},
                {"time":"2026-01-01T00:00:00Z","availableBytes":5,"capacityBytes":8,"usedBytes":3,"name":"tmp"}],
               "ephemeral-storage":{"usedBytes":8},"process_stats":{"process_count":9}}]}""";

    @Test
    void aNodeSummaryIsReadForItsPodsVolumesOnly() throws IOException {
        server.on("GET", "/api/v1/nodes/node-1/proxy/stats/summary", Answer.json(200, SUMMARY));
        ObjectNode summary = cluster.nodeSummary("node-1", Duration.ofSeconds(5));
        assertThat(summary).isEqualTo(KubeClusterTest.tree("""
                {"node":{"nodeName":"node-1"},
                 "pods":[{"podRef":{"name":"db-0","namespace":"shop","uid":"u1"},
                   "volume":[{"time":"2026-01-01T00:00:00Z","availableBytes":10,"capacityBytes":100,"usedBytes":90,"name":"data",
                     "pvcRef":{"name":"data-db-0","namespace":"shop"}},
                    {"time":"2026-01-01T00:00:00Z","availableBytes":5,"capacityBytes":8,"usedBytes":3,"name":"tmp"}]}]}"""));
    }

    @Test
    void aNodeSummaryThatIsNotJsonIsSaidSo() {
        server.on("GET", "/api/v1/nodes/node-1/proxy/stats/summary", Answer.json(200, "{\"pods\": [ oops"));
        assertThatThrownBy(() -> cluster.nodeSummary("node-1", Duration.ofSeconds(5))).isInstanceOf(ClusterException.class)
                .hasMessageContaining("the answer is not a JSON object");
        server.on("GET", "/api/v1/nodes/node-2/proxy/stats/summary", Answer.json(200, "[1, 2]"));
        assertThat(cluster.nodeSummary("node-2", Duration.ofSeconds(5))).as("not an object: nothing measured").isNull();
    }

    @Test
    void aPodListForPlacementsThatIsNotJsonIsSaidSoNotAsAnUnreachableServer() {
        server.on("GET", "/api/v1/namespaces/default/pods", Answer.json(200, "{\"items\": [ oops"));
        assertThatThrownBy(() -> cluster.listPods(NamespaceScope.of("default"))).isInstanceOf(ClusterException.class)
                .isNotInstanceOf(ServerUnreachable.class).hasMessageContaining("the answer is not a JSON object");
    }

    /** A connection whose response bodies say when they were read to their end and when they were closed. */
    Cluster tracking(List<String> events) throws IOException {
        ClusterConnection conn = Kubeconfigs.connect(Kubeconfigs.tokenConfig(home, server.url(), "s3cret"), home);
        conn.client().setHttpClient(conn.client().getHttpClient().newBuilder().addNetworkInterceptor(chain -> {
            okhttp3.Response response = chain.proceed(chain.request());
            okhttp3.ResponseBody body = response.body();
            okio.BufferedSource tracked = okio.Okio.buffer(new okio.ForwardingSource(body.source()) {
                @Override
                public long read(okio.Buffer sink, long byteCount) throws IOException {
                    long n = super.read(sink, byteCount);
                    if (n == -1) {
                        events.add("end");
                    }
                    return n;
                }

                @Override
                public void close() throws IOException {
                    events.add("close");
                    super.close();
                }
            });
            return response.newBuilder().body(okhttp3.ResponseBody.Companion.create(tracked, body.contentType(), body.contentLength())).build();
        }).build());
        return new KubeCluster(conn);
    }

    @Test
    void aBodyReadForSomeFieldsIsReadToItsEndBeforeItIsClosed() throws IOException {
        // a reader stops at the end of its JSON value; the body closed there would make OkHttp reset the stream on
        // HTTP/2 (a RST_STREAM per summary: servers that guard against rapid resets close the connection) and drop
        // an HTTP/1.1 connection it could not reuse
        List<String> events = new CopyOnWriteArrayList<>();
        Cluster c = tracking(events);
        server.on("GET", "/api/v1/nodes/node-1/proxy/stats/summary", Answer.json(200, "{\"node\":{\"nodeName\":\"node-1\"},\"pods\":[]}\n"));
        c.nodeSummary("node-1", Duration.ofSeconds(5));
        assertThat(events).as("the summary").containsExactly("end", "close");
        events.clear();
        server.on("GET", "/api/v1/pods", Answer.json(200, POD_LIST + "\n"));
        c.listPods(NamespaceScope.all());
        assertThat(events).as("the pod LIST").containsExactly("end", "close");
        events.clear();
        // what follows the value is untrusted: past the limit the body is closed, not read to an end that may not come
        server.on("GET", "/api/v1/nodes/node-2/proxy/stats/summary",
                Answer.json(200, "{\"pods\":[]}" + " ".repeat((int) RawApi.DRAIN_LIMIT * 2)));
        assertThat(c.nodeSummary("node-2", Duration.ofSeconds(5)).path("pods").isArray()).isTrue();
        assertThat(events).as("a long tail").containsExactly("close");
    }
}
