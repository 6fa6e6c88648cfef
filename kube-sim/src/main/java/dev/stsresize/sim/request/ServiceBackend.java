package dev.stsresize.sim.request;

import java.util.Map;

/**
 * What runs behind an in-cluster Service that the API server's service proxy reaches
 * ({@code /api/v1/namespaces/NS/services/NAME:PORT/proxy/PATH}), e.g. the simulated Prometheus.
 */
public interface ServiceBackend {
    /** One HTTP answer of the backend. */
    record Answer(int code, String contentType, byte[] body) {}

    /** Serves {@code method path?query} (path from the backend's root, e.g. "/api/v1/query"). */
    Answer serve(String method, String path, Map<String, String> query, byte[] body);
}
