package dev.stsresize.cluster.fake;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server that accepts connections and never says a word, as a wedged API server or a firewall that completes TCP
 * does: a TLS handshake with it waits until something times it out.
 */
public final class SilentServer implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    public SilentServer() throws IOException {
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    open.add(socket.accept());
                    accepted.incrementAndGet();
                }
            } catch (IOException closed) {
                // closed by the test
            }
        }, "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String url() {
        return "https://127.0.0.1:" + socket.getLocalPort() + "/";
    }

    /** The connections accepted so far: each a handshake begun. */
    public int accepted() {
        return accepted.get();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
