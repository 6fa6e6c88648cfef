package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stsresize.cluster.IdleConnections;
import dev.stsresize.sim.demo.DemoScenario;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command closes its connections when it is done: an HTTP/2 connection left open (every kube-apiserver speaks
 * HTTP/2) holds a reader thread in a socket read, and the JVM's exit waits up to 300 ms for it.
 */
class IdleConnectionsTest {
    @TempDir Path home;

    @Test
    void a_command_against_a_cluster_leaves_no_connection_open() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            long before = IdleConnections.mark(); // only this command's clients: other tests' may still be streaming
            // usage's 32 summaries in flight and the plan's LISTs: connections to the simulator, closed at the end
            Commands.Run r = Commands.run(h, "plan", "-A", "-f", Commands.manifest(home, DemoScenario.manifest()).toString());
            assertThat(r.code()).as(r.describe()).isEqualTo(2);
            assertThat(h.sim.requests()).as("the plan talked to the cluster").isNotEmpty();
            assertThat(IdleConnections.openAfter(before)).as("connections open after the command").isZero();
        }
    }

    @Test
    void a_plan_shares_one_connection_to_the_api_server() {
        try (Harness h = Harness.start(home, Demo.cluster())) {
            long before = h.sim.tlsConnections();
            // the LISTs, the pods' and the quotas' start together, then 32 summaries at a time: all of them streams
            // of one HTTP/2 connection, as kubectl's (each connection more is a TLS handshake on both ends)
            Commands.Run r = Commands.run(h, "plan", "-A", "-f", Commands.manifest(home, DemoScenario.manifest()).toString());
            assertThat(r.code()).as(r.describe()).isEqualTo(2);
            assertThat(h.sim.tlsConnections() - before).as("TLS connections the plan opened").isEqualTo(1);
        }
    }
}
