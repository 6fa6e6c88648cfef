package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import java.util.List;
import java.util.Optional;

/**
 * The legacy discovery documents of a v1.32 server: {@code /version}, {@code /api}, {@code /apis},
 * {@code /apis/GROUP} and the APIResourceList of each group version. kubectl 1.32 asks {@code /api}
 * and {@code /apis} for aggregated discovery (apidiscovery.k8s.io/v2) first and falls back to these
 * when the answer's content type is plain application/json (client-go discovery_client.go).
 */
final class Discovery {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private final Catalog catalog;

    Discovery(Catalog catalog) {
        this.catalog = catalog;
    }

    static ObjectNode version() {
        ObjectNode v = JSON.objectNode();
        v.put("major", "1");
        v.put("minor", "32");
        v.put("gitVersion", "v1.32.13");
        v.put("gitCommit", "0a9b7f5e4c1d3b2a8f6e0d9c7b5a3f1e2d4c6b8a");
        v.put("gitTreeState", "clean");
        v.put("buildDate", "2026-11-12T09:14:33Z");
        v.put("goVersion", "go1.24.9");
        v.put("compiler", "gc");
        v.put("platform", "linux/amd64");
        return v;
    }

    ObjectNode coreVersions(String serverAddress) {
        ObjectNode v = JSON.objectNode();
        v.put("kind", "APIVersions");
        v.putArray("versions").add("v1");
        ObjectNode addr = v.putArray("serverAddressByClientCIDRs").addObject();
        addr.put("clientCIDR", "0.0.0.0/0");
        addr.put("serverAddress", serverAddress);
        return v;
    }

    ObjectNode groupList() {
        ObjectNode l = JSON.objectNode();
        l.put("kind", "APIGroupList");
        l.put("apiVersion", "v1");
        ArrayNode groups = l.putArray("groups");
        for (String g : catalog.groups()) {
            groups.add(groupBody(g));
        }
        return l;
    }

    Optional<ObjectNode> group(String name) {
        if (!catalog.groups().contains(name)) {
            return Optional.empty();
        }
        ObjectNode g = groupBody(name);
        g.put("kind", "APIGroup");
        g.put("apiVersion", "v1");
        return Optional.of(g);
    }

    private static ObjectNode groupBody(String name) {
        ObjectNode g = JSON.objectNode();
        g.put("name", name);
        ObjectNode gv = JSON.objectNode();
        gv.put("groupVersion", name + "/v1");
        gv.put("version", "v1");
        g.putArray("versions").add(gv);
        g.set("preferredVersion", gv.deepCopy());
        return g;
    }

    Optional<ObjectNode> resources(String group, String version) {
        List<ResourceType> types = catalog.inGroup(group);
        if (types.isEmpty() || !version.equals("v1")) {
            return Optional.empty();
        }
        ObjectNode l = JSON.objectNode();
        l.put("kind", "APIResourceList");
        l.put("apiVersion", "v1");
        l.put("groupVersion", group.isEmpty() ? "v1" : group + "/v1");
        ArrayNode rs = l.putArray("resources");
        for (ResourceType t : types) {
            ObjectNode r = rs.addObject();
            r.put("name", t.resource());
            r.put("singularName", t.singularName());
            r.put("namespaced", t.namespaced());
            r.put("kind", t.kind());
            ArrayNode verbs = r.putArray("verbs");
            t.verbs().forEach(verbs::add);
            if (!t.shortNames().isEmpty()) {
                ArrayNode sn = r.putArray("shortNames");
                t.shortNames().forEach(sn::add);
            }
            if (!t.categories().isEmpty()) {
                ArrayNode cs = r.putArray("categories");
                t.categories().forEach(cs::add);
            }
            r.put("storageVersionHash", Integer.toHexString((t.group() + t.resource()).hashCode()));
            for (String sub : t.subresources().stream().sorted().toList()) {
                Catalog.Sub s = Catalog.subresource(t, sub);
                ObjectNode sr = rs.addObject();
                sr.put("name", t.resource() + "/" + sub);
                sr.put("singularName", "");
                sr.put("namespaced", t.namespaced());
                if (!s.group().isEmpty()) {
                    sr.put("group", s.group());
                    sr.put("version", s.version());
                }
                sr.put("kind", s.kind());
                ArrayNode sv = sr.putArray("verbs");
                s.verbs().forEach(sv::add);
            }
        }
        return Optional.of(l);
    }
}
