package dev.stsresize.sim.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.admission.AdmissionChain;
import dev.stsresize.sim.admission.AdmissionPlugin;
import dev.stsresize.sim.registry.strategy.Strategies;
import dev.stsresize.sim.registry.strategy.Strategy;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A new rule of the write path is one class and one line in a table: a strategy registered in
 * {@link Strategies}, a plugin added to the {@link AdmissionChain}, and the registry uses it with nothing else
 * changed.
 */
class WriteTablesTest {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Catalog CATALOG = Catalog.standard();
    private static final ResourceType CONFIG_MAPS = CATALOG.byResource("", "configmaps").orElseThrow();

    /** A rule for ConfigMaps only: data.color may not be "red". */
    private static final Strategy NO_RED = new Strategy() {
        @Override
        public List<ApiError.Cause> validateSpec(ObjectNode obj) {
            return obj.path("data").path("color").asText().equals("red")
                    ? List.of(new ApiError.Cause("FieldValueForbidden", "Forbidden: not red", "data.color"))
                    : List.of();
        }
    };

    /** A mutating plugin that labels every ConfigMap it admits, and a validating one that refuses a "frozen" one. */
    private static final AdmissionPlugin.Mutating LABELS = new AdmissionPlugin.Mutating() {
        @Override
        public String name() {
            return "TestLabels";
        }

        @Override
        public boolean handles(AdmissionPlugin.Attributes a) {
            return a.isMainResource("configmaps");
        }

        @Override
        public void admit(AdmissionPlugin.Attributes a) {
            a.object().withObject("/metadata/labels").put("admitted", "yes");
        }
    };
    private static final AdmissionPlugin.Validating FROZEN = new AdmissionPlugin.Validating() {
        @Override
        public String name() {
            return "TestFrozen";
        }

        @Override
        public boolean handles(AdmissionPlugin.Attributes a) {
            return a.operation() == AdmissionPlugin.Operation.UPDATE && a.isMainResource("configmaps");
        }

        @Override
        public void validate(AdmissionPlugin.Attributes a) {
            if (a.oldObject().path("data").has("frozen")) {
                throw ApiError.forbidden("", "configmaps", a.object().path("metadata").path("name").asText(), "frozen");
            }
        }
    };

    @Test
    void the_standard_chain_is_kube_apiservers_order_of_the_plugins_the_simulator_has() {
        Store store = new Store(Clock.systemUTC(), 100);
        assertThat(AdmissionChain.standard(store, CATALOG).names()).containsExactly("StorageObjectInUseProtection", "PersistentVolumeClaimResize", "ResourceQuota");
    }

    @Test
    void a_strategy_added_to_the_table_is_the_one_the_registry_asks() {
        Registry plain = registry(Strategies.standard(), null);
        Registry withRule = registry(Strategies.standard().with("configmaps", NO_RED), null);

        assertThat(plain.create(CONFIG_MAPS, "default", configMap("a", "red"), WriteOptions.by("test")))
                .as("negative control: without the strategy a red ConfigMap is stored").isNotNull();
        assertThatThrownBy(() -> withRule.create(CONFIG_MAPS, "default", configMap("b", "red"), WriteOptions.by("test")))
                .isInstanceOfSatisfying(ApiError.class, e -> {
                    assertThat(e.code()).isEqualTo(422);
                    assertThat(e.getMessage()).isEqualTo("ConfigMap \"b\" is invalid: data.color: Forbidden: not red");
                });
        assertThat(withRule.create(CONFIG_MAPS, "default", configMap("c", "blue"), WriteOptions.by("test"))).isNotNull();
    }

    @Test
    void plugins_added_to_the_chain_run_mutating_first_then_validating() {
        Store store = new Store(Clock.systemUTC(), 100);
        AdmissionChain chain = AdmissionChain.standard(store, CATALOG).with(LABELS).with(FROZEN);
        Registry r = registry(store, Strategies.standard(), chain);

        ObjectNode created = r.create(CONFIG_MAPS, "default", configMap("a", "red"), WriteOptions.by("test"));
        assertThat(created.path("metadata").path("labels").path("admitted").asText()).isEqualTo("yes");

        ObjectNode frozen = configMap("f", "blue");
        ((ObjectNode) frozen.get("data")).put("frozen", "true");
        r.create(CONFIG_MAPS, "default", frozen, WriteOptions.by("test"));
        ObjectNode change = r.get(CONFIG_MAPS, "default", "f").deepCopy();
        ((ObjectNode) change.get("data")).put("color", "green");
        assertThatThrownBy(() -> r.update(CONFIG_MAPS, "default", "f", "", change, WriteOptions.by("test")))
                .isInstanceOfSatisfying(ApiError.class, e -> assertThat(e.code()).isEqualTo(403));
        ObjectNode other = r.get(CONFIG_MAPS, "default", "a").deepCopy();
        ((ObjectNode) other.get("data")).put("color", "green");
        assertThat(r.update(CONFIG_MAPS, "default", "a", "", other, WriteOptions.by("test")).path("data").path("color").asText())
                .as("negative control: a ConfigMap without the key is updated").isEqualTo("green");
    }

    private static Registry registry(Strategies strategies, AdmissionChain chain) {
        return registry(new Store(Clock.systemUTC(), 100), strategies, chain);
    }

    private static Registry registry(Store store, Strategies strategies, AdmissionChain chain) {
        Registry r = new Registry(store, CATALOG, strategies, chain != null ? chain : AdmissionChain.standard(store, CATALOG));
        ObjectNode ns = JSON.objectNode();
        ns.putObject("metadata").put("name", "default");
        r.create(CATALOG.byResource("", "namespaces").orElseThrow(), "", ns, WriteOptions.by("test"));
        return r;
    }

    private static ObjectNode configMap(String name, String color) {
        ObjectNode cm = JSON.objectNode();
        cm.putObject("metadata").put("name", name);
        cm.putObject("data").put("color", color);
        return cm;
    }
}
