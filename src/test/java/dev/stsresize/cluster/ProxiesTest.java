package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stsresize.UserError;
import dev.stsresize.cluster.fake.FakeApiServer;
import dev.stsresize.cluster.fake.FakeApiServer.Answer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Proxy;
import java.net.URI;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProxiesTest {
    static final String STS = "/apis/apps/v1/namespaces/default/statefulsets";
    static final String EMPTY_LIST = "{\"kind\":\"StatefulSetList\",\"apiVersion\":\"apps/v1\",\"metadata\":{},\"items\":[]}";

    @TempDir Path home;

    Path kubeconfig(String proxyLine) throws IOException {
        return Kubeconfigs.write(home, "kubeconfig", """
                current-context: c
                clusters:
                - name: c
                  cluster:
                    server: "http://kube.test.invalid:6443"
                %s
                users:
                - name: u
                  user: {token: t}
                contexts:
                - name: c
                  context: {cluster: c, user: u}
                """.formatted(proxyLine));
    }

    Cluster connect(Path config, Map<String, String> variables) {
        return new KubeCluster(KubeClients.connect(ConnectionSettings.defaults().withKubeconfig(config),
                Kubeconfigs.env(home, variables), "1", new PrintWriter(new StringWriter())));
    }

    @Test
    void theClustersProxyUrlCarriesTheRequests() throws IOException {
        try (FakeApiServer proxy = FakeApiServer.http()) {
            proxy.on("GET", STS, Answer.json(200, EMPTY_LIST));
            Cluster cluster = connect(kubeconfig("    proxy-url: \"" + proxy.url() + "\""), Map.of());

            cluster.listStatefulSets(NamespaceScope.of("default"));

            assertThat(proxy.last().header("Host")).isEqualTo("kube.test.invalid:6443");
            assertThat(proxy.last().path()).isEqualTo(STS);
        }
    }

    @Test
    void theHttpProxyVariableIsHonouredAndItsCredentialsAnswerA407() throws IOException {
        try (FakeApiServer proxy = FakeApiServer.http()) {
            proxy.on("GET", STS, r -> r.header("Proxy-Authorization") == null
                    ? Answer.json(407, "{}").withHeader("Proxy-Authenticate", "Basic realm=\"proxy\"")
                    : Answer.json(200, EMPTY_LIST));
            String url = proxy.url().replace("http://", "http://alice:p%40ss@");
            Cluster cluster = connect(kubeconfig(""), Map.of("HTTP_PROXY", url));

            cluster.listStatefulSets(NamespaceScope.of("default"));

            assertThat(proxy.last().header("Proxy-Authorization"))
                    .isEqualTo("Basic " + Base64.getEncoder().encodeToString("alice:p@ss".getBytes()));
        }
    }

    @Test
    void noProxyKeepsTheRequestsDirect() {
        Proxies.Choice choice = Proxies.choose(ObjectNodes.empty(),
                Kubeconfigs.env(home, Map.of("HTTPS_PROXY", "proxy.corp:3128", "NO_PROXY", "kube.corp,10.0.0.0/8")), "c");

        assertThat(choice.selector().select(URI.create("https://kube.corp:6443"))).containsExactly(Proxy.NO_PROXY);
        assertThat(choice.selector().select(URI.create("https://10.1.2.3:6443"))).containsExactly(Proxy.NO_PROXY);
        assertThat(choice.selector().select(URI.create("https://other.example:6443")).get(0).address().toString())
                .isEqualTo("proxy.corp/<unresolved>:3128");
    }

    @Test
    void aMalformedProxyUrlIsOneSentenceNamingTheCluster() throws IOException {
        Path config = kubeconfig("    proxy-url: \"http://\"");
        assertThatThrownBy(() -> connect(config, Map.of()))
                .isInstanceOf(UserError.class)
                .hasMessage("the proxy-url of kubeconfig cluster \"c\" (http://) is not a proxy URL like"
                        + " http://proxy.example:3128; fix it or unset it.");
    }

    static Stream<Arguments> noProxyRules() {
        return Stream.of(
                Arguments.of("localhost is never proxied", "localhost", "", true),
                Arguments.of("loopback is never proxied", "127.0.0.1", "", true),
                Arguments.of("IPv6 loopback is never proxied", "[::1]", "", true),
                Arguments.of("an empty list proxies everything else", "kube.corp", "", false),
                Arguments.of("* bypasses all", "kube.corp", "*", true),
                Arguments.of("a name matches itself", "kube.corp", "kube.corp", true),
                Arguments.of("a name matches its subdomains", "api.kube.corp", "kube.corp", true),
                Arguments.of("a name does not match a longer name", "notkube.corp", "kube.corp", false),
                Arguments.of("a leading dot matches subdomains only", "kube.corp", ".kube.corp", false),
                Arguments.of("a leading dot matches a subdomain", "a.kube.corp", ".kube.corp", true),
                Arguments.of("*. is a leading dot", "a.kube.corp", "*.kube.corp", true),
                Arguments.of("a port on the entry is ignored", "kube.corp", "kube.corp:6443", true),
                Arguments.of("an IP matches itself", "10.0.0.7", "10.0.0.7", true),
                Arguments.of("a CIDR matches its network", "10.4.5.6", "10.0.0.0/8", true),
                Arguments.of("a CIDR does not match outside", "11.4.5.6", "10.0.0.0/8", false),
                Arguments.of("an IPv6 CIDR matches", "[fd00::5]", "fd00::/8", true),
                Arguments.of("entries are separated by commas", "b.corp", "a.corp, b.corp", true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("noProxyRules")
    void noProxyFollowsGosRules(String rule, String host, String noProxy, boolean bypassed) {
        assertThat(Proxies.bypass(host, List.of(noProxy.toLowerCase().split("\\s*,\\s*")))).isEqualTo(bypassed);
    }
}
