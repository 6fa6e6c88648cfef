package dev.stsresize.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/** LIST answers kept per resourceVersion: made once, gzipped once, dropped when the store moves on. */
class ListAnswersTest {
    static ListAnswers.Key key(String labels, long rv) {
        return new ListAnswers.Key(null, "default", labels, null, 0, null, rv);
    }

    @Test
    void theSameListAtTheSameVersionIsMadeOnceAndItsGzipToo() throws Exception {
        ListAnswers lists = new ListAnswers();
        AtomicInteger made = new AtomicInteger();
        ListAnswers.Answer a = lists.get(key("app=db", 7), () -> bytes("one" + made.incrementAndGet()));
        ListAnswers.Answer b = lists.get(key("app=db", 7), () -> bytes("two" + made.incrementAndGet()));
        assertThat(b).isSameAs(a);
        assertThat(made).hasValue(1);
        assertThat(a.gzip()).isSameAs(a.gzip());
        assertThat(new String(new GZIPInputStream(new java.io.ByteArrayInputStream(a.gzip())).readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo("one1");
    }

    @Test
    void anotherSelectorOrAnotherVersionIsAnotherAnswerAndOlderVersionsAreDropped() {
        ListAnswers lists = new ListAnswers();
        ListAnswers.Answer db = lists.get(key("app=db", 7), () -> bytes("db"));
        assertThat(lists.get(key("app=web", 7), () -> bytes("web"))).isNotSameAs(db);
        assertThat(lists.size()).isEqualTo(2);
        ListAnswers.Answer later = lists.get(key("app=db", 8), () -> bytes("db after a write"));
        assertThat(later).isNotSameAs(db);
        assertThat(new String(later.json(), StandardCharsets.UTF_8)).isEqualTo("db after a write");
        assertThat(lists.size()).as("the answers at version 7 can never be asked again").isEqualTo(1);
    }

    @Test
    void atMostMaxEntriesAreKept() {
        ListAnswers lists = new ListAnswers();
        for (int i = 0; i < ListAnswers.MAX_ENTRIES + 5; i++) {
            lists.get(key("n=" + i, 7), () -> bytes("x"));
        }
        assertThat(lists.size()).isEqualTo(ListAnswers.MAX_ENTRIES);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
