package dev.stsresize.sim.http;

import dev.stsresize.sim.fault.Fault;
import java.io.IOException;

/**
 * The injected faults of what lies behind an authorized request: a backend that never answers (the request is
 * logged with no status and held until the client gives up or the cluster closes), and a proxy whose backend
 * cannot be dialled (the proxy dials only after authorization and the object's lookup).
 */
final class BackendFaultFilter implements Filter {
    /** How long a hanging fault holds a request at most (a client gives up long before). */
    private static final long HANG_MILLIS = 15 * 60 * 1000L;

    private final Proxies proxies;

    BackendFaultFilter(Proxies proxies) {
        this.proxies = proxies;
    }

    @Override
    public Response serve(ServedRequest r, Next next) throws IOException, InterruptedException {
        Fault fault = r.fault;
        if (fault != null && fault.hangs()) {
            r.record(0);
            Thread.sleep(HANG_MILLIS); // interrupted when the cluster closes
            r.exchange.close();
            return null;
        }
        if (fault != null && fault.backendUnreachable() && Proxies.isProxy(r.info)) {
            throw proxies.unreachable(r.info);
        }
        return next.serve(r);
    }
}
