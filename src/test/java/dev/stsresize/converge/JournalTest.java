package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local journal on disk: where it lives, one private file per run, what a listing finds, and a file it cannot read. */
class JournalTest {
    @TempDir Path tmp;

    private static Record record(String ns, String name) {
        ObjectNode live = Objects.parse("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\"}}");
        return RecordBuilder.record().namespace(ns).name(name).live(live).claimTargets(Map.of("data-" + name + "-0", "2Gi"))
                .build();
    }

    @Test
    void the_directory_is_xdg_state_home_when_absolute_else_under_the_home_given() {
        Path home = Path.of("/home/alice");
        assertThat(Journal.defaultDirectory(Map.of("XDG_STATE_HOME", "/var/state"), home)).isEqualTo(Path.of("/var/state/kubectl-stsresize"));
        assertThat(Journal.defaultDirectory(Map.of("XDG_STATE_HOME", "relative/state"), home))
                .as("the XDG rule ignores a relative path").isEqualTo(Path.of("/home/alice/.local/state/kubectl-stsresize"));
        assertThat(Journal.defaultDirectory(Map.of(), home)).isEqualTo(Path.of("/home/alice/.local/state/kubectl-stsresize"));
        assertThat(Journal.defaultDirectory(Map.of(), Path.of("not-absolute")))
                .isEqualTo(Path.of(System.getProperty("user.home"), ".local", "state", "kubectl-stsresize"));
    }

    @Test
    void a_record_is_written_owner_only_read_back_listed_and_removed() throws Exception {
        Path dir = tmp.resolve("a").resolve("kubectl-stsresize");
        Journal j = new Journal(dir);
        assertThat(j.directory()).isEqualTo(dir);
        assertThat(j.all()).as("no folder yet").isEmpty();
        assertThat(j.read("shop", "db")).isEmpty();
        j.write(record("shop", "db"));
        j.write(record("shop", "db").withPhase("verifying"));
        j.write(record("prod", "kafka"));
        Path file = j.file("shop", "db");
        assertThat(file).isEqualTo(dir.resolve("shop_db.json"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(Files.exists(dir.resolve("shop_db.json.tmp"))).as("the temp file was moved").isFalse();
        assertThat(j.read("shop", "db").orElseThrow().phase()).isEqualTo("verifying");
        assertThat(j.entries()).extracting(e -> e.namespace() + "/" + e.name() + " " + e.file().getFileName() + " " + e.record().name())
                .containsExactly("prod/kafka prod_kafka.json kafka", "shop/db shop_db.json db");
        j.remove("shop", "db");
        j.remove("shop", "db");
        assertThat(j.all()).extracting(Record::name).containsExactly("kafka");
    }

    @Test
    void a_folder_made_by_someone_else_with_wider_rights_is_made_private() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("wide"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        new Journal(dir).write(record("shop", "db"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    }

    @Test
    void files_that_are_not_a_runs_record_are_not_listed() throws Exception {
        Journal j = new Journal(tmp);
        j.write(record("shop", "db"));
        Files.writeString(tmp.resolve("notes.txt"), "x");
        Files.writeString(tmp.resolve("_nonamespace.json"), "{}");
        Files.writeString(tmp.resolve("nounderscore.json"), "{}");
        Files.writeString(tmp.resolve("shop_db.orig"), "{}"); // a copy someone kept: its name is the record's and five more characters
        assertThat(j.entries()).extracting(Journal.Entry::name).containsExactly("db");
    }

    @Test
    void a_file_that_is_not_json_is_named_with_the_way_out() throws Exception {
        Journal j = new Journal(tmp);
        Files.writeString(j.file("shop", "db"), "{not json");
        assertThatThrownBy(() -> j.read("shop", "db")).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("the local journal " + j.file("shop", "db") + " cannot be read (")
                .hasMessageEndingWith("); move it away to start over");
    }

    @Test
    void a_journal_that_cannot_be_written_says_where() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        Journal j = new Journal(file.resolve("below"));
        assertThatThrownBy(() -> j.write(record("shop", "db"))).isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot write the local journal in " + file.resolve("below") + ": ");
    }
}
