package dev.stsresize.cluster;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.credentials.Authentication;
import java.io.IOException;
import java.time.Clock;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * A bearer token from an exec plugin, kept as client-go keeps it: reused until its
 * expirationTimestamp, and fetched anew once when the server answers 401 (a revoked or rotated
 * token), the request then sent again with the fresh one.
 */
final class ExecTokenAuthentication implements Authentication, Interceptor {
    private final ExecCredentialPlugin plugin;
    private final Clock clock;
    private ExecCredentialPlugin.Credential current;

    ExecTokenAuthentication(ExecCredentialPlugin plugin, ExecCredentialPlugin.Credential first, Clock clock) {
        this.plugin = plugin;
        this.current = first;
        this.clock = clock;
    }

    @Override
    public void provide(ApiClient client) {
        client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(this).build());
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        String token = token(null);
        Response response = chain.proceed(withToken(chain.request(), token));
        if (response.code() != 401) {
            return response;
        }
        String fresh = token(token);
        if (fresh.equals(token)) {
            return response;
        }
        response.close();
        return chain.proceed(withToken(chain.request(), fresh));
    }

    /** The token to use; {@code rejected} is one the server refused, to be replaced by a new run of the plugin. */
    private synchronized String token(String rejected) {
        if (current.expiredAt(clock.instant()) || current.token().equals(rejected)) {
            current = plugin.run();
        }
        return current.token();
    }

    private static Request withToken(Request request, String token) {
        return request.newBuilder().header("Authorization", "Bearer " + token).build();
    }
}
