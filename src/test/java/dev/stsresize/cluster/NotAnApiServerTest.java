package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import org.junit.jupiter.api.Test;

/**
 * A server that is not kube-apiserver (a web server's 404 page, a proxy's empty 404, a captive portal's login
 * page) is named by URL, status and content type in one paragraph; its body is never shown, and its 404 is
 * never taken for "the object does not exist".
 */
class NotAnApiServerTest extends OnAFakeServer {
    static final String HTML = "<!DOCTYPE HTML>\n<html><head><title>Error response</title></head>\n"
            + "<body><h1>Error response</h1><p>Error code: 404</p></body></html>\n";

    NotAnApiServerTest() {
        super("t");
    }

    @Test
    void anHtml404PageIsOneParagraphWithUrlStatusAndContentTypeNeverTheBody() {
        server.onAnything(Answer.json(404, HTML).withHeader("Content-Type", "text/html;charset=utf-8"));

        assertThatThrownBy(() -> cluster.listStatefulSets(NamespaceScope.of("default")))
                .isInstanceOf(ClusterException.class)
                .hasMessageStartingWith("the server at " + server.url() + " (context \"fake\" of " + home.resolve("kubeconfig")
                        + ") did not answer as a Kubernetes API server: GET " + server.url() + "/apis/apps/v1/namespaces/default/statefulsets"
                        + " was answered 404")
                .hasMessageContaining("content type text/html;charset=utf-8")
                .hasMessageContaining("kubectl cluster-info")
                .hasMessageNotContaining("<")
                .hasMessageNotContaining("Error response")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aProxysEmpty404IsNotTakenForAnAbsentObject() {
        server.onAnything(Answer.json(404, "").withHeader("Content-Type", ""));

        assertThatThrownBy(() -> cluster.getStatefulSet("default", "db"))
                .as("a real NotFound is a Status; an empty 404 says nothing about the StatefulSet")
                .isInstanceOfSatisfying(ClusterException.class, e -> assertThat(e.isNotFound()).isFalse())
                .hasMessageContaining("did not answer as a Kubernetes API server")
                .hasMessageContaining("was answered 404")
                .hasMessageContaining("no content type");
    }

    @Test
    void aRealNotFoundIsStillAbsent() {
        // no route: the fake answers the API server's own NotFound Status
        assertThat(cluster.getStatefulSet("default", "db")).isEmpty();
    }

    @Test
    void aCaptivePortalsLoginPageIsNotReadAsAnAnswer() {
        server.onAnything(Answer.json(200, "<html><body><form action=/login>Sign in to Hotel WiFi</form></body></html>")
                .withHeader("Content-Type", "text/html"));

        assertThatThrownBy(() -> cluster.listClaims(NamespaceScope.of("default")))
                .isInstanceOf(ClusterException.class)
                .hasMessageContaining("did not answer as a Kubernetes API server: GET " + server.url()
                        + "/api/v1/namespaces/default/persistentvolumeclaims was answered 200")
                .hasMessageContaining("content type text/html")
                .hasMessageNotContaining("WiFi")
                .hasMessageNotContaining("<");
    }
}
