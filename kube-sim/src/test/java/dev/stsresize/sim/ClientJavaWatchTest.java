package dev.stsresize.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimList;
import io.kubernetes.client.util.Watch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** client-java's own list-then-watch (as the plugin follows a resize) works against the simulated server. */
class ClientJavaWatchTest extends FreshSim {

    @Override
    SimOptions options() {
        return SimOptions.defaults().withBookmarkMillis(100);
    }

    @BeforeEach
    void load() {
        sim.load(Fixtures.storageClass("expandable", true), Fixtures.boundClaim("data-db-0", "expandable", "1Gi", "1Gi"));
    }

    @Test
    void a_typed_list_then_watch_sees_the_status_change_a_resizer_makes() throws Exception {
        CoreV1Api core = new CoreV1Api(admin.api);
        V1PersistentVolumeClaimList list = core.listNamespacedPersistentVolumeClaim("default").execute();
        assertThat(list.getItems()).hasSize(1);
        String rv = list.getMetadata().getResourceVersion();
        // what a resizer does, through the same registry
        sim.registry().patch(sim.type("v1", "PersistentVolumeClaim"), "default", "data-db-0", "status",
                dev.stsresize.sim.patch.Patches.Type.MERGE, Reference.json("{\"status\":{\"capacity\":{\"storage\":\"2048Mi\"}}}"),
                dev.stsresize.sim.registry.WriteOptions.by("external-resizer"));
        List<String> seen = new ArrayList<>();
        try (Watch<V1PersistentVolumeClaim> watch = Watch.createWatch(admin.api,
                core.listNamespacedPersistentVolumeClaim("default").watch(true).allowWatchBookmarks(true).resourceVersion(rv)
                        .timeoutSeconds(5).buildCall(null),
                new TypeToken<Watch.Response<V1PersistentVolumeClaim>>() { }.getType())) {
            for (Watch.Response<V1PersistentVolumeClaim> event : watch) {
                seen.add(event.type);
                if (event.type.equals("MODIFIED")) {
                    assertThat(event.object.getStatus().getCapacity().get("storage").toSuffixedString()).isEqualTo("2Gi");
                    break;
                }
            }
        }
        assertThat(seen).containsExactly("MODIFIED");
    }
}
