package dev.stsresize.sim.http;

import dev.stsresize.sim.auth.Authenticator;
import java.io.IOException;

/**
 * WithAuthentication (staging/src/k8s.io/apiserver/pkg/endpoints/filters/authentication.go): who is asking, from
 * the client certificate, the bearer token, or system:anonymous ({@link Authenticator}); a 401 otherwise.
 */
final class AuthenticationFilter implements Filter {
    private final Authenticator authenticator;

    AuthenticationFilter(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public Response serve(ServedRequest r, Next next) throws IOException, InterruptedException {
        r.user = authenticator.authenticate(SecureServing.peerCertificates(r.exchange), r.header("Authorization"));
        return next.serve(r);
    }
}
