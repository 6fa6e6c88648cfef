package dev.stsresize.converge;

import java.net.InetAddress;
import java.util.Map;

/** Who runs this: "user@host pid", the Lease holder and the name every Event gives. */
public final class Operator {
    private Operator() {}

    public static String identify(Map<String, String> env) {
        String user = env.getOrDefault("USER", System.getProperty("user.name", "unknown"));
        String host = env.get("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                host = "unknown-host";
            }
        }
        return user + "@" + host + " " + ProcessHandle.current().pid();
    }
}
