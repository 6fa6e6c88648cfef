package dev.stsresize.sim.http;

import dev.stsresize.sim.store.ResourceType;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * LIST answers made once per resourceVersion: the JSON bytes of one (type, namespace, selectors, page) at one
 * resourceVersion, and their gzip form, built at the first request and served again to the next ones until the
 * store moves on. kube-apiserver serves LISTs from its watch cache in memory
 * (staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go) on a machine of its own; the simulator shares the
 * client's cores, and a 6,000-pod answer encoded and gzipped anew for each request (tens of MiB of work) would
 * bill the client for a server's CPU. Nothing answered changes: every write moves the store's one
 * resourceVersion, which is part of the key, and answers of an older one are dropped at the next put.
 */
final class ListAnswers {
    /** Enough for the LISTs a plan sends at once (StatefulSets, claims, StorageClasses, pods, quotas…). */
    static final int MAX_ENTRIES = 16;

    record Key(ResourceType type, String namespace, String labelSelector, String fieldSelector, long limit,
            String continueToken, long resourceVersion) {}

    /** One answer: its bytes, and their gzip once a client that accepts gzip asked. */
    static final class Answer {
        private final byte[] json;
        private byte[] gzip;

        Answer(byte[] json) {
            this.json = json;
        }

        byte[] json() {
            return json;
        }

        synchronized byte[] gzip() throws IOException {
            if (gzip == null) {
                gzip = ApiServer.gzip(json);
            }
            return gzip;
        }
    }

    private final Map<Key, Answer> answers = new LinkedHashMap<>(16, 0.75f, true);

    /** The answer of {@code key}, made by {@code make} when it is not kept (outside the lock: one slow LIST holds no other). */
    Answer get(Key key, Supplier<byte[]> make) {
        synchronized (this) {
            Answer a = answers.get(key);
            if (a != null) {
                return a;
            }
        }
        Answer made = new Answer(make.get());
        synchronized (this) {
            // answers at an older resourceVersion can never be asked again (the store's version only grows)
            for (Iterator<Key> it = answers.keySet().iterator(); it.hasNext(); ) {
                if (it.next().resourceVersion() < key.resourceVersion()) {
                    it.remove();
                }
            }
            Answer kept = answers.putIfAbsent(key, made);
            if (answers.size() > MAX_ENTRIES) {
                Iterator<Key> eldest = answers.keySet().iterator();
                eldest.next();
                eldest.remove();
            }
            return kept != null ? kept : made;
        }
    }

    synchronized int size() {
        return answers.size();
    }
}
