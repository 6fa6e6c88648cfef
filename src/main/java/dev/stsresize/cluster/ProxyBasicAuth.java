package dev.stsresize.cluster;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import okhttp3.Authenticator;
import okhttp3.Credentials;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.Route;

/** Answers a proxy's 407 with the user and password of the proxy URL, once (a second 407 is final). */
final class ProxyBasicAuth implements Authenticator {
    private final String credentials;

    ProxyBasicAuth(String rawUserInfo) {
        int colon = rawUserInfo.indexOf(':');
        String user = decode(colon < 0 ? rawUserInfo : rawUserInfo.substring(0, colon));
        String password = colon < 0 ? "" : decode(rawUserInfo.substring(colon + 1));
        this.credentials = Credentials.basic(user, password, StandardCharsets.UTF_8);
    }

    @Override
    public Request authenticate(Route route, Response response) {
        if (response.request().header("Proxy-Authorization") != null) {
            return null;
        }
        return response.request().newBuilder().header("Proxy-Authorization", credentials).build();
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
