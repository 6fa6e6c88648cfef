package dev.stsresize.sim.http;

import dev.stsresize.sim.auth.Authorizer;
import java.io.IOException;

/**
 * WithAuthorization (staging/src/k8s.io/apiserver/pkg/endpoints/filters/authorization.go): the user may do the
 * request's verb on its resource ({@link Authorizer}: RBAC), else the 403 with the authorizer's reason.
 */
final class AuthorizationFilter implements Filter {
    private final Authorizer authorizer;

    AuthorizationFilter(Authorizer authorizer) {
        this.authorizer = authorizer;
    }

    @Override
    public Response serve(ServedRequest r, Next next) throws IOException, InterruptedException {
        Authorizer.Decision d = authorizer.authorize(r.user, r.info);
        if (!d.allowed()) {
            throw Authorizer.forbidden(r.user, r.info, d.reason());
        }
        return next.serve(r);
    }
}
