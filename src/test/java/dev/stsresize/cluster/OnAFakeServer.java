package dev.stsresize.cluster;

import dev.stsresize.cluster.fake.FakeApiServer;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A test class whose every test has a plain-HTTP fake API server of its own and the port over it, as a bearer token's user. */
abstract class OnAFakeServer {
    private final String token;
    @TempDir Path home;
    FakeApiServer server;
    Cluster cluster;

    OnAFakeServer(String token) {
        this.token = token;
    }

    @BeforeEach
    void startServer() throws IOException {
        server = FakeApiServer.http();
        cluster = Kubeconfigs.tokenCluster(home, server.url(), token);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }
}
