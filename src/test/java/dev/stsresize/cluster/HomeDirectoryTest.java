package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** client-go's homedir.HomeDir, row by row: the home kubectl looks for {@code .kube/config} in. */
class HomeDirectoryTest {
    static final Predicate<Path> NONE = p -> false;

    @Test
    void elsewhere_than_windows_the_home_is_HOME_and_never_the_passwd_entry() {
        assertThat(HomeDirectory.of(Map.of("HOME", "/tmp/h"), "Linux", NONE, NONE, NONE)).isEqualTo("/tmp/h");
        assertThat(HomeDirectory.of(Map.of("HOME", "/tmp/h"))).isEqualTo("/tmp/h")
                .isNotEqualTo(System.getProperty("user.home"));
    }

    @Test
    void with_HOME_unset_kubectl_looks_in_the_working_directory() {
        assertThat(HomeDirectory.of(Map.of(), "Mac OS X", NONE, NONE, NONE)).isEmpty();
        assertThat(HomeDirectory.recommendedKubeconfig("")).isEqualTo(Path.of(".kube", "config"));
    }

    @Test
    void on_windows_the_first_home_holding_a_kubeconfig_wins_drive_and_path_before_the_profile() {
        Map<String, String> vars = Map.of("HOME", "C:\\h", "HOMEDRIVE", "D:", "HOMEPATH", "\\users\\me", "USERPROFILE", "E:\\me");
        Set<Path> configs = Set.of(Path.of("D:\\users\\me", ".kube", "config"), Path.of("E:\\me", ".kube", "config"));
        assertThat(HomeDirectory.of(vars, "Windows 11", configs::contains, NONE, NONE)).isEqualTo("D:\\users\\me");
    }

    @Test
    void on_windows_without_a_kubeconfig_the_first_writable_then_existing_then_set_home_the_profile_before_drive_and_path() {
        Map<String, String> vars = Map.of("HOMEDRIVE", "D:", "HOMEPATH", "\\users\\me", "USERPROFILE", "E:\\me");
        Set<Path> both = Set.of(Path.of("D:\\users\\me"), Path.of("E:\\me"));
        assertThat(HomeDirectory.of(vars, "Windows 11", NONE, both::contains, NONE)).isEqualTo("E:\\me");
        assertThat(HomeDirectory.of(vars, "Windows 11", NONE, Set.of(Path.of("D:\\users\\me"))::contains, NONE))
                .isEqualTo("D:\\users\\me");
        assertThat(HomeDirectory.of(vars, "Windows 11", NONE, NONE, Set.of(Path.of("D:\\users\\me"))::contains))
                .isEqualTo("D:\\users\\me");
        assertThat(HomeDirectory.of(vars, "Windows 11", NONE, NONE, NONE)).isEqualTo("E:\\me");
        assertThat(HomeDirectory.of(Map.of("HOMEDRIVE", "D:"), "Windows 11", NONE, NONE, NONE)).isEmpty();
    }
}
