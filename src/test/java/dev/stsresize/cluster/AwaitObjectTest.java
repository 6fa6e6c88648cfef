package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import dev.stsresize.cluster.fake.FakeApiServer.Recorded;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.BeforeEach;

class AwaitObjectTest extends OnAFakeServer {
    static final String CLAIMS = "/api/v1/namespaces/default/persistentvolumeclaims";
    static final String CLAIM = CLAIMS + "/data-db-0";
    static final String STS = "/apis/apps/v1/namespaces/default/statefulsets";
    static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");
    static final Predicate<Optional<ObjectNode>> GROWN =
            c -> c.map(o -> o.at("/status/capacity/storage").asText().equals("20Gi")).orElse(false);

    AwaitObject await;

    AwaitObjectTest() {
        super("t");
    }

    @BeforeEach
    void makeAwait() {
        await = new AwaitObject(cluster, Clock.systemUTC());
    }

    static String claim(String rv, String capacity) {
        return "{\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"data-db-0\",\"resourceVersion\":\"" + rv
                + "\"},\"status\":{\"capacity\":{\"storage\":\"" + capacity + "\"}}}";
    }

    static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    List<Recorded> watches() {
        return server.requests().stream().filter(r -> r.query() != null && r.query().contains("watch=true")).toList();
    }

    @Test
    void aConditionAlreadyTrueNeedsNoWatch() {
        server.on("GET", CLAIM, Answer.json(200, claim("5", "20Gi")));

        AwaitObject.Outcome outcome = await.until(WatchedKind.PERSISTENT_VOLUME_CLAIM, "default", "data-db-0", GROWN, FAR);

        assertThat(outcome.reached()).isTrue();
        assertThat(watches()).isEmpty();
    }

    @Test
    void followsTheObjectAcrossEndedStreamsFromTheLastResourceVersion() {
        server.on("GET", CLAIM, Answer.json(200, claim("5", "10Gi")));
        server.on("GET", CLAIMS, r -> r.query().endsWith("resourceVersion=5")
                ? Answer.stream(event("MODIFIED", claim("6", "10Gi")))
                : Answer.stream(event("MODIFIED", claim("7", "20Gi"))));

        AwaitObject.Outcome outcome = await.until(WatchedKind.PERSISTENT_VOLUME_CLAIM, "default", "data-db-0", GROWN, FAR);

        assertThat(outcome.reached()).isTrue();
        assertThat(outcome.object().orElseThrow().at("/metadata/resourceVersion").asText()).isEqualTo("7");
        assertThat(watches()).extracting(Recorded::query)
                .allMatch(q -> q.contains("fieldSelector=metadata.name%3Ddata-db-0"))
                .extracting(q -> q.replaceAll(".*resourceVersion=", ""))
                .containsExactly("5", "6");
    }

    @Test
    void waitingForADeletionEndsAtTheDeletedEvent() {
        String sts = "{\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"db\",\"resourceVersion\":\"30\",\"finalizers\":[\"orphan\"]}}";
        server.on("GET", STS + "/db", Answer.json(200, sts));
        server.on("GET", STS, Answer.stream(event("MODIFIED", sts.replace("\"30\"", "\"31\"")),
                event("DELETED", sts.replace("\"30\"", "\"32\""))));

        AwaitObject.Outcome outcome = await.until(WatchedKind.STATEFUL_SET, "default", "db", Optional::isEmpty, FAR);

        assertThat(outcome).isEqualTo(new AwaitObject.Outcome(Optional.empty(), true));
    }

    @Test
    void anAbsentObjectIsAlreadyDeleted() {
        assertThat(await.until(WatchedKind.STATEFUL_SET, "default", "db", Optional::isEmpty, FAR).reached()).isTrue();
        assertThat(watches()).isEmpty();
    }

    @Test
    void aTooOldResourceVersionStartsOverFromAFreshRead() {
        AtomicInteger gets = new AtomicInteger();
        server.on("GET", CLAIM, r -> Answer.json(200, gets.incrementAndGet() == 1 ? claim("5", "10Gi") : claim("90", "10Gi")));
        server.on("GET", CLAIMS, r -> r.query().endsWith("resourceVersion=5")
                ? Answer.stream(event("ERROR", "{\"kind\":\"Status\",\"code\":410,\"reason\":\"Expired\",\"message\":\"too old resource version: 5 (80)\"}"))
                : Answer.stream(event("MODIFIED", claim("91", "20Gi"))));

        assertThat(await.until(WatchedKind.PERSISTENT_VOLUME_CLAIM, "default", "data-db-0", GROWN, FAR).reached()).isTrue();
        assertThat(gets).hasValue(2);
        assertThat(watches().get(1).query()).endsWith("resourceVersion=90");
    }

    @Test
    void otherWatchErrorsSurface() {
        server.on("GET", CLAIM, Answer.json(200, claim("5", "10Gi")));
        server.on("GET", CLAIMS, Answer.stream(event("ERROR", "{\"kind\":\"Status\",\"code\":500,\"message\":\"etcd is sad\"}")));

        assertThatThrownBy(() -> await.until(WatchedKind.PERSISTENT_VOLUME_CLAIM, "default", "data-db-0", GROWN, FAR))
                .isInstanceOf(ClusterException.class).hasMessage("etcd is sad");
    }

    @Test
    void aPassedDeadlineAnswersTheStateAsReadWithoutWatching() {
        server.on("GET", CLAIM, Answer.json(200, claim("5", "10Gi")));
        AwaitObject late = new AwaitObject(new KubeCluster(Kubeconfigs.connect(home.resolve("kubeconfig"), home)),
                Clock.fixed(FAR.plusSeconds(1), ZoneOffset.UTC));

        AwaitObject.Outcome outcome = late.until(WatchedKind.PERSISTENT_VOLUME_CLAIM, "default", "data-db-0", GROWN, FAR);

        assertThat(outcome.reached()).isFalse();
        assertThat(outcome.object().orElseThrow().at("/status/capacity/storage").asText()).isEqualTo("10Gi");
        assertThat(watches()).isEmpty();
    }

    @Test
    void theDeadlineStopsAWatchThatHearsNothing() {
        server.on("GET", CLAIM, Answer.json(200, claim("5", "10Gi")));
        server.on("GET", CLAIMS, Answer.hanging(event("MODIFIED", claim("6", "15Gi"))));

        AwaitObject.Outcome outcome = await.until(WatchedKind.PERSISTENT_VOLUME_CLAIM, "default", "data-db-0", GROWN,
                Instant.now().plus(Duration.ofMillis(300)));

        assertThat(outcome.reached()).isFalse();
        assertThat(outcome.object().orElseThrow().at("/status/capacity/storage").asText()).isEqualTo("15Gi");
    }
}
