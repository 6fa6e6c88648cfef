package dev.stsresize.sim.http;

import dev.stsresize.sim.fault.Fault;
import dev.stsresize.sim.fault.Faults;
import java.io.IOException;

/**
 * The injected faults an overloaded or failing server shows before it looks at permissions: latency, a dropped
 * connection, an error answer (a 429 with Retry-After, as flow control gives, sits where WithPriorityAndFairness
 * does in DefaultBuildHandlerChain: after impersonation, before authorization). A hang and an unreachable proxy
 * backend are the backend's, so they pass on to {@link BackendFaultFilter}, after authorization.
 */
final class FaultFilter implements Filter {
    private final Faults faults;

    FaultFilter(Faults faults) {
        this.faults = faults;
    }

    @Override
    public Response serve(ServedRequest r, Next next) throws IOException, InterruptedException {
        Fault fault = faults.match(r.info);
        r.fault = fault;
        if (fault == null) {
            return next.serve(r);
        }
        if (fault.latencyMillis() > 0) {
            Thread.sleep(fault.latencyMillis());
        }
        if (fault.dropConnection()) {
            r.record(0);
            SecureServing.dropConnection(r.exchange); // before any header: no answer
            return null;
        }
        if (fault.hangs() || fault.backendUnreachable() && Proxies.isProxy(r.info)) {
            return next.serve(r);
        }
        if (fault.error() != null) {
            if (fault.retryAfterSeconds() != null) {
                r.exchange.getResponseHeaders().set("Retry-After", Integer.toString(fault.retryAfterSeconds()));
            }
            return Response.of(fault.error().code(), fault.error().status());
        }
        return next.serve(r);
    }
}
