package dev.stsresize.sim.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.spi.JettyExchange;
import org.eclipse.jetty.http.spi.JettyHttpServer;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.RateControl;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The TLS listener as kube-apiserver's ({@code SecureServingInfo.tlsConfig} and {@code Serve} in
 * staging/src/k8s.io/apiserver/pkg/server/secure_serving.go): ALPN offers {@code h2} then {@code http/1.1} (a client
 * that asks for neither gets HTTP/1.1), a client certificate is asked for but not required ({@code tls.RequestClientCert}),
 * at most 100 concurrent streams per HTTP/2 connection, and a connection with nothing in flight is closed after 90 s.
 *
 * <p>Why HTTP/2: every real API server speaks it, and clients behave differently over it — OkHttp multiplexes
 * requests over one connection and resets a stream whose body was closed early, and keeps a reader thread per
 * connection. Jetty ({@code jetty-http2-server}, served to our {@link HttpHandler} through {@code jetty-http-spi}) is
 * the HTTP/2 server; the JDK's built-in server speaks only HTTP/1.1.
 */
final class SecureServing implements AutoCloseable {
    /** http2Options.MaxConcurrentStreams when --http2-max-streams-per-connection is not set. */
    static final int MAX_CONCURRENT_STREAMS = 100;
    /** secureServer.MaxHeaderBytes. */
    static final int MAX_HEADER_BYTES = 1 << 20;
    /** secureServer.IdleTimeout ("matches http.DefaultTransport keep-alive timeout"). */
    static final long IDLE_TIMEOUT_MILLIS = 90_000;

    private final Server jetty;
    private final ServerConnector connector;
    private final AtomicLong tlsConnections = new AtomicLong();

    /** Listening on 127.0.0.1:{@code port} (0: any free port) with {@code tls}, answering every path with {@code handler}. */
    SecureServing(SSLContext tls, int port, HttpHandler handler) {
        this(tls, port, handler, IDLE_TIMEOUT_MILLIS);
    }

    SecureServing(SSLContext tls, int port, HttpHandler handler, long idleTimeoutMillis) {
        QueuedThreadPool threads = new QueuedThreadPool(1024, 4);
        threads.setName("sim-http");
        threads.setDaemon(true); // a demo's process ends when its command does
        this.jetty = new Server(threads);
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        config.setSendDateHeader(true);
        // secureServer.MaxHeaderBytes (1 MiB), where Jetty's default is 8 KiB: an OIDC token with many groups passes
        config.setRequestHeaderSize(MAX_HEADER_BYTES);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        // the serving certificate names 127.0.0.1 and the cluster's names; Go does not compare SNI with Host
        secure.setSniHostCheck(false);
        config.addCustomizer(secure);
        HttpConnectionFactory http1 = new HttpConnectionFactory(config);
        HTTP2ServerConnectionFactory http2 = new HTTP2ServerConnectionFactory(config);
        http2.setMaxConcurrentStreams(MAX_CONCURRENT_STREAMS);
        // Go's guard against rapid resets counts handlers still running (scheduleHandler in net/http's bundled
        // http2 server: a connection error only past 4 × MaxConcurrentStreams queued); Jetty's default refused
        // streams past 128 resets a second, and OkHttp resets every stream whose body is closed before its end
        http2.setRateControlFactory(new RateControl.Factory() {});
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        alpn.setDefaultProtocol(http1.getProtocol());
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setSslContext(tls);
        ssl.setWantClientAuth(true);
        this.connector = new ServerConnector(jetty, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn, http2, http1);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        // as Go's: only a connection with nothing in flight times out; a watch silent for minutes stays open
        // (a handler blocked between events is not idle to Jetty: SecureServingTest)
        connector.setIdleTimeout(idleTimeoutMillis);
        // every connection a client opened, for what a command costs the server: each is a TLS handshake
        connector.addBean(new Connection.Listener() {
            @Override
            public void onOpened(Connection connection) {
                if (connection instanceof SslConnection) {
                    tlsConnections.incrementAndGet();
                }
            }
        });
        jetty.addConnector(connector);
        jetty.setHandler(new ContextHandlerCollection());
        new JettyHttpServer(jetty, true).createContext("/", handler);
        try {
            jetty.start();
        } catch (Exception e) {
            close();
            // as HttpServer.create failed: an UncheckedIOException of the BindException, which `simulate --port`
            // turns into "port N on 127.0.0.1 is already in use" (Jetty wraps it in an IOException of its own)
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.net.BindException bind) {
                    throw new java.io.UncheckedIOException(bind);
                }
            }
            throw new IllegalStateException("the simulated API server cannot listen on 127.0.0.1:" + port + ": " + e.getMessage(), e);
        }
    }

    int port() {
        return connector.getLocalPort();
    }

    /** The TLS connections accepted so far (each one a handshake). */
    long tlsConnections() {
        return tlsConnections.get();
    }

    /** The client certificate chain the TLS handshake brought, or null (none, or not an exchange of this server). */
    static X509Certificate[] peerCertificates(HttpExchange ex) {
        if (ex instanceof JettyExchange j
                && j.getRequest().getAttribute(EndPoint.SslSessionData.ATTRIBUTE) instanceof EndPoint.SslSessionData data
                && data.peerCertificates() != null && data.peerCertificates().length > 0) {
            return data.peerCertificates();
        }
        return null;
    }

    /**
     * Closes the connection {@code ex} came on without an answer: a dropped connection, as a proxy or a crashing
     * server leaves it. Over HTTP/2 every stream on that connection fails with it, as on a real network.
     */
    static void dropConnection(HttpExchange ex) {
        if (ex instanceof JettyExchange j) {
            j.getRequest().getConnectionMetaData().getConnection().getEndPoint().close();
        } else {
            ex.close();
        }
    }

    @Override
    public void close() {
        try {
            jetty.stop();
        } catch (Exception e) {
            // stopping: nothing left to serve
        }
    }
}
