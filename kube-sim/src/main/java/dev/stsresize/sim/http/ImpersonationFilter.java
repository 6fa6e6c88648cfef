package dev.stsresize.sim.http;

import dev.stsresize.sim.auth.Impersonation;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * WithImpersonation (staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation.go): the Impersonate-*
 * headers replace the user when the requester may impersonate ({@link Impersonation}, a 403 otherwise). Groups
 * or extras without a user are answered here, as the real filter does, with responsewriters.InternalError's
 * plain text.
 */
final class ImpersonationFilter implements Filter {
    private final Impersonation impersonation;

    ImpersonationFilter(Impersonation impersonation) {
        this.impersonation = impersonation;
    }

    @Override
    public Response serve(ServedRequest r, Next next) throws IOException, InterruptedException {
        try {
            r.user = impersonation.apply(r.user, r.exchange.getRequestHeaders());
        } catch (Impersonation.WithoutUser e) {
            // http.Error's text/plain "Internal Server Error: %q: %v", with req.RequestURI: the request line's
            // target (HTTP/2's :path), never an absolute URI
            String rawQuery = r.exchange.getRequestURI().getRawQuery();
            String target = r.path + (rawQuery == null ? "" : "?" + rawQuery);
            r.record(500);
            sendPlainText(r, 500, ("Internal Server Error: \"" + target + "\": " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
            return null;
        }
        r.userName = r.user.name();
        return next.serve(r);
    }

    private static void sendPlainText(ServedRequest r, int code, byte[] text) {
        try {
            r.exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            r.exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            r.exchange.sendResponseHeaders(code, text.length);
            try (OutputStream out = r.exchange.getResponseBody()) {
                out.write(text);
            }
        } catch (IOException clientGone) {
            // the client went away: nothing left to answer
        } finally {
            r.exchange.close();
        }
    }
}
