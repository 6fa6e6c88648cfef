package dev.stsresize.sim.request;

/**
 * What a request asks for, as apiserver's RequestInfoFactory resolves it: a resource request
 * (verb, group, version, resource, subresource, namespace, name) or a non-resource path.
 */
public record RequestInfo(boolean resourceRequest, String verb, String group, String version, String resource,
        String subresource, String namespace, String name, String path) {

    public static RequestInfo nonResource(String verb, String path) {
        return new RequestInfo(false, verb, "", "", "", "", "", "", path);
    }

    /** "pods/eviction" or "pods": what RBAC rules and the 403 text name. */
    public String resourceAndSub() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }
}
