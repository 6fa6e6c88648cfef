package dev.stsresize.sim.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.sim.request.RequestInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code simulate --faults FILE}: each field of the file maps to the Java fault API, and a mistake names its rule. */
class FaultFileTest {
    @TempDir
    Path dir;

    List<FaultRule> read(String yaml) throws Exception {
        Path f = dir.resolve("faults.yaml");
        Files.writeString(f, yaml);
        return FaultFile.read(f);
    }

    static RequestInfo get(String resource, String name) {
        return new RequestInfo(true, "get", "", "v1", resource, "", "default", name, "");
    }

    @Test
    void every_effect_of_the_java_api_can_be_written() throws Exception {
        List<FaultRule> rules = read("""
                faults:
                - {verb: get, resource: persistentvolumeclaims, name: data-db-0, nth: 2, status: 429, retryAfterSeconds: 3}
                - {verb: get, resource: pods, latencyMillis: 250, drop: true, times: 1}
                - {verb: watch, resource: statefulsets, cutWatchAfterEvents: 2}
                - {verb: get, resource: configmaps, probability: 0.5, seed: 7, status: 500, reason: InternalError, message: boom}
                """);
        assertThat(rules).hasSize(4);
        assertThat(rules.get(0).match(get("persistentvolumeclaims", "data-db-0"))).as("only the 2nd").isNull();
        Fault second = rules.get(0).match(get("persistentvolumeclaims", "data-db-0"));
        assertThat(second.error().code()).isEqualTo(429);
        assertThat(second.error().status().path("reason").asText()).isEqualTo("TooManyRequests");
        assertThat(second.error().status().path("message").asText()).isEqualTo("Too many requests, please try again later.");
        assertThat(second.retryAfterSeconds()).isEqualTo(3);
        Fault drop = rules.get(1).match(get("pods", "p"));
        assertThat(drop.dropConnection()).isTrue();
        assertThat(drop.latencyMillis()).isEqualTo(250);
        assertThat(rules.get(1).match(get("pods", "p"))).as("times: 1").isNull();
        assertThat(rules.get(2).match(new RequestInfo(true, "watch", "apps", "v1", "statefulsets", "", "default", "", ""))
                .cutWatchAfterEvents()).isEqualTo(2);
        long fired = java.util.stream.IntStream.range(0, 200).filter(i -> rules.get(3).match(get("configmaps", "c")) != null).count();
        assertThat(fired).as("about half, reproducibly from the seed").isBetween(70L, 130L);
    }

    @Test
    void mistakes_name_the_rule_and_the_fix() {
        assertThatThrownBy(() -> read("faults:\n- {verb: get}\n")).hasMessageEndingWith(
                "faults[0] does nothing; give it status, drop, cutWatchAfterEvents, hang, unreachable or latencyMillis.");
        assertThatThrownBy(() -> read("faults:\n- {status: 503}\n- {status: 200}\n")).hasMessageContaining(
                "faults[1] has status 200; an injected answer is an error, 400-599.");
        assertThatThrownBy(() -> read("faults:\n- {status: 503, drop: true}\n")).hasMessageContaining("a request meets one fate");
        assertThatThrownBy(() -> read("faults:\n- {status: 503, nth: 1, probability: 0.5}\n")).hasMessageContaining("keep one");
        assertThatThrownBy(() -> read("rules: []\n")).hasMessageContaining("must hold a list under \"faults:\"");
        assertThatThrownBy(() -> read("faults:\n- {status: 503, latencyMillis: -5}\n")).hasMessageContaining(
                "has latencyMillis: -5; use a whole number, 0 or more.");
        assertThatThrownBy(() -> read("faults:\n- {staus: 503}\n")).hasMessageStartingWith("fault rule ").hasMessageEndingWith(
                "faults[0] has an unknown field \"staus\"; the fields are cutWatchAfterEvents, drop, hang, latencyMillis, message, name,"
                        + " nth, probability, reason, resource, retryAfterSeconds, seed, status, times, unreachable, verb.");
        assertThatThrownBy(() -> read("faults:\n- {status: 503}\n- get\n")).hasMessageEndingWith("faults[1] is not a mapping.");
    }

    List<FaultFile.Outage> outages(String yaml) throws Exception {
        Path f = dir.resolve("outages.yaml");
        Files.writeString(f, yaml);
        return FaultFile.outages(f);
    }

    @Test
    void a_component_goes_down_after_a_while_for_a_while_beside_the_rules_or_alone() throws Exception {
        String both = """
                faults:
                - {verb: get, resource: pods, latencyMillis: 25}
                down:
                - {component: kube-controller-manager, afterSeconds: 20, forSeconds: 120}
                - {component: kubelet, forSeconds: 5}
                """;
        assertThat(read(both)).hasSize(1);
        assertThat(outages(both)).containsExactly(
                new FaultFile.Outage("kube-controller-manager", java.time.Duration.ofSeconds(20), java.time.Duration.ofSeconds(120)),
                new FaultFile.Outage("kubelet", java.time.Duration.ZERO, java.time.Duration.ofSeconds(5)));
        String alone = "down: [{component: csi-resizer, forSeconds: 1}]\n";
        assertThat(read(alone)).isEmpty();
        assertThat(outages(alone)).extracting(FaultFile.Outage::component).containsExactly("csi-resizer");
        assertThat(outages("faults: [{verb: get, status: 500}]\n")).isEmpty();
    }

    @Test
    void an_outage_mistake_names_it_and_the_fix() {
        assertThatThrownBy(() -> outages("down: [{component: etcd, forSeconds: 5}]\n")).hasMessageEndingWith(
                "down[0] has component \"etcd\"; use one of csi-resizer, kube-controller-manager, kubelet.");
        assertThatThrownBy(() -> outages("down: [{component: kubelet}]\n")).hasMessageEndingWith(
                "down[0] has no forSeconds; say how long kubelet stays down, in seconds (1 or more).");
        assertThatThrownBy(() -> outages("down: [{component: kubelet, forSeconds: 5, until: never}]\n")).hasMessageEndingWith(
                "down[0] has an unknown field \"until\"; the fields are afterSeconds, component, forSeconds.");
        assertThatThrownBy(() -> outages("down: [kubelet]\n")).hasMessageStartingWith("outage ").hasMessageEndingWith(
                "down[0] is not a mapping.");
        assertThatThrownBy(() -> outages("down: {component: kubelet}\n")).hasMessageContaining("must hold a list under");
        assertThatThrownBy(() -> read("nothing: here\n")).hasMessageContaining("must hold a list under \"faults:\", \"down:\" or both");
    }
}
