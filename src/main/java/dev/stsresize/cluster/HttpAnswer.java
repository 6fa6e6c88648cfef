package dev.stsresize.cluster;

/** One HTTP answer as it came, whatever its code: a proxied backend's (Prometheus') answer is its caller's to read. */
public record HttpAnswer(int code, String contentType, String body) {
    public boolean ok() {
        return code >= 200 && code < 300;
    }

    public boolean json() {
        return contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/json");
    }
}
