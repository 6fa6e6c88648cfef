package dev.stsresize.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The home directory as kubectl finds it: client-go's {@code util/homedir.HomeDir}, which
 * {@code clientcmd.RecommendedHomeFile} ({@code <home>/.kube/config}) is built on. Not the passwd
 * entry's home ({@code user.home}): under sudo, in a container or on a CI runner {@code $HOME} often names
 * another directory, and the plugin must read the kubeconfig kubectl reads, or it may reach another cluster.
 *
 * <ul>
 *   <li>Elsewhere than Windows: {@code $HOME}, even when unset or empty — then {@code .kube/config} is
 *       relative to the working directory, as Go's {@code filepath.Join("", ".kube", "config")} makes it.</li>
 *   <li>On Windows: the first of {@code %HOME%}, {@code %HOMEDRIVE%%HOMEPATH%}, {@code %USERPROFILE%} holding a
 *       {@code .kube\config}; else the first of {@code %HOME%}, {@code %USERPROFILE%},
 *       {@code %HOMEDRIVE%%HOMEPATH%} that is a writable directory, else the first that exists, else the first set.</li>
 * </ul>
 */
public final class HomeDirectory {
    private HomeDirectory() {}

    /** This process's home directory by that rule (never {@code user.home}). */
    public static String of(Map<String, String> variables) {
        return of(variables, System.getProperty("os.name", ""), Files::isRegularFile, HomeDirectory::writableDirectory,
                Files::exists);
    }

    /**
     * @param kubeconfigExists whether a path names a file (Go's {@code os.Stat} succeeding on {@code .kube\config})
     * @param writableDirectory Go's {@code info.IsDir() && mode&0200 != 0}
     */
    static String of(Map<String, String> variables, String osName, Predicate<Path> kubeconfigExists,
            Predicate<Path> writableDirectory, Predicate<Path> exists) {
        if (!osName.startsWith("Windows")) {
            return variables.getOrDefault("HOME", "");
        }
        String home = variables.getOrDefault("HOME", "");
        String drive = variables.getOrDefault("HOMEDRIVE", "");
        String path = variables.getOrDefault("HOMEPATH", "");
        String driveAndPath = !drive.isEmpty() && !path.isEmpty() ? drive + path : "";
        String profile = variables.getOrDefault("USERPROFILE", "");
        for (String p : nonEmpty(home, driveAndPath, profile)) {
            if (kubeconfigExists.test(Path.of(p, ".kube", "config"))) {
                return p;
            }
        }
        List<String> candidates = nonEmpty(home, profile, driveAndPath);
        for (String p : candidates) {
            if (writableDirectory.test(Path.of(p))) {
                return p;
            }
        }
        for (String p : candidates) {
            if (exists.test(Path.of(p))) {
                return p;
            }
        }
        return candidates.isEmpty() ? "" : candidates.get(0);
    }

    /** {@code <home>/.kube/config}: the kubeconfig read when neither --kubeconfig nor KUBECONFIG names one. */
    public static Path recommendedKubeconfig(String home) {
        return Path.of(home, ".kube", "config");
    }

    private static List<String> nonEmpty(String... paths) {
        List<String> set = new ArrayList<>();
        for (String p : paths) {
            if (!p.isEmpty()) {
                set.add(p);
            }
        }
        return set;
    }

    private static boolean writableDirectory(Path p) {
        return Files.isDirectory(p) && Files.isWritable(p);
    }
}
