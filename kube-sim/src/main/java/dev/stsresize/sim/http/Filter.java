package dev.stsresize.sim.http;

import java.io.IOException;
import java.util.List;

/**
 * One step of the handler chain every request passes, as kube-apiserver builds it in
 * staging/src/k8s.io/apiserver/pkg/server/config.go DefaultBuildHandlerChain (WithAuthentication outermost,
 * then WithImpersonation, then flow control, then WithAuthorization, then the API handler). A filter either
 * passes the request on ({@code next.serve(r)}) or answers it: by returning a response, by throwing an
 * {@code ApiError}, or by answering on the connection itself (then it records the request and returns null).
 */
interface Filter {
    Response serve(ServedRequest r, Next next) throws IOException, InterruptedException;

    /** The rest of the chain. */
    interface Next {
        Response serve(ServedRequest r) throws IOException, InterruptedException;
    }

    /** {@code filters} in the order a request passes them, ending in {@code handler}. */
    static Next chain(List<Filter> filters, Next handler) {
        Next next = handler;
        for (int i = filters.size() - 1; i >= 0; i--) {
            Filter f = filters.get(i);
            Next inner = next;
            next = r -> f.serve(r, inner);
        }
        return next;
    }
}
