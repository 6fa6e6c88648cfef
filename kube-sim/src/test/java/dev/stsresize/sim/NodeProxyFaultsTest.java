package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.FaultFile;
import dev.stsresize.sim.fault.FaultRule;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node that does not answer: its proxy hangs until the client gives up, or answers the proxy's 503; the other nodes answer. */
class NodeProxyFaultsTest extends FreshSim {

    @BeforeEach
    void load() {
        sim.load(Fixtures.boundClaim("data-db-0", "expandable", "10Gi", "10Gi"), Fixtures.boundClaim("data-db-1", "expandable", "10Gi", "10Gi"),
                KubeletSummaryTest.pod("db-0", "node-a", "Running", "data-db-0", false),
                KubeletSummaryTest.pod("db-1", "node-b", "Running", "data-db-1", false));
    }

    @Test
    void a_hanging_node_holds_the_request_until_the_client_gives_up_and_the_others_answer() throws Exception {
        sim.faults().add(FaultRule.on("get", "nodes/proxy", "node-a", Fault.hang()));
        HttpClient client = HttpClient.newBuilder().sslContext(sim.clientTls()).connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest hung = HttpRequest.newBuilder(URI.create(sim.url() + "/api/v1/nodes/node-a/proxy/stats/summary"))
                .header("Authorization", "Bearer " + sim.adminToken()).timeout(Duration.ofMillis(1500)).build();
        assertThatThrownBy(() -> client.send(hung, HttpResponse.BodyHandlers.ofString())).isInstanceOf(HttpTimeoutException.class);
        assertThat(sim.requests()).anySatisfy(r -> {
            assertThat(r.path()).isEqualTo("/api/v1/nodes/node-a/proxy/stats/summary");
            assertThat(r.status()).as("no answer").isZero();
        });
        assertThat(admin.get("/api/v1/nodes/node-b/proxy/stats/summary").code()).isEqualTo(200);
    }

    @Test
    void an_unreachable_node_is_the_proxy_transports_503() {
        sim.faults().add(FaultRule.on("get", "nodes/proxy", "node-a", Fault.unreachable()));
        SimClient.Answer a = admin.get("/api/v1/nodes/node-a/proxy/stats/summary");
        assertThat(a.code()).isEqualTo(503);
        assertThat(a.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + "\"error trying to reach service: dial tcp 10.0.0.7:10250: connect: connection refused\","
                + "\"reason\":\"ServiceUnavailable\",\"code\":503}");
        assertThat(admin.get("/api/v1/nodes/node-b/proxy/stats/summary").code()).isEqualTo(200);
        SimClient viewer = new SimClient(sim, sim.tokenFor("prod", "viewer"));
        assertThat(viewer.get("/api/v1/nodes/node-a/proxy/stats/summary").code()).as("authorization first, then the dial").isEqualTo(403);
    }

    @Test
    void both_faults_can_be_written_in_a_fault_file(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("faults.yaml");
        Files.writeString(f, """
                faults:
                - {verb: get, resource: nodes/proxy, name: node-a, hang: true}
                - {verb: get, resource: nodes/proxy, name: node-b, unreachable: true}
                """);
        FaultFile.read(f).forEach(sim.faults()::add);
        assertThat(admin.get("/api/v1/nodes/node-b/proxy/stats/summary").message()).startsWith("error trying to reach service: dial tcp ");
        Files.writeString(f, "faults:\n- {verb: get, resource: pods, unreachable: true}\n");
        assertThatThrownBy(() -> FaultFile.read(f)).hasMessageEndingWith("faults[0] has unreachable: true without resource nodes/proxy "
                + "or services/proxy; only a proxy has a backend to miss.");
        Files.writeString(f, "faults:\n- {resource: nodes/proxy, hang: true, status: 503}\n");
        assertThatThrownBy(() -> FaultFile.read(f)).hasMessageContaining("a request meets one fate");
    }
}
