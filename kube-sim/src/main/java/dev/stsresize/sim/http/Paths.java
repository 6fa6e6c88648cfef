package dev.stsresize.sim.http;

import dev.stsresize.sim.request.RequestInfo;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves a URL to a {@link RequestInfo} the way apiserver's RequestInfoFactory does:
 * {@code /api/v1/...} and {@code /apis/GROUP/VERSION/...}, then {@code namespaces/NS/RESOURCE/NAME/SUB}
 * or {@code RESOURCE/NAME/SUB}; the verb from the method, the name and {@code watch=true}.
 */
final class Paths {
    private final Catalog catalog;

    Paths(Catalog catalog) {
        this.catalog = catalog;
    }

    RequestInfo resolve(String method, String path, Map<String, String> query) {
        String[] segs = Arrays.stream(path.split("/")).filter(s -> !s.isEmpty()).toArray(String[]::new);
        String group;
        String version;
        int i;
        if (segs.length >= 2 && segs[0].equals("api")) {
            group = "";
            version = segs[1];
            i = 2;
        } else if (segs.length >= 3 && segs[0].equals("apis")) {
            group = segs[1];
            version = segs[2];
            i = 3;
        } else {
            return RequestInfo.nonResource(method.toLowerCase(java.util.Locale.ROOT), path);
        }
        if (i >= segs.length) {
            return RequestInfo.nonResource(method.toLowerCase(java.util.Locale.ROOT), path);
        }
        String namespace = "";
        if (segs[i].equals("namespaces") && segs.length > i + 2 && isNamespacedResource(group, segs[i + 2])) {
            namespace = segs[i + 1];
            i += 2;
        }
        String resource = segs[i];
        String name = segs.length > i + 1 ? segs[i + 1] : "";
        String sub = segs.length > i + 2 ? segs[i + 2] : "";
        if (resource.equals("namespaces") && !name.isEmpty()) {
            namespace = name; // apiserver treats a namespace as its own namespace for authorization
        }
        boolean watch = "true".equals(query.get("watch")) || "1".equals(query.get("watch"));
        String verb = switch (method) {
            case "GET", "HEAD" -> name.isEmpty() ? (watch ? "watch" : "list") : (watch ? "watch" : "get");
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
            default -> method.toLowerCase(java.util.Locale.ROOT);
        };
        return new RequestInfo(true, verb, group, version, resource, sub, namespace, name, path);
    }

    private boolean isNamespacedResource(String group, String resource) {
        return catalog.byResource(group, resource).map(ResourceType::namespaced).orElse(false);
    }

    Optional<ResourceType> type(RequestInfo r) {
        if (!r.version().equals("v1")) {
            return Optional.empty();
        }
        return catalog.byResource(r.group(), r.resource());
    }
}
