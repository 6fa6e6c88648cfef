package dev.stsresize.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.ssl.SSLSocketFactory;

/**
 * TLS sockets whose handshake gives up after a while, as kubectl's does: client-go's transport sets
 * {@code TLSHandshakeTimeout: 10 * time.Second} (staging/src/k8s.io/client-go/transport/cache.go).
 *
 * <p>Why: client-java sets no read timeout (watches stream for minutes), and OkHttp's TLS handshake reads with the
 * read timeout, so a server that accepts the connection and never answers (a wedged API server, a firewall that
 * completes TCP for the load balancer) held a command forever unless {@code --request-timeout} was given. The
 * timeout is the socket's until the handshake is done: OkHttp then sets its own for what follows (none on an HTTP/2
 * connection, whose streams it times itself; the read timeout per request over HTTP/1.1).
 */
final class HandshakeTimeout extends SSLSocketFactory {
    /** client-go's TLSHandshakeTimeout. */
    static final int KUBECTL_MILLIS = 10_000;

    private final SSLSocketFactory delegate;
    private final int millis;

    HandshakeTimeout(SSLSocketFactory delegate, int millis) {
        this.delegate = delegate;
        this.millis = millis;
    }

    private Socket timed(Socket socket) throws IOException {
        socket.setSoTimeout(millis);
        return socket;
    }

    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
        return timed(delegate.createSocket(s, host, port, autoClose));
    }

    @Override
    public Socket createSocket() throws IOException {
        return timed(delegate.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return timed(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return timed(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return timed(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return timed(delegate.createSocket(address, port, localAddress, localPort));
    }

    @Override
    public String[] getDefaultCipherSuites() {
        return delegate.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return delegate.getSupportedCipherSuites();
    }
}
