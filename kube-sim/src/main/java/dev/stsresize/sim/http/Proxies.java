package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.registry.Registry;
import dev.stsresize.sim.request.RequestInfo;
import dev.stsresize.sim.request.ServiceBackend;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.usage.KubeletSummary;
import dev.stsresize.sim.usage.MountedVolumes;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The proxy subresources, as kube-apiserver's Connecter REST handlers serve them after authorization
 * (verb from the method, resource "nodes" or "services", subresource "proxy", the name the segment
 * before it — staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go: a path of the form
 * {@code /api/v1/nodes/NAME/proxy/REST…} resolves as any subresource, the rest of the path is the proxy
 * options' {@code path}):
 * <ul>
 *   <li>{@code nodes/NAME/proxy/stats/summary}: the kubelet's summary of that node
 *       ({@link KubeletSummary}); pkg/registry/core/node/rest/proxy.go {@code ProxyREST.Connect} first
 *       looks the node up (node.ResourceLocation: 404 {@code nodes "NAME" not found}); any other kubelet
 *       path is the kubelet mux's {@code 404 page not found}.</li>
 *   <li>{@code namespaces/NS/services/NAME[:PORT]/proxy/PATH}: the in-cluster backend registered for that
 *       Service and port; pkg/registry/core/service/storage/storage.go {@code ResourceLocation}: 404 when
 *       the Service does not exist, 503 {@code no service port "P" found for service "NAME"} for a port
 *       it does not have, 503 {@code no endpoints available for service "NAME"} when nothing runs behind it.</li>
 * </ul>
 * A node "exists" when a pod is bound to it: the simulator stores no Node objects.
 */
final class Proxies {
    /** The kubelet's port (--port, default 10250), what the node proxy dials. */
    static final int KUBELET_PORT = 10250;

    private final Registry registry;
    private final MountedVolumes mounted;
    private final KubeletSummary summary;
    private final Map<String, ServiceBackend> services;

    Proxies(Registry registry, MountedVolumes mounted, KubeletSummary summary, Map<String, ServiceBackend> services) {
        this.registry = registry;
        this.mounted = mounted;
        this.summary = summary;
        this.services = services;
    }

    static boolean isProxy(RequestInfo info) {
        return info.resourceRequest() && info.group().isEmpty() && info.subresource().equals("proxy")
                && (info.resource().equals("nodes") || info.resource().equals("services")) && !info.name().isEmpty();
    }

    Response serve(RequestInfo info, String method, Map<String, String> query, byte[] body) {
        String rest = restOf(info);
        if (info.resource().equals("nodes")) {
            String node = target(info.name()).name();
            requireNode(node);
            if (method.equals("GET") && rest.equals("/stats/summary")) {
                return Response.of(200, summary.of(node));
            }
            return Response.typed(404, "text/plain; charset=utf-8", "404 page not found\n".getBytes(StandardCharsets.UTF_8));
        }
        ServiceBackend backend = service(info);
        ServiceBackend.Answer a = backend.serve(method, rest, query, body);
        return Response.typed(a.code(), a.contentType(), a.body());
    }

    /** The 503 body of a proxy that cannot dial its backend (transport.go), after the lookups that come first. */
    ApiError unreachable(RequestInfo info) {
        String address;
        if (info.resource().equals("nodes")) {
            String node = target(info.name()).name();
            requireNode(node);
            address = mounted.address(node) + ":" + KUBELET_PORT;
        } else {
            Target t = target(info.name());
            ObjectNode svc = requireService(info.namespace(), t.name());
            address = svc.path("spec").path("clusterIP").asText(t.name()) + ":" + (t.port().isEmpty() ? "80" : t.port());
        }
        return ApiError.of(503, "ServiceUnavailable", "error trying to reach service: dial tcp " + address
                + ": connect: connection refused", null);
    }

    private void requireNode(String node) {
        if (!mounted.nodes().contains(node)) {
            throw ApiError.notFound("", "nodes", node);
        }
    }

    private ObjectNode requireService(String namespace, String name) {
        ResourceType services = registry.catalog().byResource("", "services").orElseThrow();
        ObjectNode svc = registry.store().get(services, namespace, name);
        if (svc == null) {
            throw ApiError.notFound("", "services", name);
        }
        return svc;
    }

    private ServiceBackend service(RequestInfo info) {
        Target t = target(info.name());
        ObjectNode svc = requireService(info.namespace(), t.name());
        String port = t.port();
        boolean hasPort = false;
        for (var p : svc.path("spec").path("ports")) {
            if (port.isEmpty() || port.equals(p.path("name").asText()) || port.equals(p.path("port").asText())) {
                hasPort = true;
                port = p.path("port").asText();
                break;
            }
        }
        if (!hasPort) {
            throw ApiError.of(503, "ServiceUnavailable", "no service port \"" + t.port() + "\" found for service \"" + t.name() + "\"", null);
        }
        ServiceBackend b = services.get(info.namespace() + "/" + t.name() + ":" + port);
        if (b == null) {
            throw ApiError.of(503, "ServiceUnavailable", "no endpoints available for service \"" + t.name() + "\"", null);
        }
        return b;
    }

    /** [scheme:]name[:port] as apimachinery's net.SplitSchemeNamePort reads a proxy target. */
    record Target(String name, String port) {}

    static Target target(String id) {
        String[] p = id.split(":", -1);
        return switch (p.length) {
            case 1 -> new Target(p[0], "");
            case 2 -> new Target(p[0], p[1]);
            default -> new Target(p[1], p[2]);
        };
    }

    /** The proxied path: what follows ".../NAME/proxy" in the request path ("" when nothing). */
    private static String restOf(RequestInfo info) {
        String marker = "/" + info.name() + "/proxy";
        String path = info.path();
        int at = path.indexOf(marker);
        return at < 0 ? "" : path.substring(at + marker.length());
    }
}
